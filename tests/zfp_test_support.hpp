// What the ZFP tests share: snapshots written in-process on a grid whose chunks are partial on
// every axis, their fields (smooth and random), and the largest difference of two fields.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "io/compression.hpp"
#include "io/hdf5_snapshot.hpp"
#include "io/snapshots.hpp"
#include "core/initial_conditions.hpp"

namespace heat::test {

// 530 x 521 planes are larger than a chunk (4 planes of ~4 MiB): each plane is cut into pieces
// of rows in multiples of 4, the last one short (521 is odd); 7 planes leave a last chunk of 3,
// and 530 is not a multiple of zfp's block of 4. Spacings unequal, so a transposed axis shows.
inline Grid partial_chunk_grid() { return Grid{530, 521, 7, 0.5, 0.25, 0.125}; }

inline RunDescription zfp_run(const Grid& g, bool is_float) {
  RunDescription run;
  run.problem.grid = g;
  run.problem.dt = 1e-3;
  run.cfl = run.problem.dt * (1 / (g.hx * g.hx) + 1 / (g.hy * g.hy) + 1 / (g.hz * g.hz));
  run.formats = "hdf5";
  run.precision = is_float ? "float" : "double";
  run.backend = "cpu";
  run.init = "randn";
  run.run_id = "0123456789abcdef0123456789abcdef";
  return run;
}

// A smooth field (a hot spot, as heatrk4 starts) or standard normal noise (which zfp cannot
// predict: the bound must hold where the ratio is poor). The hot spot's width is a tenth of the
// grid's shortest side, so a grid of one plane gets slow cosines instead (its hot spot is NaN).
template <typename T>
Field<T> test_field(const Grid& g, bool smooth, std::uint64_t seed = 7) {
  if (!smooth) return randn_field<T>(g, seed);
  if (g.nx > 1 && g.ny > 1 && g.nz > 1) return gaussian_field<T>(g);
  Field<T> u(g, T(0));
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) u(i, j, k) = T(std::cos(0.1 * i) * std::cos(0.07 * j) * std::cos(0.13 * k));
  return u;
}

// Signed values from 1e-30 to 1e30 with zeros of both signs: what a bound cannot hold, and a
// lossless codec must give back bit for bit.
template <typename T>
Field<T> wide_field(const Grid& g) {
  Field<T> u = test_field<T>(g, false);
  for (std::size_t n = 0; n < u.size(); ++n) {
    const T v = u.data()[n];
    u.data()[n] = n % 11 == 0 ? T(n % 2 ? -0.0 : 0.0) : v * T(std::pow(10.0, double(n % 61) - 30));
  }
  return u;
}

template <typename T, typename U>
double max_difference(const Field<T>& a, const Field<U>& b) {
  double most = 0;
  for (std::size_t n = 0; n < a.size(); ++n) most = std::max(most, std::abs(double(a.data()[n]) - double(b.data()[n])));
  return most;
}

}  // namespace heat::test
