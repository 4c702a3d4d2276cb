// Built with -ffp-contract=off (see core/CMakeLists.txt): randn must round the same way on
// every compiler and machine, so no fused multiply-adds (initial_values.hpp has the formulas).
#include "core/initial_conditions.hpp"

#include "core/comma_numbers.hpp"
#include "core/errors.hpp"
#include "core/initial_values.hpp"
#include "core/number_text.hpp"

namespace heat {

double standard_normal(std::uint64_t seed, std::uint64_t n) { return initial_values::standard_normal(seed, n); }

namespace {

// u(i - box.x.first, j - box.y.first, k - box.z.first) = point(n, i, j, k) over `box` of `whole`,
// n the point's flat index in `whole` (randn's counter), each value rounded once to T.
template <typename T, class Point>
Field<T> fill_box(const Grid& whole, const GridBox& box, Point point) {
  auto u = Field<T>::uninitialized(box.x.count, box.y.count, box.z.count);
  T* data = u.data();
  parallel_for_points(u.size(), [&](std::size_t m) {
    const BoxPoint p = box_point(whole.nx, whole.ny, box, (long long)m);
    data[m] = static_cast<T>(point(std::size_t(p.n), p.i, p.j, p.k));
  });
  return u;
}

template <typename T>
Field<T> gaussian_box(const Grid& whole, const GridBox& box) {
  const initial_values::GaussianShape shape = initial_values::gaussian_shape(whole);
  return fill_box<T>(whole, box,
                     [&](std::size_t, int i, int j, int k) { return initial_values::gaussian(shape, i, j, k); });
}

template <typename T>
Field<T> randn_box(const Grid& whole, const GridBox& box, std::uint64_t seed) {
  return fill_box<T>(whole, box,
                     [&](std::size_t n, int, int, int) { return initial_values::standard_normal(seed, n); });
}

template <typename T>
Field<T> sine_box(const Grid& whole, const GridBox& box, const std::array<int, 3>& modes) {
  const auto sx = sine_profile(whole.nx, modes[0]), sy = sine_profile(whole.ny, modes[1]),
             sz = sine_profile(whole.nz, modes[2]);
  return fill_box<T>(whole, box,
                     [&](std::size_t, int i, int j, int k) { return initial_values::sine(sx[i], sy[j], sz[k]); });
}

template <typename T>
Field<T> uniform_box(const Grid& whole, const GridBox& box, double temperature) {
  return fill_box<T>(whole, box, [&](std::size_t, int, int, int) { return temperature; });
}

}  // namespace

void parse_init(const std::string& text, InitSpec& spec) {
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  if (name == "uniform") {
    spec.kind = InitKind::Uniform;
    const std::string value = colon == std::string::npos ? "" : text.substr(colon + 1);
    spec.temperature = parse_spec_numbers(value, 1, "--init", text, "uniform:T")[0];
    return;
  }
  const std::pair<const char*, InitKind> plain[] = {
      {"gaussian", InitKind::Gaussian}, {"randn", InitKind::Randn}, {"sine", InitKind::Sine}, {"file", InitKind::File}};
  for (const auto& [plain_name, kind] : plain)
    if (text == plain_name) {
      spec.kind = kind;
      return;
    }
  throw InputError("--init " + shown_value(text) + " is not one of gaussian, randn, sine, uniform:T (a temperature), file");
}

std::string init_text(const InitSpec& spec) {
  switch (spec.kind) {
    case InitKind::Gaussian: return "gaussian";
    case InitKind::Randn: return "randn";
    case InitKind::Sine: return "sine";
    case InitKind::Uniform: return "uniform:" + number_text(spec.temperature);
    case InitKind::File: break;
  }
  return "file";
}

std::vector<double> sine_profile(int n, int mode) {
  std::vector<double> s(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) s[std::size_t(i)] = initial_values::sine_profile(i, n, mode);
  return s;
}

template <typename T>
Field<T> gaussian_field(const Grid& g) {
  return gaussian_box<T>(g, planes_box(g, all_planes(g)));
}

template <typename T>
Field<T> randn_field(const Grid& g, std::uint64_t seed) {
  return randn_box<T>(g, planes_box(g, all_planes(g)), seed);
}

template <typename T>
Field<T> sine_field(const Grid& g, const std::array<int, 3>& modes) {
  return sine_box<T>(g, planes_box(g, all_planes(g)), modes);
}

template <typename T>
Field<T> make_initial_field(const Grid& whole, const InitSpec& spec, const GridBox& box) {
  switch (spec.kind) {
    case InitKind::Gaussian: return gaussian_box<T>(whole, box);
    case InitKind::Randn: return randn_box<T>(whole, box, spec.seed);
    case InitKind::Sine: return sine_box<T>(whole, box, spec.modes);
    case InitKind::Uniform: return uniform_box<T>(whole, box, spec.temperature);
    case InitKind::File: break;
  }
  throw InputError("--init file needs an input reader, which this build does not have yet");
}

template <typename T>
Field<T> make_initial_field(const Grid& whole, const InitSpec& spec, Planes planes) {
  return make_initial_field<T>(whole, spec, planes_box(whole, planes));
}

template <typename T>
Field<T> make_initial_field(const Grid& g, const InitSpec& spec) {
  return make_initial_field<T>(g, spec, all_planes(g));
}

#define HEAT_INSTANTIATE_INITIAL_FIELDS(T)                                          \
  template Field<T> gaussian_field<T>(const Grid&);                                 \
  template Field<T> randn_field<T>(const Grid&, std::uint64_t);                     \
  template Field<T> sine_field<T>(const Grid&, const std::array<int, 3>&);          \
  template Field<T> make_initial_field<T>(const Grid&, const InitSpec&);             \
  template Field<T> make_initial_field<T>(const Grid&, const InitSpec&, Planes);      \
  template Field<T> make_initial_field<T>(const Grid&, const InitSpec&, const GridBox&);
HEAT_INSTANTIATE_INITIAL_FIELDS(float)
HEAT_INSTANTIATE_INITIAL_FIELDS(double)

}  // namespace heat
