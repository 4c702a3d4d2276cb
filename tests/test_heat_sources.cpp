// Steady heat sources by their physics (docs/design.md §1, "Sources"): an insulated box gains the
// source's power times the time, a slab between two held temperatures settles on the closed-form
// parabola at every order, the once-a-step increment of the fast backend agrees with the stage
// form's add in every stage, and a resolved Gaussian holds its power.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "backends/cpu/source_step.hpp"
#include "backends/registry.hpp"
#include "check/boundary_cases.hpp"
#include "core/body_quadrature.hpp"
#include "core/heat_source.hpp"
#include "core/initial_conditions.hpp"
#include "core/time_loop.hpp"
#include "backend_physics.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

const char* const kSourceBackends[] = {kCpuReferenceName, "cpu"};

// An insulated box gains the source's power times the time (tests/backend_physics.hpp).
TEST(Sources, AnInsulatedBoxGainsThePowerTimesTheTime) {
  for (const char* backend : kSourceBackends) test::expect_insulated_box_gains_power_times_time(backend);
}

// u = T0 + (T1 - T0) x/L + Q/(2K) x (L - x) solves K u_xx + Q = 0 with u(0) = T0, u(L) = T1: a
// quadratic, which every order's stencil and the temperature face's ghosts meet exactly, so the
// discrete steady state is the closed form itself. From a field far from it, the run settles there.
TEST(Sources, AUniformSourceBetweenHeldTemperaturesSettlesOnTheParabola) {
  const double t0 = 0.5, t1 = 1.5, source = 40.0, length = 1.0;
  for (int order : {2, 4, 6, 8}) {
    const int r = order / 2, cells = 16;
    const double h = length / cells;
    Problem p;
    p.order = order;
    p.grid = {cells + 1 + 2 * r, 2 * r + 1, 2 * r + 1, h, h, h};
    p.alpha = 0.7;
    p.conductivity = 2.0;
    p.heat_capacity = p.conductivity / p.alpha;
    const BoundaryCondition periodic{BoundaryKind::Periodic};
    p.boundaries = {BoundaryCondition{BoundaryKind::Temperature, t0}, BoundaryCondition{BoundaryKind::Temperature, t1},
                    periodic, periodic, periodic, periodic};
    p.dt = 0.2 * h * h / p.alpha;
    p.source = make_heat_source(p, Field<double>(p.grid, source));
    // The slowest mode decays as exp(-alpha (pi/L)^2 t): to 1e-14 of its start.
    const double t_end = 32.2 / (p.alpha * M_PI * M_PI / (length * length));
    const int steps = int(std::ceil(t_end / p.dt));
    const auto parabola = [&](int i) {
      const double x = (i - r) * h;
      return t0 + (t1 - t0) * x / length + source / (2 * p.conductivity) * x * (length - x);
    };
    for (const char* backend : kSourceBackends) {
      Field<double> u = randn_field<double>(p.grid, 5);
      advance(*default_registry().find(backend)->make<double>(p, BackendOptions{}), u, steps);
      double worst = 0;
      for (int k = r; k < p.grid.nz - r; ++k)
        for (int j = r; j < p.grid.ny - r; ++j)
          for (int i = r; i < p.grid.nx - r; ++i) worst = std::max(worst, std::abs(u(i, j, k) - parabola(i)));
      std::printf("%s, order %d, %d steps: max |u - parabola| %.3g (peak %.3g)\n", backend, order, steps, worst,
                  parabola(r + cells / 2));
      EXPECT_LT(worst, 1e-11) << backend << " " << order;
    }
  }
}

// The fast backend adds s = dt phi(dt A) q/C once a step; the reference adds q/C to every stage.
// They are the same polynomial, so on random fields and sources they agree to rounding, with every
// kind of face and with layer faces alone (the fast backend's pairs of passes), in both precisions.
template <typename T>
double worst_difference(const Problem& p, int steps, const LoopSchedule& schedule = {}) {
  const Field<double> start = randn_field<double>(p.grid, 11);
  Field<double> reference = start;
  advance(*default_registry().find(kCpuReferenceName)->make<double>(p, BackendOptions{}), reference, steps, schedule);
  Field<T> fast = field_cast<T>(start);
  advance(*default_registry().find("cpu")->make<T>(p, BackendOptions{}), fast, steps, schedule);
  double worst = 0;
  for (std::size_t i = 0; i < start.size(); ++i)
    worst = std::max(worst, std::abs(double(fast.data()[i]) - reference.data()[i]) / (1 + std::abs(reference.data()[i])));
  return worst;
}

TEST(Sources, TheStepIncrementAgreesWithTheStageForm) {
  const int steps = 20;
  for (int order : {2, 4, 6, 8}) {
    for (bool layer : {true, false}) {
      Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Layer});
      if (!layer)
        p.boundaries = {BoundaryCondition{BoundaryKind::Convective, 4.0, 0.5},
                        BoundaryCondition{BoundaryKind::Flux, -2.0},
                        BoundaryCondition{BoundaryKind::Periodic},
                        BoundaryCondition{BoundaryKind::Periodic},
                        BoundaryCondition{BoundaryKind::Temperature, 1.5},
                        BoundaryCondition{BoundaryKind::Insulated}};
      const Field<double> q = random_source(p.grid, 2.0, 5.0, 31);
      p.source = make_heat_source(p, q);
      const double worst = worst_difference<double>(p, steps), worst_float = worst_difference<float>(p, steps);
      std::printf("order %d, %s: cpu against cpu_reference, double %.2e, float %.2e\n", order,
                  layer ? "layer faces" : "mixed faces", worst, worst_float);
      EXPECT_LT(worst, 1e-12) << order << " " << layer;
      EXPECT_LT(worst_float, 1e-5) << order << " " << layer;
      // And the source matters: without it the field differs by about the mean rate times the time.
      Problem without = p;
      without.source = nullptr;
      Field<double> plain = randn_field<double>(p.grid, 11), heated = plain;
      advance(*default_registry().find("cpu")->make<double>(without, BackendOptions{}), plain, steps);
      advance(*default_registry().find("cpu")->make<double>(p, BackendOptions{}), heated, steps);
      double largest = 0;
      for (std::size_t i = 0; i < plain.size(); ++i) largest = std::max(largest, std::abs(heated.data()[i] - plain.data()[i]));
      EXPECT_GT(largest, 0.1 * steps * p.dt * 2.0 / p.heat_capacity) << order << " " << layer;
    }
  }
}

// --t-end's shortened last step: the increment depends on dt, so the fast backend's own for the
// last step keeps it the stage form's to rounding; the step's increment would miss by about
// (dt - last) * q/C.
TEST(Sources, AShortenedLastStepTakesAnIncrementOfItsOwn) {
  for (int order : {2, 8}) {
    Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
    p.boundaries[4] = {BoundaryKind::Temperature, 1.5};
    p.source = make_heat_source(p, random_source(p.grid, 2.0, 5.0, 37));
    LoopSchedule schedule;
    schedule.last_step_dt = 0.37 * p.dt;
    const double worst = worst_difference<double>(p, 12, schedule);
    std::printf("order %d, last step 0.37 dt: cpu against cpu_reference %.2e\n", order, worst);
    EXPECT_LT(worst, 1e-12) << order;
  }
}

// sum(w q) dV of a Gaussian 6 sigma from every face, 5 points a sigma: its power to 1e-8 (the
// trapezoid rule on a resolved Gaussian converges faster than any power of h).
TEST(Sources, AResolvedGaussianHoldsItsPower) {
  Problem p;
  p.order = 4;
  const double sigma = 0.1, h = sigma / 5, power = 250.0;
  const int r = p.radius(), n = 60 + 1 + 2 * r;
  p.grid = {n, n, n, h, h, h};
  p.boundaries.fill({BoundaryKind::Insulated});
  const double centre = (r + 30) * h;
  SourceSpec gaussian = parse_source_spec("gaussian:" + std::to_string(centre) + "," + std::to_string(centre) + "," +
                                          std::to_string(centre) + ",0.1,250");
  require_source_in_body(gaussian, p);
  Field<double> q(p.grid);
  add_source_values(gaussian, p, q);
  const double held = body_integral(p, q);
  std::printf("Gaussian of power %g: sum(w q) dV = %.12g\n", power, held);
  EXPECT_NEAR(held, power, 1e-8 * power);
}

}  // namespace
}  // namespace heat
