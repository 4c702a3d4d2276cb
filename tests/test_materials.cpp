// Material fields by their physics (docs/design.md §1, "Materials"): a layered wall's
// piecewise-linear steady profile reproduced to rounding at order 2, total heat sum(w C u) dV kept
// to rounding in an insulated box of random K and C, and constant fields stepping as the constant
// problem does. The flux form's observed orders on a manufactured solution with smooth K(x) and
// C(x) are test_convergence's (check/material_convergence.hpp), for every backend that steps them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "apps/material_fields.hpp"
#include "backends/cpu/source_step.hpp"
#include "backends/registry.hpp"
#include "core/body_quadrature.hpp"
#include "core/boundary_stability.hpp"
#include "core/initial_conditions.hpp"
#include "core/materials.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

using test::random_positive;

const char* const kMaterialBackends[] = {kCpuReferenceName, "cpu"};

Field<double> run_backend(const char* backend, const Problem& p, Field<double> u, int steps) {
  advance(*default_registry().find(backend)->make<double>(p, BackendOptions{}), u, steps);
  return u;
}

// Two materials side by side along x, the interface halfway between two points (on a face of the
// flux form), temperatures held on the outer faces, insulated y and z: the steady profile is
// linear in each layer with the same flux K du/dx in both. At order 2 the harmonic mean of the
// pair across the interface is the exact series conductance, so the discrete steady state is the
// profile itself; from a random start the run settles there.
TEST(Materials, ALayeredWallSettlesOnItsPiecewiseLinearProfileAtOrderTwo) {
  const int order = 2, r = 1, cells = 8, interface = 5;  // points r..interface in layer A
  const double t0 = 0.25, t1 = 1.75, h = 1.0 / cells;
  const double k_a = 1.0, k_b = 6.0, c_a = 1.0, c_b = 3.0;
  Problem p;
  p.order = order;
  p.grid = {cells + 1 + 2 * r, 4, 4, h, h, h};
  const BoundaryCondition insulated{BoundaryKind::Insulated};
  p.boundaries = {BoundaryCondition{BoundaryKind::Temperature, t0}, BoundaryCondition{BoundaryKind::Temperature, t1},
                  insulated, insulated, insulated, insulated};
  Field<double> k(p.grid), c(p.grid);
  for (int kz = 0; kz < p.grid.nz; ++kz)
    for (int j = 0; j < p.grid.ny; ++j)
      for (int i = 0; i < p.grid.nx; ++i) {
        k(i, j, kz) = i <= interface ? k_a : k_b;
        c(i, j, kz) = i <= interface ? c_a : c_b;
      }
  p.materials = make_materials(p, k, c);
  p.alpha = largest_diffusivity(p, *p.materials);
  p.dt = dt_from_cfl(p.grid, p.alpha, 0.9 * material_cfl_limit(p));
  // The interface at x_i = (interface - r + 1/2) h; the flux through both layers in series.
  const double x_interface = (interface - r + 0.5) * h;
  const double flux = (t1 - t0) / (x_interface / k_a + (1 - x_interface) / k_b);
  const auto profile = [&](int i) {
    const double x = (i - r) * h;
    return x <= x_interface ? t0 + flux * x / k_a : t1 - flux * (1 - x) / k_b;
  };
  // The slowest mode decays at least as exp(-(smallest K / largest C) pi^2 t) (the Rayleigh
  // quotient of K u'^2 over C u^2): to below 1e-17 of its start.
  const double t_end = 40.0 / (std::min(k_a, k_b) / std::max(c_a, c_b) * M_PI * M_PI);
  const int steps = int(std::ceil(t_end / p.dt));
  for (const char* backend : kMaterialBackends) {
    const Field<double> u = run_backend(backend, p, randn_field<double>(p.grid, 11), steps);
    double worst = 0;
    for (int kz = 1; kz < p.grid.nz - 1; ++kz)
      for (int j = 1; j < p.grid.ny - 1; ++j)
        for (int i = r; i < p.grid.nx - r; ++i) worst = std::max(worst, std::abs(u(i, j, kz) - profile(i)));
    std::printf("%s: largest difference from the piecewise-linear profile %.3e after %d steps\n", backend, worst,
                steps);
    EXPECT_LT(worst, 1e-12) << backend;
  }
}

// Each pair's flux enters its two points with opposite signs, and the insulated faces' mirror
// images of u and of K make the trapezoid weights' sum a closed one: sum(w C u) dV does not move.
TEST(Materials, AnInsulatedBoxOfRandomMaterialsKeepsItsTotalHeat) {
  for (int order : {2, 4, 6, 8}) {
    Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
    // K over three decades, C over one.
    p.materials = make_materials(p, random_positive(p.grid, 1.7, 3), random_positive(p.grid, 0.6, 4));
    p.alpha = largest_diffusivity(p, *p.materials);
    p.dt = dt_from_cfl(p.grid, p.alpha, 0.9 * material_cfl_limit(p));
    const Field<double> start = randn_field<double>(p.grid, 8);
    const auto total_heat = [&](const Field<double>& u) {
      Field<double> heat = u;
      for (std::size_t n = 0; n < heat.size(); ++n) heat.data()[n] *= p.materials->heat_capacity.data()[n];
      return body_integral(p, heat);
    };
    const double before = total_heat(start);
    double scale = 0;  // the size of the terms summed
    for (std::size_t n = 0; n < start.size(); ++n)
      scale += std::abs(start.data()[n]) * p.materials->heat_capacity.data()[n];
    scale *= p.grid.hx * p.grid.hy * p.grid.hz;
    for (const char* backend : kMaterialBackends) {
      const Field<double> u = run_backend(backend, p, start, 300);
      const double after = total_heat(u);
      std::printf("%s, order %d: total heat %.17g before, %.17g after 300 steps\n", backend, order, before, after);
      EXPECT_NEAR(after, before, 1e-13 * scale) << backend << " order " << order;
      const int middle = p.grid.nx / 2;
      EXPECT_GT(std::abs(u(middle, middle, middle) - start(middle, middle, middle)), 1e-6) << backend << " barely stepped";
    }
  }
}

// K and C constant as fields: the flux form's pair conductances are K to rounding, so a run
// agrees with the constant problem's to rounding, with every kind of face.
TEST(Materials, ConstantFieldsStepAsTheConstantProblem) {
  for (int order : {2, 4, 6, 8}) {
    Problem constant = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
    constant.boundaries = {BoundaryCondition{BoundaryKind::Temperature, 0.3}, BoundaryCondition{BoundaryKind::Flux, 2.0},
                           BoundaryCondition{BoundaryKind::Convective, 4.0, -0.5},
                           BoundaryCondition{BoundaryKind::Insulated}, BoundaryCondition{BoundaryKind::Periodic},
                           BoundaryCondition{BoundaryKind::Periodic}};
    constant.source = make_heat_source(constant, Field<double>(constant.grid, 3.0));
    Problem fields = constant;
    fields.materials = make_materials(fields, Field<double>(fields.grid, constant.conductivity),
                                      Field<double>(fields.grid, constant.heat_capacity));
    EXPECT_NEAR(material_cfl_limit(fields), stable_cfl_limit(constant), 1e-12 * stable_cfl_limit(constant));
    fields.source = make_heat_source(fields, Field<double>(fields.grid, 3.0));
    const Field<double> start = randn_field<double>(constant.grid, 2);
    for (const char* backend : kMaterialBackends) {
      const Field<double> expected = run_backend(backend, constant, start, 40);
      const Field<double> got = run_backend(backend, fields, start, 40);
      double worst = 0, size = 0;
      for (std::size_t n = 0; n < got.size(); ++n) {
        worst = std::max(worst, std::abs(got.data()[n] - expected.data()[n]));
        size = std::max(size, std::abs(expected.data()[n]));
      }
      std::printf("%s, order %d: largest difference %.3e (field size %.3g)\n", backend, order, worst, size);
      EXPECT_LT(worst, 1e-12 * size) << backend << " order " << order;
    }
  }
}

}  // namespace
}  // namespace heat
