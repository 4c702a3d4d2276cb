// One point of each generated initial field, written once for the host and the device so that a
// field made on the GPU is the host's: randn and sine bitwise (IEEE +, -, *, / and sqrt only, and
// both sides built without FMA contraction: -ffp-contract=off, nvcc -fmad=false), gaussian up to
// the last bit of exp, which glibc and CUDA round differently.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/problem.hpp"
#include "stencils/stencil.hpp"

namespace heat::initial_values {

HD inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A uniform double in (-1, 1) with 53 random bits, from a counter-based hash.
HD inline double uniform_pm1(std::uint64_t key) {
  const std::uint64_t bits = splitmix64(key) >> 11;
  return (double(bits) + 0.5) * (2.0 / 9007199254740992.0) - 1.0;
}

// Natural log from +, -, *, / only (IEEE-exact operations): x = m * 2^e with m in
// [sqrt(1/2), sqrt(2)), log m = 2 atanh((m-1)/(m+1)) summed to double precision.
HD inline double portable_log(double x) {
  int e = 0;
  double m = frexp(x, &e);  // exact: m in [0.5, 1)
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

// The point Marsaglia's polar method takes for counter n of stream `seed`: a and b uniform in
// (-1, 1), the first pair with s = a^2 + b^2 in (0, 1).
struct PolarPoint {
  double a, s;
};
HD inline PolarPoint polar_point(std::uint64_t seed, std::uint64_t n) {
  const std::uint64_t stream = splitmix64(seed ^ 0x5eed5eed5eed5eedULL);
  for (std::uint64_t attempt = 0;; ++attempt) {
    const std::uint64_t key = splitmix64(stream + n) ^ (attempt * 0xd1b54a32d192ed03ULL);
    const double a = uniform_pm1(key), b = uniform_pm1(key + 0x632be59bd9b4e019ULL);
    const double s = a * a + b * b;
    if (s > 0.0 && s < 1.0) return {a, s};
  }
}

// One standard normal draw for counter n of stream `seed`: Marsaglia's polar method, sqrt
// exactly rounded by IEEE, the log portable_log. Since |a| <= sqrt(s), |draw| <= sqrt(-2 log s).
HD inline double standard_normal(std::uint64_t seed, std::uint64_t n) {
  const PolarPoint p = polar_point(seed, n);
  return p.a * sqrt(-2.0 * portable_log(p.s) / p.s);
}

// gaussian: exp(-|x - centre|^2 / (2 sigma^2)), sigma a tenth of the shortest side.
struct GaussianShape {
  double hx, hy, hz, cx, cy, cz, inv_two_sigma2;
};

inline GaussianShape gaussian_shape(const Grid& g) {
  const double lx = (g.nx - 1) * g.hx, ly = (g.ny - 1) * g.hy, lz = (g.nz - 1) * g.hz;
  const double shortest = lx < ly ? (lx < lz ? lx : lz) : (ly < lz ? ly : lz);
  const double sigma = 0.1 * shortest;
  return {g.hx, g.hy, g.hz, 0.5 * lx, 0.5 * ly, 0.5 * lz, 1.0 / (2.0 * sigma * sigma)};
}

HD inline double gaussian(const GaussianShape& s, int i, int j, int k) {
  const double dx = i * s.hx - s.cx, dy = j * s.hy - s.cy, dz = k * s.hz - s.cz;
  return exp(-(dx * dx + dy * dy + dz * dz) * s.inv_two_sigma2);
}

// sine: prod_a sin(m_a * pi * x_a / L_a), from per-axis profiles sin(m * pi * index / (n - 1)).
inline double sine_profile(int index, int n, int mode) {
  const double pi = 3.14159265358979323846;
  return std::sin(mode * pi * index / double(n - 1));
}

HD inline double sine(double sx, double sy, double sz) { return sx * sy * sz; }

}  // namespace heat::initial_values
