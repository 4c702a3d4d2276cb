// Both cpu backends (cpu_reference, and the fast cpu) against a deliberately plain RK4 written
// here, independently of stencils/: its own coefficient table, its own loops, all four stage
// fields held at once.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"

namespace heat {
namespace {

// Design section 1's table, typed in again on purpose.
const double kPlainCoefficients[4][5] = {
    {-2.0, 1.0},
    {-2.5, 4.0 / 3.0, -1.0 / 12.0},
    {-49.0 / 18.0, 1.5, -0.15, 1.0 / 90.0},
    {-205.0 / 72.0, 1.6, -0.2, 8.0 / 315.0, -1.0 / 560.0},
};

std::vector<double> plain_laplacian(const Problem& p, const std::vector<double>& u) {
  const Grid& g = p.grid;
  const int r = p.radius();
  const double* c = kPlainCoefficients[r - 1];
  std::vector<double> out(u.size(), 0.0);
  for (int k = r; k < g.nz - r; ++k)
    for (int j = r; j < g.ny - r; ++j)
      for (int i = r; i < g.nx - r; ++i) {
        double dxx = c[0] * u[g.index(i, j, k)], dyy = dxx, dzz = dxx;
        for (int m = 1; m <= r; ++m) {
          dxx += c[m] * (u[g.index(i + m, j, k)] + u[g.index(i - m, j, k)]);
          dyy += c[m] * (u[g.index(i, j + m, k)] + u[g.index(i, j - m, k)]);
          dzz += c[m] * (u[g.index(i, j, k + m)] + u[g.index(i, j, k - m)]);
        }
        out[g.index(i, j, k)] = p.alpha * (dxx / (g.hx * g.hx) + dyy / (g.hy * g.hy) + dzz / (g.hz * g.hz));
      }
  return out;
}

std::vector<double> plain_rk4_step(const Problem& p, const std::vector<double>& u) {
  auto axpy = [](const std::vector<double>& a, double s, const std::vector<double>& b) {
    std::vector<double> out(a.size());
    for (std::size_t n = 0; n < a.size(); ++n) out[n] = a[n] + s * b[n];
    return out;
  };
  const double dt = p.dt;
  const auto k1 = plain_laplacian(p, u);
  const auto k2 = plain_laplacian(p, axpy(u, dt / 2, k1));
  const auto k3 = plain_laplacian(p, axpy(u, dt / 2, k2));
  const auto k4 = plain_laplacian(p, axpy(u, dt, k3));
  std::vector<double> next = u;
  for (int k = 0; k < p.grid.nz; ++k)
    for (int j = 0; j < p.grid.ny; ++j)
      for (int i = 0; i < p.grid.nx; ++i)
        if (p.in_interior(i, j, k)) {
          const std::size_t n = p.grid.index(i, j, k);
          next[n] = u[n] + dt / 6 * (k1[n] + 2 * k2[n] + 2 * k3[n] + k4[n]);
        }
  return next;
}

Problem odd_problem(int order) {
  Problem p;
  p.grid = Grid{23, 17, 29, 0.7, 1.3, 0.9};
  p.order = order;
  p.alpha = 1.7;
  p.dt = dt_from_cfl(p.grid, p.alpha, 0.3);  // large enough that every stage matters
  return p;
}

const char* const kCpuBackends[] = {"cpu_reference", "cpu"};

template <typename T>
Field<T> cpu_steps(const std::string& name, const Problem& p, const Field<T>& start, int steps) {
  auto backend = default_registry().find(name)->make<T>(p, BackendOptions{});
  Field<T> u = start;
  advance(*backend, u, steps);
  return u;
}

template <typename T>
class CpuBackendTest : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(CpuBackendTest, Precisions);

TYPED_TEST(CpuBackendTest, OneStepEqualsPlainRk4EveryOrder) {
  using T = TypeParam;
  const double tol = sizeof(T) == 4 ? 2e-6 : 1e-13;
  for (const std::string name : kCpuBackends) {
    for (int order : {2, 4, 6, 8}) {
      const Problem p = odd_problem(order);
      const Field<T> start = field_cast<T>(randn_field(p.grid, 7 + order));
      const Field<T> got = cpu_steps(name, p, start, 1);
      const auto start_values = field_cast<double>(start).values();
      const std::vector<double> want = plain_rk4_step(p, std::vector<double>(start_values.begin(), start_values.end()));
      double worst = 0;
      for (std::size_t n = 0; n < want.size(); ++n)
        worst = std::max(worst, std::fabs(double(got.data()[n]) - want[n]) / (1 + std::fabs(want[n])));
      EXPECT_LT(worst, tol) << name << " order " << order;
      // The step changed the interior: a backend that did nothing would fail above, but say so.
      EXPECT_NE(double(got(11, 8, 14)), double(start(11, 8, 14))) << name << " order " << order;
    }
  }
}

TYPED_TEST(CpuBackendTest, BoundaryLayerBitwiseUnchanged) {
  using T = TypeParam;
  for (const std::string name : kCpuBackends) {
    for (int order : {2, 4, 6, 8}) {
      const Problem p = odd_problem(order);
      const Field<T> start = field_cast<T>(randn_field(p.grid, 3));
      const Field<T> got = cpu_steps(name, p, start, 3);
      std::size_t boundary = 0;
      for (int k = 0; k < p.grid.nz; ++k)
        for (int j = 0; j < p.grid.ny; ++j)
          for (int i = 0; i < p.grid.nx; ++i)
            if (!p.in_interior(i, j, k)) {
              ++boundary;
              ASSERT_EQ(std::memcmp(&got(i, j, k), &start(i, j, k), sizeof(T)), 0)
                  << name << " " << i << "," << j << "," << k;
            }
      EXPECT_GT(boundary, 0u);
    }
  }
}

TYPED_TEST(CpuBackendTest, OneAndTwoThreadsBitwiseEqual) {
  using T = TypeParam;
  const Problem p = odd_problem(8);
  const Field<T> start = field_cast<T>(randn_field(p.grid, 11));
  const int saved = omp_get_max_threads();
  for (const std::string name : kCpuBackends) {
    omp_set_num_threads(1);
    const Field<T> one = cpu_steps(name, p, start, 2);
    omp_set_num_threads(2);
    const Field<T> two = cpu_steps(name, p, start, 2);
    EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(T)), 0) << name;
  }
  omp_set_num_threads(saved);
}

}  // namespace
}  // namespace heat
