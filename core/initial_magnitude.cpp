#include "core/initial_magnitude.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/initial_values.hpp"

namespace heat {

namespace {

// The index in [first, first + count) nearest to the centre c along an axis of spacing h, as the
// generator measures it (index * h - c).
int nearest_index(double h, double c, int first, int count) {
  int best = first;
  for (int i : {int(std::floor(c / h)), int(std::ceil(c / h))}) {
    const int index = std::clamp(i, first, first + count - 1);
    if (std::abs(index * h - c) < std::abs(best * h - c)) best = index;
  }
  return best;
}

// The largest |profile| along an axis over [first, first + count).
double largest_factor(const std::vector<double>& profile, int first, int count) {
  double largest = 0;
  for (int i = first; i < first + count; ++i) largest = std::max(largest, std::abs(profile[std::size_t(i)]));
  return largest;
}

template <typename T>
double randn_largest_from(const Grid& whole, std::uint64_t seed, Planes planes, double from) {
  // Draws whose s exceeds this cannot reach `from` (a margin below it: rounding to T may round a
  // draw up to it). The smallest s the hash gives is 2^-105, so past ~12.07 none does.
  const double reach = from * (1 - 1.0 / 1024);
  const double largest_s = std::exp(-0.5 * reach * reach);
  if (largest_s < std::ldexp(1.0, -105)) return 0;
  const std::int64_t rows = std::int64_t(planes.count) * whole.ny;
  const std::uint64_t nx = std::uint64_t(whole.nx);
  const std::uint64_t first = std::uint64_t(planes.first) * std::uint64_t(whole.ny) * nx;
  double largest = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(max : largest)
  for (std::int64_t row = 0; row < rows; ++row)
    for (std::uint64_t n = first + std::uint64_t(row) * nx, end = n + nx; n < end; ++n)
      if (initial_values::polar_point(seed, n).s <= largest_s)
        largest = std::max(largest, std::abs(double(T(initial_values::standard_normal(seed, n)))));
  return largest;
}

}  // namespace

template <typename T>
double largest_initial_magnitude(const Grid& whole, const InitSpec& spec, Planes planes, double from) {
  switch (spec.kind) {
    case InitKind::Gaussian: {
      // Largest at the point nearest the centre along each axis.
      const initial_values::GaussianShape s = initial_values::gaussian_shape(whole);
      const double peak = initial_values::gaussian(s, nearest_index(s.hx, s.cx, 0, whole.nx),
                                                   nearest_index(s.hy, s.cy, 0, whole.ny),
                                                   nearest_index(s.hz, s.cz, planes.first, planes.count));
      return std::abs(double(T(peak)));
    }
    case InitKind::Sine: {
      // A product of one factor per axis: largest where each factor is.
      const double peak = initial_values::sine(largest_factor(sine_profile(whole.nx, spec.modes[0]), 0, whole.nx),
                                               largest_factor(sine_profile(whole.ny, spec.modes[1]), 0, whole.ny),
                                               largest_factor(sine_profile(whole.nz, spec.modes[2]), planes.first,
                                                              planes.count));
      return double(T(peak));
    }
    case InitKind::Randn: return randn_largest_from<T>(whole, spec.seed, planes, from);
    case InitKind::Uniform: return std::abs(double(T(spec.temperature)));
    case InitKind::File: break;
  }
  return 0;
}

template double largest_initial_magnitude<float>(const Grid&, const InitSpec&, Planes, double);
template double largest_initial_magnitude<double>(const Grid&, const InitSpec&, Planes, double);

}  // namespace heat
