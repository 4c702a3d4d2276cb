// Checks that hold for every backend that takes a problem's faces and sources, shared by the cpu
// tests and the CUDA ones so that both hold the same physics to the same bounds.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "apps/material_fields.hpp"
#include "backends/cpu/source_step.hpp"
#include "backends/registry.hpp"
#include "check/boundary_cases.hpp"
#include "check/material_cases.hpp"
#include "core/body_quadrature.hpp"
#include "core/initial_conditions.hpp"
#include "core/materials.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"

namespace heat::test {

// p on `faces` with the fields of `m` and a random source whose rate q/C adds about 1 to u over
// `steps` steps (give or take C's spread); dt at cfl 0.2 or half the materials' stable limit,
// whichever is smaller.
inline Problem material_problem(const Grid& g, int order, const Boundaries& faces, const MaterialCase& m, int steps,
                                unsigned long long seed) {
  Problem p = gpu_test_problem(g, order);
  p.boundaries = faces;
  p.materials = make_materials(p, m.conductivity, m.heat_capacity);
  p.alpha = largest_diffusivity(p, *p.materials);
  p.dt = dt_from_cfl(g, p.alpha, std::min(0.2, 0.5 * material_cfl_limit(p)));
  const double heating = 1.0 / (p.dt * steps);
  p.source = make_heat_source(p, random_source(g, heating, 0.5 * heating, seed));
  return p;
}

// The field as backend `name` holds it once set, without a step: its ghosts as its fill made them.
template <typename T>
Field<T> uploaded(const std::string& name, const Problem& p, const Field<T>& start) {
  auto backend = default_registry().find(name)->make<T>(p, BackendOptions{});
  backend->upload(start);
  Field<T> u(p.grid, T(-12345));  // poison the host copy: download must overwrite every point
  backend->download(u);
  return u;
}

// The weighted sum of A v vanishes in an insulated box, so the heat C sum(w u) dV grows by exactly
// P t, P = sum(w q) dV, in exact arithmetic: over 2000 steps in double, to 1e-12 relative, at every
// order, on backend `name`.
inline void expect_insulated_box_gains_power_times_time(const std::string& name) {
  for (int order : {2, 4, 6, 8}) {
    Problem p = material_box(order, 3 * order / 2 + 2, {BoundaryKind::Insulated});
    const Field<double> q = random_source(p.grid, 3.0, 1.0, 21);
    p.source = make_heat_source(p, q);
    const double power = body_integral(p, q);
    const int steps = 2000;
    Field<double> u = randn_field<double>(p.grid, 7);
    const double before = p.heat_capacity * body_integral(p, u);
    advance(*default_registry().find(name)->make<double>(p, BackendOptions{}), u, steps);
    const double gained = p.heat_capacity * body_integral(p, u) - before;
    const double expected = power * steps * p.dt;
    std::printf("%s, order %d: heat gained %.17g, P*t %.17g\n", name.c_str(), order, gained, expected);
    EXPECT_NEAR(gained, expected, 1e-12 * (std::abs(before) + expected)) << name << " order " << order;
  }
}

}  // namespace heat::test
