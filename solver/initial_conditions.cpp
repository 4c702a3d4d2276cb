// Built with -ffp-contract=off (see solver/CMakeLists.txt): randn must round the same way on
// every compiler and machine, so no fused multiply-adds (initial_values.hpp has the formulas).
#include "solver/initial_conditions.hpp"

#include "solver/errors.hpp"
#include "solver/initial_values.hpp"

namespace heat {

double standard_normal(std::uint64_t seed, std::uint64_t n) { return initial_values::standard_normal(seed, n); }

template <typename T>
Field<T> gaussian_field(const Grid& g) {
  auto u = Field<T>::uninitialized(g);
  const initial_values::GaussianShape shape = initial_values::gaussian_shape(g);
#pragma omp parallel for schedule(static)
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) u(i, j, k) = static_cast<T>(initial_values::gaussian(shape, i, j, k));
  return u;
}

template <typename T>
Field<T> randn_field(const Grid& g, std::uint64_t seed) {
  auto u = Field<T>::uninitialized(g);
  T* data = u.data();
  parallel_for_points(u.size(), [&](std::size_t n) {
    data[n] = static_cast<T>(initial_values::standard_normal(seed, n));
  });
  return u;
}

std::vector<double> sine_profile(int n, int mode) {
  std::vector<double> s(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) s[std::size_t(i)] = initial_values::sine_profile(i, n, mode);
  return s;
}

template <typename T>
Field<T> sine_field(const Grid& g, const std::array<int, 3>& modes) {
  auto u = Field<T>::uninitialized(g);
  const auto sx = sine_profile(g.nx, modes[0]), sy = sine_profile(g.ny, modes[1]), sz = sine_profile(g.nz, modes[2]);
#pragma omp parallel for schedule(static)
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) u(i, j, k) = static_cast<T>(initial_values::sine(sx[i], sy[j], sz[k]));
  return u;
}

template <typename T>
Field<T> make_initial_field(const Grid& g, const InitSpec& spec) {
  switch (spec.kind) {
    case InitKind::Gaussian: return gaussian_field<T>(g);
    case InitKind::Randn: return randn_field<T>(g, spec.seed);
    case InitKind::Sine: return sine_field<T>(g, spec.modes);
    case InitKind::File: break;
  }
  throw InputError("--init file needs an input reader, which this build does not have yet");
}

#define HEAT_INSTANTIATE_INITIAL_FIELDS(T)                                          \
  template Field<T> gaussian_field<T>(const Grid&);                                 \
  template Field<T> randn_field<T>(const Grid&, std::uint64_t);                     \
  template Field<T> sine_field<T>(const Grid&, const std::array<int, 3>&);          \
  template Field<T> make_initial_field<T>(const Grid&, const InitSpec&);
HEAT_INSTANTIATE_INITIAL_FIELDS(float)
HEAT_INSTANTIATE_INITIAL_FIELDS(double)

}  // namespace heat
