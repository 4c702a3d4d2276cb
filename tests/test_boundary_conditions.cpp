// The boundary conditions by their physics (docs/design.md §1, "Boundary"): the total heat an
// insulated, a periodic and a heated box keep or gain, on a 3D random field, on both cpu backends,
// cpu_reference (the stage form) and cpu (the quadratic factors); the fill itself. Their observed
// orders are tests/test_convergence.cpp's, for every backend that fills them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "backends/cpu/boundary_fill.hpp"
#include "backends/registry.hpp"
#include "core/body_quadrature.hpp"
#include "check/boundary_cases.hpp"
#include "core/initial_conditions.hpp"
#include "core/time_loop.hpp"
#include "stencils/stencil.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

const char* const kFillingBackends[] = {kCpuReferenceName, "cpu"};

// Total heat C * sum(w u) dV (core/body_quadrature.hpp).
double total_heat(const Problem& p, const Field<double>& u) { return p.heat_capacity * body_integral(p, u); }

// The heat after `steps` of a random field, and before.
std::pair<double, double> heat_before_and_after(const std::string& backend_name, const Problem& p, int steps) {
  Field<double> u = randn_field<double>(p.grid, 7);
  auto backend = default_registry().find(backend_name)->make<double>(p, BackendOptions{});
  backend->upload(u);
  backend->download(u);  // the field as the fill leaves it
  const double before = total_heat(p, u);
  advance(*backend, u, steps);
  return {before, total_heat(p, u)};
}

constexpr int kConservationSteps = 10000;

TEST(Conservation, AnInsulatedBoxKeepsItsHeatToRounding) {
  for (int order : {2, 8}) {
    const Problem p = test::material_box(order, 3 * order / 2 + 2, {BoundaryKind::Insulated});
    for (const char* backend : kFillingBackends) {
      const auto [before, after] = heat_before_and_after(backend, p, kConservationSteps);
      std::printf("%s, insulated, order %d: heat %.17g -> %.17g (relative change %.2e)\n", backend, order, before,
                  after, (after - before) / std::abs(before));
      EXPECT_NEAR(after, before, 1e-12 * std::abs(before)) << backend << " " << order;
    }
  }
}

TEST(Conservation, APeriodicBoxKeepsItsHeatToRounding) {
  for (int order : {2, 8}) {
    const Problem p = test::material_box(order, order + 6, {BoundaryKind::Periodic});
    for (const char* backend : kFillingBackends) {
      const auto [before, after] = heat_before_and_after(backend, p, kConservationSteps);
      std::printf("%s, periodic, order %d: heat %.17g -> %.17g (relative change %.2e)\n", backend, order, before,
                  after, (after - before) / std::abs(before));
      EXPECT_NEAR(after, before, 1e-12 * std::abs(before)) << backend << " " << order;
    }
  }
}

TEST(Conservation, AFluxFaceAddsQTimesAreaTimesTime) {
  for (int order : {2, 4, 6, 8}) {
    Problem p = test::material_box(order, 3 * order / 2 + 2, {BoundaryKind::Insulated});
    const double q = 3.0;
    p.boundaries[3] = {BoundaryKind::Flux, q};  // y-high
    const int r = p.radius();
    const double area = (p.grid.nx - 1 - 2 * r) * p.grid.hx * (p.grid.nz - 1 - 2 * r) * p.grid.hz;
    const int steps = 2000;
    const double expected = q * area * steps * p.dt;
    for (const char* backend : kFillingBackends) {
      const auto [before, after] = heat_before_and_after(backend, p, steps);
      std::printf("%s, flux, order %d: heat gained %.17g, Q*area*t %.17g\n", backend, order, after - before, expected);
      EXPECT_NEAR(after - before, expected, 1e-11 * (std::abs(before) + expected)) << backend << " " << order;
    }
  }
}

void expect_temperature_face(const Problem& p, const std::string& backend_name) {
  Field<double> u = randn_field<double>(p.grid, 3);
  const Field<double> start = u;
  auto backend = default_registry().find(backend_name)->make<double>(p, BackendOptions{});
  advance(*backend, u, 5);
  const int r = p.radius();
  for (int j = r; j < p.grid.ny - r; ++j)
    for (int i = r; i < p.grid.nx - r; ++i) {
      EXPECT_EQ(u(i, j, r), 2.5);
      for (int m = 1; m <= r; ++m) EXPECT_DOUBLE_EQ(u(i, j, r - m), 5.0 - u(i, j, r + m));
    }
  // The layer faces are untouched.
  EXPECT_EQ(u(0, 5, 5), start(0, 5, 5));
  EXPECT_EQ(u(5, 5, p.grid.nz - 1), start(5, 5, p.grid.nz - 1));
}

// A temperature face's points hold T through the steps, and ghosts are its odd reflection.
TEST(Fill, TemperatureFacePointsHoldTheirValue) {
  Problem p = test::material_box(4, 9, {BoundaryKind::Layer});
  p.boundaries[4] = {BoundaryKind::Temperature, 2.5};  // z-low
  for (const char* backend_name : kFillingBackends) {
    SCOPED_TRACE(backend_name);
    expect_temperature_face(p, backend_name);
  }
}

// Every condition on some face, mixed, a random field: the factored cpu backend agrees with the
// stage form to rounding at every order, in double and float.
TEST(Fill, CpuMatchesTheReferenceOnEveryCondition) {
  for (int order : {2, 4, 6, 8}) {
    Problem p = test::material_box(order, 3 * order / 2 + 2, {BoundaryKind::Layer});
    p.boundaries = {BoundaryCondition{BoundaryKind::Convective, 4.0, 0.5}, BoundaryCondition{BoundaryKind::Flux, -2.0},
                    BoundaryCondition{BoundaryKind::Periodic}, BoundaryCondition{BoundaryKind::Periodic},
                    BoundaryCondition{BoundaryKind::Temperature, 1.5}, BoundaryCondition{BoundaryKind::Insulated}};
    const Field<double> start = randn_field<double>(p.grid, 11);
    Field<double> reference = start, fast = start;
    advance(*default_registry().find(kCpuReferenceName)->make<double>(p, BackendOptions{}), reference, 20);
    advance(*default_registry().find("cpu")->make<double>(p, BackendOptions{}), fast, 20);
    Field<float> fast_float = field_cast<float>(start);
    advance(*default_registry().find("cpu")->make<float>(p, BackendOptions{}), fast_float, 20);
    double worst = 0, worst_float = 0;
    for (std::size_t i = 0; i < start.size(); ++i) {
      worst = std::max(worst, std::abs(fast.data()[i] - reference.data()[i]) / (1 + std::abs(reference.data()[i])));
      worst_float = std::max(worst_float, std::abs(fast_float.data()[i] - reference.data()[i]) /
                                              (1 + std::abs(reference.data()[i])));
    }
    EXPECT_LT(worst, 1e-12) << order;
    EXPECT_LT(worst_float, 1e-5) << order;
    // And the conditions matter: a run without them differs.
    Problem layer = p;
    layer.boundaries.fill({BoundaryKind::Layer});
    Field<double> plain = start;
    advance(*default_registry().find("cpu")->make<double>(layer, BackendOptions{}), plain, 20);
    EXPECT_GT(std::abs(plain(p.radius(), p.radius() + 1, p.radius() + 1) -
                       fast(p.radius(), p.radius() + 1, p.radius() + 1)),
              1e-6);
  }
}
// The fill is affine with the homogeneous fill as its linear part, which the CUDA backends' stage
// fields rely on (backends/cuda/global_stencil.cuh): the full fill of u + c k is, at every ghost
// and held face point, the full fill of u plus c times the homogeneous fill of k, to rounding.
// Counting T, Q or T_INF in both (a homogeneous fill that fills in full) breaks it on every case
// that has them.
TEST(Fill, IsAffineWithTheHomogeneousFillAsItsLinearPart) {
  const double c = 0.37;
  for (const BoundaryCase& faces : boundary_cases())
    for (int order : {2, 4, 6, 8}) {
      Problem p = test::material_box(order, 3 * order / 2 + 2, {BoundaryKind::Layer});
      p.boundaries = faces.faces;
      Field<double> u = randn_field<double>(p.grid, 21), k = randn_field<double>(p.grid, 22), sum(p.grid);
      for (std::size_t i = 0; i < u.size(); ++i) sum.data()[i] = u.data()[i] + c * k.data()[i];
      fill_boundaries(p, sum.data());
      fill_boundaries(p, u.data());
      fill_boundaries<double>(p, k.data(), nullptr, FillPart::Homogeneous);
      double worst = 0;
      for (std::size_t i = 0; i < u.size(); ++i) {
        const double apart = sum.data()[i] - (u.data()[i] + c * k.data()[i]);
        worst = std::max(worst, std::abs(apart) / (1 + std::abs(sum.data()[i])));
      }
      EXPECT_LT(worst, 1e-12) << faces.name << " order " << order;
    }
}

// A random field under convective faces to T_INF = 0 on every side stays bounded by its start
// (the heat equation's maximum principle, with a margin for the stencil's overshoot) at half of
// RK4's stable cfl, for cell Biot numbers H h / K of 0.1 and 1. The stability check does not count
// convective faces yet: at Biot 10 order 2 needs a tenth of it (docs/design.md §1).
TEST(Stability, ConvectiveFacesStayBounded) {
  for (int order : {2, 4, 6, 8})
    for (double biot : {0.1, 1.0}) {
      Problem p = test::material_box(order, 3 * order / 2 + 4, {BoundaryKind::Layer});
      p.grid.hx = p.grid.hy = p.grid.hz = 0.1;
      p.boundaries.fill({BoundaryKind::Convective, biot * p.conductivity / 0.1, 0.0});
      p.dt = dt_from_cfl(p.grid, p.alpha, 0.5 * max_stable_cfl(order));
      Field<double> u = randn_field<double>(p.grid, 5);
      // Over the domain's points: the corners beyond two faces are never read, nor filled.
      const auto largest = [&] {
        const int r = p.radius();
        double most = 0;
        for (int k = r; k < p.grid.nz - r; ++k)
          for (int j = r; j < p.grid.ny - r; ++j)
            for (int i = r; i < p.grid.nx - r; ++i) most = std::max(most, std::abs(u(i, j, k)));
        return most;
      };
      const double start = largest();
      advance(*default_registry().find("cpu")->make<double>(p, BackendOptions{}), u, 2000);
      const double end = largest();
      std::printf("order %d, Biot %g: max |u| %.3g -> %.3g\n", order, biot, start, end);
      EXPECT_LT(end, 1.5 * start) << order << " " << biot;
    }
}

}  // namespace
}  // namespace heat
