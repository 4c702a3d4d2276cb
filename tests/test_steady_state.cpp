// Steady states: a field the discrete Laplacian maps exactly to zero, with the boundary layer
// holding the same function, must stay as it is for every backend, order and precision. The
// stencils are exact on polynomials of degree <= p+1 >= 3, so every harmonic polynomial of
// degree <= 3 is such a field. Any drift is a bug in the stencil weights, the axis strides,
// the RK4 combination or the boundary handling, not rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"
#include "check/norms.hpp"

namespace heat {
namespace {

constexpr int kSteps = 20;
// Odd sizes and a different spacing on each axis.
const Grid kGrid{23, 17, 29, 0.7, 1.3, 0.9};

using Function = std::function<double(double x, double y, double z)>;

// Random coefficients (never zero) drawn from the seeded standard normal stream.
double coefficient(int n) { return 0.5 + std::fabs(standard_normal(7, std::uint64_t(n))); }

Function linear() {
  const double a = coefficient(0), b = coefficient(1), c = -coefficient(2), d = coefficient(3);
  return [=](double x, double y, double z) { return a + b * x + c * y + d * z; };
}

Function saddle() {  // x^2 - y^2
  const double s = coefficient(4);
  return [=](double x, double y, double) { return s * (x * x - y * y); };
}

Function harmonic_cubic() {  // a sum of the harmonic polynomials of degree 2 and 3
  double q[7];
  for (int n = 0; n < 7; ++n) q[n] = coefficient(10 + n) * (n % 2 ? -1 : 1);
  return [=](double x, double y, double z) {
    return q[0] * x * y + q[1] * y * z + q[2] * (z * z - x * x) + q[3] * x * y * z +
           q[4] * (x * x * x - 3 * x * y * y) + q[5] * (y * y * y - 3 * y * z * z) + q[6] * (z * z * z - 3 * z * x * x);
  };
}

// Samples f with the origin at the centre of the grid and scales it to max |u| = 1.
Field<double> sample(const Grid& g, const Function& f) {
  Field<double> u(g);
  double max_abs = 0;
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        u(i, j, k) = f((i - 0.5 * (g.nx - 1)) * g.hx, (j - 0.5 * (g.ny - 1)) * g.hy, (k - 0.5 * (g.nz - 1)) * g.hz);
        max_abs = std::max(max_abs, std::fabs(u(i, j, k)));
      }
  for (auto& v : u.values()) v /= max_abs;
  return u;
}

class SteadyState : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (default_registry().find(GetParam())->uses_cuda) HEAT_REQUIRE_GPU();
  }

  template <typename T>
  void expect_unchanged(const Function& f, const char* what) {
    // The field rounded to T is harmonic only up to that rounding, and the stencil's
    // cancellation of |u|*sum|c_k|/h^2 adds a few ulps per stage: tens of ulps in all.
    const double tol = 64 * std::numeric_limits<T>::epsilon();
    for (int order : {2, 4, 6, 8}) {
      Problem p;
      p.grid = kGrid;
      p.order = order;
      p.alpha = 1.7;
      p.dt = dt_from_cfl(p.grid, p.alpha, 0.4);  // near the stability limit: rounding is amplified most
      const Field<T> start = field_cast<T>(sample(p.grid, f));
      Field<T> u = start;
      auto solver = default_registry().find(GetParam())->make<T>(p, BackendOptions{});
      advance(*solver, u, kSteps);
      const FieldDifference d = compare_fields(u, start, 0.0, tol);
      EXPECT_TRUE(d.pass()) << GetParam() << ", " << what << ", order " << order << ", "
                            << (sizeof(T) == 4 ? "float" : "double") << ": " << describe(d);
    }
  }
};

TEST_P(SteadyState, LinearFunctionUnchanged) {
  expect_unchanged<double>(linear(), "a + bx + cy + dz");
  expect_unchanged<float>(linear(), "a + bx + cy + dz");
}

TEST_P(SteadyState, SaddleUnchanged) {
  expect_unchanged<double>(saddle(), "x^2 - y^2");
  expect_unchanged<float>(saddle(), "x^2 - y^2");
}

TEST_P(SteadyState, HarmonicCubicUnchanged) {
  expect_unchanged<double>(harmonic_cubic(), "harmonic cubic");
  expect_unchanged<float>(harmonic_cubic(), "harmonic cubic");
}

TEST(SteadyStateCheck, ANonHarmonicFieldDoesChange) {
  // The control: x^2 + y^2 has Laplacian 4, so the same check must see it move.
  Problem p;
  p.grid = kGrid;
  p.order = 8;
  p.dt = dt_from_cfl(p.grid, p.alpha, 0.4);
  const Field<double> start = sample(p.grid, [](double x, double y, double) { return x * x + y * y; });
  Field<double> u = start;
  auto solver = default_registry().find("cpu")->make<double>(p, BackendOptions{});
  advance(*solver, u, kSteps);
  EXPECT_FALSE(compare_fields(u, start, 0.0, 1e-6).pass());
}

INSTANTIATE_TEST_SUITE_P(AllBackends, SteadyState, ::testing::ValuesIn(default_registry().names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace heat
