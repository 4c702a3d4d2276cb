// The time step a convective face allows (core/boundary_stability.hpp): the bound it rests on, by
// hand at order 2; a run at the limit it sets stays bounded at every order and Biot number, where
// the same run at the stencil's own limit blows up; a radiation face's, as a convective face's at
// its hottest linearised coefficient; and the command line refuses the unstable step before any
// work, naming the face and the step it allows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "backends/registry.hpp"
#include "core/boundary_stability.hpp"
#include "core/initial_conditions.hpp"
#include "core/number_text.hpp"
#include "core/time_loop.hpp"
#include "stencils/stencil.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

BoundaryCondition convective(double h_coefficient) { return {BoundaryKind::Convective, h_coefficient, 0.0}; }

// Order 2: the ghost u_-1 = u_1 - 2 Bi u_0 makes the face row (-2 - 2 Bi, 2), Gershgorin 4 + 2 Bi.
TEST(BoundaryStability, OrderTwoBoundIsFourPlusTwiceTheBiotNumber) {
  for (double biot : {0.0, 0.5, 3.0, 40.0}) {
    const double h = 0.05, k = 2.0;
    EXPECT_NEAR(face_eigenvalue_bound(2, convective(biot * k / h), h, k), 4 + 2 * biot, 1e-12) << biot;
  }
}

// Reflections fold coefficients onto points of the other sign or drop them: the limit is the
// stencil's own, to the bit.
TEST(BoundaryStability, FacesOtherThanConvectiveKeepTheStencilsLimit) {
  for (int order : {2, 4, 6, 8}) {
    Problem p;
    p.order = order;
    p.grid = {30, 31, 32, 0.1, 0.2, 0.3};
    p.boundaries = {BoundaryCondition{BoundaryKind::Insulated}, {BoundaryKind::Temperature, 3.0},
                    {BoundaryKind::Flux, -2.0}, {BoundaryKind::Layer}, {BoundaryKind::Periodic},
                    {BoundaryKind::Periodic}};
    EXPECT_EQ(face_limiting_cfl(p), -1);
    EXPECT_EQ(stable_cfl_limit(p), max_stable_cfl(order));
    p.boundaries[3] = convective(0.0);  // H = 0 is insulated
    EXPECT_EQ(stable_cfl_limit(p), max_stable_cfl(order));
  }
}

// A box with every face convective at Biot number `biot`, stepped 1000 times at `cfl`: the growth
// of max |u| over the domain points from a random field (infinite where the loop stopped it).
double growth(int order, double biot, double cfl) {
  Problem p;
  p.order = order;
  const int n = 3 * order / 2 + 4;
  p.grid = {n, n, n, 0.1, 0.1, 0.1};
  p.boundaries.fill(convective(biot * p.conductivity / 0.1));
  p.dt = dt_from_cfl(p.grid, p.alpha, cfl);
  Field<double> u = randn_field<double>(p.grid, 7);
  const auto largest = [&] {
    const int r = p.radius();
    double most = 0;
    for (int k = r; k < n - r; ++k)
      for (int j = r; j < n - r; ++j)
        for (int i = r; i < n - r; ++i) most = std::max(most, std::abs(u(i, j, k)));
    return most;
  };
  const double start = largest();
  try {
    advance(*default_registry().find("cpu")->make<double>(p, BackendOptions{}), u, 1000);
  } catch (const RunError&) {
    return INFINITY;
  }
  return largest() / start;
}

TEST(BoundaryStability, StepsAtTheLimitStayBoundedAndTheStencilsLimitDoesNot) {
  for (int order : {2, 4, 6, 8})
    for (double biot : {1.0, 10.0, 100.0}) {
      Problem p;
      p.order = order;
      p.grid = {20, 20, 20, 0.1, 0.1, 0.1};
      p.boundaries.fill(convective(biot * p.conductivity / 0.1));
      const double limit = stable_cfl_limit(p);
      ASSERT_LT(limit, max_stable_cfl(order)) << order << " " << biot;
      EXPECT_LT(growth(order, biot, 0.98 * limit), 1.5) << "order " << order << ", Biot " << biot;
      if (biot >= 10) EXPECT_GT(growth(order, biot, 0.98 * max_stable_cfl(order)), 1e3) << order << " " << biot;
    }
}

// A radiation face is bounded as the convective face of its linearised coefficient at the hotter of
// the start's largest value and T_INF: h_rad = 4 EPS sigma T^3.
TEST(BoundaryStability, ARadiationFaceIsBoundedAsConvectiveAtItsHottestCoefficient) {
  const double h = 0.05, k = 2.0, eps = 0.7;
  for (int order : {2, 4, 6, 8})
    for (double hottest : {100.0, 900.0, 3000.0}) {
      const BoundaryCondition radiation{BoundaryKind::Radiation, eps, 900.0};
      const double t = std::max(hottest, radiation.t_inf);
      const double h_rad = 4 * eps * kStefanBoltzmann * t * t * t;
      EXPECT_EQ(face_heat_transfer(radiation, hottest), h_rad);
      EXPECT_EQ(face_eigenvalue_bound(order, radiation, h, k, hottest), face_eigenvalue_bound(order, convective(h_rad), h, k))
          << order << " " << hottest;
    }
}

// A hot box with every face radiating to 300 K, the cell Biot number 4 EPS sigma T^3 h / K at its
// hottest point 1, 10 or 100, stepped 1000 times at 0.98 of the limit that bound sets: it cools
// and stays within its start's range.
TEST(BoundaryStability, RadiationFacesStayBoundedAtTheirLimit) {
  for (int order : {2, 4, 6, 8})
    for (double biot : {1.0, 10.0, 100.0}) {
      Problem p;
      p.order = order;
      const int n = 3 * order / 2 + 4;
      p.grid = {n, n, n, 0.1, 0.1, 0.1};
      Field<double> u = randn_field<double>(p.grid, 7);
      for (double& v : u.values()) v = 900 + 30 * v;
      const double hottest = *std::max_element(u.values().begin(), u.values().end());
      const double h_rad = 4 * kStefanBoltzmann * hottest * hottest * hottest;
      p.conductivity = h_rad * 0.1 / biot;
      p.heat_capacity = p.conductivity;  // alpha 1
      p.boundaries.fill({BoundaryKind::Radiation, 1.0, 300.0});
      const double limit = stable_cfl_limit(p, hottest);
      ASSERT_LT(limit, max_stable_cfl(order)) << order << " " << biot;
      p.dt = dt_from_cfl(p.grid, p.alpha, 0.98 * limit);
      advance(*default_registry().find("cpu")->make<double>(p, BackendOptions{}), u, 1000);
      const int r = p.radius();
      for (int k = r; k < n - r; ++k)
        for (int j = r; j < n - r; ++j)
          for (int i = r; i < n - r; ++i) {
            EXPECT_LE(u(i, j, k), hottest) << "order " << order << ", Biot " << biot;
            EXPECT_GE(u(i, j, k), 300.0) << "order " << order << ", Biot " << biot;
          }
    }
}

TEST(BoundaryStability, TheCommandLineRefusesAStepTheFacesDoNotAllow) {
  Problem p;
  p.order = 4;
  p.grid = {16, 16, 16, 0.1, 0.1, 0.1};
  p.boundaries[5] = convective(20000);
  const std::string limit = number_text(std::floor(stable_cfl_limit(p) * 1e4) / 1e4);
  const auto run = [](const std::string& cfl) {
    return test::run_heatrk4({"--n", "16", "--order", "4", "--steps", "1", "--backend", "cpu", "--format", "none",
                              "--h", "0.1", "--bc-z-high", "convective:20000,20", "--cfl", cfl});
  };
  const auto refused = run("0.05");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("--cfl 0.05 is unstable with --bc-z-high convective:20000,20 (Biot number H*h/K = "
                                "2000) at order 4: the largest stable cfl is " + limit + " (dt "),
            std::string::npos)
      << refused.output;
  const auto allowed = run(limit);
  EXPECT_EQ(allowed.exit_code, 0) << allowed.output;
}

}  // namespace
}  // namespace heat
