// Built with -ffp-contract=off (see solver/CMakeLists.txt): randn must round the same way on
// every compiler and machine, so no fused multiply-adds and no libm transcendental calls.
#include "solver/initial_conditions.hpp"

#include <algorithm>
#include <cmath>

#include "solver/errors.hpp"

namespace heat {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A uniform double in (-1, 1) with 53 random bits, from a counter-based hash.
double uniform_pm1(std::uint64_t key) {
  const std::uint64_t bits = splitmix64(key) >> 11;
  return (double(bits) + 0.5) * (2.0 / 9007199254740992.0) - 1.0;
}

// Natural log from +, -, *, / only (IEEE-exact operations): x = m * 2^e with m in
// [sqrt(1/2), sqrt(2)), log m = 2 atanh((m-1)/(m+1)) summed to double precision.
double portable_log(double x) {
  int e = 0;
  double m = std::frexp(x, &e);  // exact: m in [0.5, 1)
  if (m < 0.70710678118654752) {
    m *= 2.0;
    e -= 1;
  }
  const double s = (m - 1.0) / (m + 1.0);  // |s| < 0.172
  const double s2 = s * s;
  double term = s, sum = 0.0;
  for (int k = 1; k <= 41; k += 2) {
    sum += term / double(k);
    term *= s2;
  }
  return 2.0 * sum + double(e) * 0.69314718055994530942;
}

}  // namespace

double standard_normal(std::uint64_t seed, std::uint64_t n) {
  // Marsaglia's polar method: sqrt is exactly rounded by IEEE, the log is portable_log.
  const std::uint64_t stream = splitmix64(seed ^ 0x5eed5eed5eed5eedULL);
  for (std::uint64_t attempt = 0;; ++attempt) {
    const std::uint64_t key = splitmix64(stream + n) ^ (attempt * 0xd1b54a32d192ed03ULL);
    const double a = uniform_pm1(key), b = uniform_pm1(key + 0x632be59bd9b4e019ULL);
    const double s = a * a + b * b;
    if (s > 0.0 && s < 1.0) return a * std::sqrt(-2.0 * portable_log(s) / s);
  }
}

template <typename T>
Field<T> gaussian_field(const Grid& g) {
  auto u = Field<T>::uninitialized(g);
  const double lx = (g.nx - 1) * g.hx, ly = (g.ny - 1) * g.hy, lz = (g.nz - 1) * g.hz;
  const double sigma = 0.1 * std::min({lx, ly, lz});
  const double inv_two_sigma2 = 1.0 / (2.0 * sigma * sigma);
#pragma omp parallel for schedule(static)
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const double dx = i * g.hx - 0.5 * lx, dy = j * g.hy - 0.5 * ly, dz = k * g.hz - 0.5 * lz;
        u(i, j, k) = static_cast<T>(std::exp(-(dx * dx + dy * dy + dz * dz) * inv_two_sigma2));
      }
  return u;
}

template <typename T>
Field<T> randn_field(const Grid& g, std::uint64_t seed) {
  auto u = Field<T>::uninitialized(g);
  T* data = u.data();
  parallel_for_points(u.size(), [&](std::size_t n) { data[n] = static_cast<T>(standard_normal(seed, n)); });
  return u;
}

template <typename T>
Field<T> sine_field(const Grid& g, const std::array<int, 3>& modes) {
  auto u = Field<T>::uninitialized(g);
  const double pi = 3.14159265358979323846;
  auto profile = [&](int n, int mode) {
    std::vector<double> s(n);
    for (int i = 0; i < n; ++i) s[i] = std::sin(mode * pi * i / double(n - 1));
    return s;
  };
  const auto sx = profile(g.nx, modes[0]), sy = profile(g.ny, modes[1]), sz = profile(g.nz, modes[2]);
#pragma omp parallel for schedule(static)
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) u(i, j, k) = static_cast<T>(sx[i] * sy[j] * sz[k]);
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
