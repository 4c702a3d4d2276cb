// The stencils of stencils/stencil.hpp against the mathematics they claim: exact on
// polynomials up to degree p+1 (and not p+2, so the order is p and no better), the symbol
// that the Fourier-mode solution and the stability limits rest on, and those limits.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/dispatch.hpp"
#include "core/initial_conditions.hpp"
#include "stencils/stencil.hpp"
#include "check/analytic.hpp"

namespace heat {
namespace {

constexpr int kOrders[] = {2, 4, 6, 8};

// sum_k c_k ((x+k)^d + (x-k)^d) + c0 x^d on the unit lattice, in long double, against
// d(d-1)x^(d-2): the 1D stencil alone, from the coefficient table.
long double stencil_on_monomial(int order, int degree, long double x) {
  const int radius = order / 2;
  long double sum = stencil_coefficient(radius, 0) * std::pow(x, degree);
  for (int k = 1; k <= radius; ++k)
    sum += stencil_coefficient(radius, k) * (std::pow(x + k, degree) + std::pow(x - k, degree));
  return sum;
}

TEST(Stencil, CoefficientsExactOnMonomialsUpToDegreePPlus1) {
  for (int order : kOrders)
    for (int degree = 0; degree <= order + 1; ++degree)
      for (long double x : {-2.5L, 0.0L, 0.75L, 3.0L}) {
        const long double exact = degree < 2 ? 0.0L : degree * (degree - 1) * std::pow(x, degree - 2);
        const long double scale = std::pow(std::fabs(x) + order / 2, degree) + 1;
        EXPECT_NEAR(double(stencil_on_monomial(order, degree, x)), double(exact), 1e-15 * double(scale))
            << "order " << order << ", x^" << degree << " at x = " << double(x);
      }
}

TEST(Stencil, OrderIsExactlyP) {
  // At x = 0 the stencil's error on x^(p+2) is 2 sum_k c_k k^(p+2), the leading truncation term;
  // a table with a wrong digit would be exact to a lower degree instead.
  for (int order : kOrders) {
    const double on_p2 = double(stencil_on_monomial(order, order + 2, 0.0L));
    EXPECT_GT(std::fabs(on_p2), 1e-3) << "order " << order << " is exact on x^" << order + 2;
  }
}

// Random coefficients of a 3D polynomial of total degree <= p+1 and its exact Laplacian.
struct Polynomial {
  int degree;
  std::vector<double> coefficient;  // of x^a y^b z^c, a+b+c <= degree, in loop order

  template <typename F>
  void for_terms(F&& f) const {
    int n = 0;
    for (int a = 0; a <= degree; ++a)
      for (int b = 0; a + b <= degree; ++b)
        for (int c = 0; a + b + c <= degree; ++c) f(a, b, c, coefficient[n++]);
  }
  static double power(double x, int e) { return e < 0 ? 0.0 : std::pow(x, e); }
  double value(double x, double y, double z) const {
    double sum = 0;
    for_terms([&](int a, int b, int c, double q) { sum += q * power(x, a) * power(y, b) * power(z, c); });
    return sum;
  }
  double laplacian(double x, double y, double z) const {
    double sum = 0;
    for_terms([&](int a, int b, int c, double q) {
      sum += q * (a * (a - 1) * power(x, a - 2) * power(y, b) * power(z, c) +
                  b * (b - 1) * power(x, a) * power(y, b - 2) * power(z, c) +
                  c * (c - 1) * power(x, a) * power(y, b) * power(z, c - 2));
    });
    return sum;
  }
};

TEST(Stencil, AssembledStencilExactOn3DPolynomialsUpToDegreePPlus1) {
  // Through make_weights and apply_stencil, the path every backend takes, with a different
  // spacing on each axis so that a swapped axis or weight shows.
  const double h[3] = {0.7, 1.3, 0.9}, alpha = 0.8;
  const double centre[3] = {0.35, -0.65, 0.45};
  for (int order : kOrders)
    with_radius(order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      Polynomial poly{order + 1, {}};
      std::uint64_t n = 0;
      poly.for_terms([&](int, int, int, double) { poly.coefficient.push_back(standard_normal(order, n++)); });
      const auto w = make_weights<R, double>(alpha, h[0], h[1], h[2]);
      const auto at = [&](int axis, int k) {
        double x[3] = {centre[0], centre[1], centre[2]};
        x[axis] += k * h[axis];
        return poly.value(x[0], x[1], x[2]);
      };
      const double got = apply_stencil<R, double>(w, poly.value(centre[0], centre[1], centre[2]),
                                                  [&](int axis, int k) { return at(axis, k) + at(axis, -k); });
      const double exact = alpha * poly.laplacian(centre[0], centre[1], centre[2]);
      // Cancellation: the terms are about |u|*sum|c_k|/h^2 while the result is O(1).
      double scale = 0;
      for (int axis = 0; axis < 3; ++axis)
        for (int k = -R; k <= R; ++k) scale = std::max(scale, std::fabs(at(axis, k)));
      EXPECT_NEAR(got, exact, 1e-13 * scale * alpha / (0.7 * 0.7) * 20) << "order " << order;
    });
}

TEST(Stencil, ReproducesItsSymbolOnAFourierMode) {
  const Grid g{40, 40, 40, 0.7, 1.3, 0.9};
  FourierMode mode;
  mode.wavenumber = {1.9, 0.6, 2.3};
  mode.phase = {0.4, -1.0, 2.2};
  const double alpha = 0.8;
  for (int order : kOrders)
    with_radius(order, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      const auto w = make_weights<R, double>(alpha, g.hx, g.hy, g.hz);
      const int i = 11, j = 17, k = 23;
      const auto value = [&](int axis, int d) {
        return mode.value(g, i + (axis == 0) * d, j + (axis == 1) * d, k + (axis == 2) * d);
      };
      const double got = apply_stencil<R, double>(w, value(0, 0),
                                                  [&](int axis, int d) { return value(axis, d) + value(axis, -d); });
      const double expected = alpha * discrete_symbol(g, order, mode) * value(0, 0);
      EXPECT_NEAR(got, expected, 1e-13 * alpha * inverse_h2_sum(g) * 10) << "order " << order;
    });
}

TEST(Stencil, SymbolLimitsAndStableCflMatchTheSpecification) {
  // docs/design.md §1: m_p and the largest stable cfl.
  const double m[] = {4.0, 16.0 / 3.0, 6.0444, 6.5016};
  const double cfl[] = {0.6963, 0.5222, 0.4608, 0.4284};
  for (int n = 0; n < 4; ++n) {
    const int order = kOrders[n];
    EXPECT_NEAR(symbol_max_magnitude(order), m[n], 1e-4) << "order " << order;
    EXPECT_NEAR(max_stable_cfl(order), cfl[n], 1e-4) << "order " << order;
    // The largest magnitude is attained at theta = pi, and nowhere is the symbol positive.
    EXPECT_NEAR(stencil_symbol_1d(order, M_PI), -symbol_max_magnitude(order), 1e-13);
    for (double theta = 0; theta <= M_PI; theta += M_PI / 512) {
      EXPECT_LE(stencil_symbol_1d(order, theta), 1e-15);
      EXPECT_GE(stencil_symbol_1d(order, theta), -symbol_max_magnitude(order) - 1e-13);
    }
  }
  // RK4's real stability limit is where |P(z)| = 1.
  EXPECT_NEAR(rk4_amplification(-kRk4RealStabilityLimit), 1.0, 1e-12);
}

}  // namespace
}  // namespace heat
