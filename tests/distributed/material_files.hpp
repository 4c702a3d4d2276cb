// Material fields for the tests of heatrk4 under mpirun: random piecewise and random smooth K or C
// (positive everywhere, never zero), written as a VTKHDF file that --conductivity-file and
// --heat-capacity-file read.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/field.hpp"
#include "io/snapshots.hpp"

namespace heat::test {

constexpr double kTwoPi = 6.283185307179586476925286766559;

// Piecewise constant on blocks of 2 x 2 x 3 points of `g`, each block's value log-uniform over
// [low, high]: jumps between neighbouring blocks.
inline Field<double> random_blocks(const Grid& g, double low, double high, unsigned seed) {
  std::mt19937 draw(seed);
  std::uniform_real_distribution<double> exponent(std::log(low), std::log(high));
  const int bx = (g.nx + 1) / 2, by = (g.ny + 1) / 2, bz = (g.nz + 2) / 3;
  std::vector<double> blocks(std::size_t(bx * by * bz));
  for (double& b : blocks) b = std::exp(exponent(draw));
  Field<double> f(g.nx, g.ny, g.nz);
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) f(i, j, k) = blocks[std::size_t((k / 3 * by + j / 2) * bx + i / 2)];
  return f;
}

// Smooth over `g`: log K a sum of one wave along each axis, each a period of its axis with a random
// phase, so that K spans about [low, high].
inline Field<double> random_smooth(const Grid& g, double low, double high, unsigned seed) {
  std::mt19937 draw(seed);
  std::uniform_real_distribution<double> phase(0, kTwoPi);
  const double px = phase(draw), py = phase(draw), pz = phase(draw);
  const double middle = std::log(low * high) / 2, half_span = std::log(high / low) / 2;
  const auto wave = [](int i, int n, double shift) { return std::sin(kTwoPi * i / n + shift); };
  Field<double> f(g.nx, g.ny, g.nz);
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i)
        f(i, j, k) = std::exp(middle + half_span * (wave(i, g.nx, px) + wave(j, g.ny, py) + wave(k, g.nz, pz)) / 3);
  return f;
}

// `values` as the point array "u" of a VTKHDF file on `g` (its points and spacing) in `dir`.
inline std::string array_file(const std::string& dir, const Grid& g, const Field<double>& values) {
  OutputSpec spec;
  spec.directory = dir;
  RunDescription run;
  run.problem.grid = g;
  run.problem.dt = 1;  // a snapshot's record; a material file's reader takes its points and spacing alone
  run.precision = "double";
  run.formats = "hdf5";
  SnapshotWriter(spec, run).write(values, 0, 0.0);
  return dir + "/heat_000000.hdf";
}

}  // namespace heat::test
