// Helpers shared by the test programs.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/field.hpp"
#include "core/initial_conditions.hpp"
#include "backends/cuda/gpu_info.hpp"

namespace heat::test {

// Runs the heatrk4 executable with the given arguments; returns its exit code and its
// stdout+stderr. `prefix` is prepended to the shell command (for example "ulimit -f 1;").
struct CommandResult {
  int exit_code = -1;
  std::string output;
};
CommandResult run_heatrk4(const std::vector<std::string>& args, const std::string& prefix = "");

// A fresh empty directory under the system temp dir, removed at process exit.
std::string temp_directory(const std::string& tag);

// A file's bytes ("" when it cannot be read).
std::string read_text(const std::string& path);

// exp(spread * a standard normal field): random, positive, never zero (material fields).
inline Field<double> random_positive(const Grid& g, double spread, unsigned seed) {
  Field<double> f = randn_field<double>(g, seed);
  for (double& v : f.values()) v = std::exp(spread * v);
  return f;
}

// The registry's CUDA backends, by name (none in a build without CUDA).
std::vector<std::string> cuda_backend_names();

// A box of n x (n+1) x (n+2) points, unequal spacings and a material (alpha 0.6, K 1.5, C 2.5),
// every face `every_face`, dt at cfl 0.2: the physics tests' box of boundary conditions.
inline Problem material_box(int order, int n, const BoundaryCondition& every_face) {
  Problem p;
  p.order = order;
  p.grid = {n, n + 1, n + 2, 0.1, 0.12, 0.09};
  p.alpha = 0.6;
  p.conductivity = 1.5;
  p.heat_capacity = 2.5;
  p.boundaries.fill(every_face);
  p.dt = dt_from_cfl(p.grid, p.alpha, 0.2);
  return p;
}

// The problem the GPU backend tests run: alpha 0.8 and cfl 0.2, well inside stability but large
// enough that every stage changes the result.
inline Problem gpu_test_problem(const Grid& g, int order) {
  Problem p;
  p.grid = g;
  p.order = order;
  p.alpha = 0.8;
  p.dt = dt_from_cfl(g, p.alpha, 0.2);
  return p;
}

// A backend's result after some steps: the boundary layer bitwise as it started, and most of
// the interior changed (a backend that did nothing would pass the first check alone).
template <typename T>
void expect_boundary_kept_interior_changed(const Problem& p, const Field<T>& start, const Field<T>& result,
                                           const std::string& label) {
  const Grid& g = p.grid;
  std::size_t changed_interior = 0;
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        if (p.in_interior(i, j, k)) {
          changed_interior += result(i, j, k) != start(i, j, k);
          continue;
        }
        ASSERT_EQ(std::memcmp(&result(i, j, k), &start(i, j, k), sizeof(T)), 0)
            << label << " wrote the boundary at (" << i << "," << j << "," << k << ")";
      }
  EXPECT_GT(changed_interior, p.interior_points() / 2) << label << " barely changed the interior";
}

}  // namespace heat::test

// Skips (reported as skipped by CTest) when the machine has no usable CUDA device.
#define HEAT_REQUIRE_GPU()                                                               \
  do {                                                                                   \
    if (::heat::gpu_count() == 0) GTEST_SKIP() << "no CUDA GPU on this machine";        \
  } while (0)
