// The two forms of the RK4 step (stencils/rk4_forms.hpp) on a scalar: where a*Lap is a
// number lambda, four passes of either form must give the Taylor polynomial P(dt * lambda), so a
// wrong factor or constant shows here before it shows as a --check failure on a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stencils/rk4_forms.hpp"

namespace heat {
namespace {

double taylor_rk4(double z) { return 1 + z + z * z / 2 + z * z * z / 6 + z * z * z * z / 24; }

// Horner's passes on one value where a*Lap multiplies by lambda, as four_passes.cuh chains them.
double horner_scalar_step(double u, double lambda, const PassConstants<double>& k) {
  double v = u;
  for (double c : k.c) v = u + c * lambda * v;
  return v;
}

// The factors' passes (factored_rk4_step) on one value.
double factored_scalar_step(double u0, double lambda, const PassConstants<double>& k) {
  double u = u0, a = 0, b = 0;
  factored_rk4_step(
      [&](const BasePlusLap<double>& pass) { *pass.out = *pass.base + pass.c * lambda * *pass.in; }, &u, &a, &b, k);
  return u;
}

TEST(StepForms, TheFactorsMultiplyToTheTaylorPolynomial) {
  const QuadraticFactor f = kRk4Factors[0], g = kRk4Factors[1];
  EXPECT_NEAR(f.a + g.a, 1.0, 1e-15);
  EXPECT_NEAR(f.b + g.b + f.a * g.a, 1.0 / 2, 1e-15);
  EXPECT_NEAR(f.a * g.b + g.a * f.b, 1.0 / 6, 1e-15);
  EXPECT_NEAR(f.b * g.b, 1.0 / 24, 1e-15);
}

TEST(StepForms, BothFormsStepAScalarByTheTaylorPolynomial) {
  const double dt = 0.37;
  for (double lambda : {0.0, -0.1, -1.0, -3.0, -7.5, 2.0}) {
    const double expected = 1.5 * taylor_rk4(dt * lambda);
    const double tolerance = 1e-14 * std::max(1.0, std::abs(expected));
    EXPECT_NEAR(horner_scalar_step(1.5, lambda, make_horner_constants<double>(dt)), expected, tolerance)
        << "Horner, lambda " << lambda;
    EXPECT_NEAR(factored_scalar_step(1.5, lambda, make_factored_constants<double>(dt)), expected, tolerance)
        << "factors, lambda " << lambda;
  }
}

}  // namespace
}  // namespace heat
