// The monitors by their physics (core/monitors.hpp, docs/design.md §1, "Monitors"): the total
// heat of an insulated box stays put, a flux face adds Q*A and says so, each face's rate is the
// total heat's rate, and a probe on a Fourier mode reads the exact value to the interpolation's
// order; with material fields, the total heat sum(w C u) dV of random K and C stays put, the
// temperature faces' heat through the pair conductances is the total heat's rate, and constant
// fields give the constant problem's numbers.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "apps/material_fields.hpp"
#include "backends/registry.hpp"
#include "check/analytic.hpp"
#include "core/body_quadrature.hpp"
#include "core/initial_conditions.hpp"
#include "core/materials.hpp"
#include "core/monitors.hpp"
#include "core/time_loop.hpp"
#include "io/monitor_csv.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The monitors of `u` after each `every` steps of `steps`, from the time loop's snapshots.
std::vector<MonitorValues> monitored_run(const Problem& p, Field<double> u, int steps, int every,
                                         const std::vector<Probe>& probes = {}) {
  auto backend = default_registry().find("cpu")->make<double>(p, BackendOptions{});
  LoopSchedule schedule;
  schedule.monitor_every = every;
  LoopCallbacks<double> callbacks;
  std::vector<MonitorValues> rows;
  callbacks.snapshot = [&](const SnapshotSource<double>& field, int) {
    rows.push_back(measure_monitors(p, field.host().data(), probes));
  };
  advance(*backend, u, steps, schedule, callbacks);
  return rows;
}

TEST(Monitors, AnInsulatedBoxKeepsItsTotalHeatAndNoFaceLetsAnyIn) {
  for (int order : {2, 8}) {
    const Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
    const auto rows = monitored_run(p, randn_field<double>(p.grid, 11), 400, 50);
    ASSERT_EQ(rows.size(), 9u);  // steps 0, 50, ..., 400
    for (const MonitorValues& row : rows) {
      EXPECT_NEAR(row.total_heat, rows.front().total_heat, 1e-12 * std::abs(rows.front().total_heat)) << order;
      for (double rate : row.heat_in) EXPECT_EQ(rate, 0.0);
      EXPECT_LE(row.min, row.mean);
      EXPECT_LE(row.mean, row.max);
    }
    // The random field spreads out: its extremes draw in, its mean stays.
    EXPECT_LT(rows.back().max - rows.back().min, rows.front().max - rows.front().min);
    EXPECT_NEAR(rows.back().mean, rows.front().mean, 1e-12 * std::abs(rows.front().max));
  }
}

// The face's area from the domain's extent: (n - 1 - 2r) cells of each other axis.
TEST(Monitors, AFluxFaceAddsQTimesItsAreaAndItsColumnSaysSo) {
  const double q = 3.5;
  for (int order : {2, 4, 6, 8}) {
    Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
    p.boundaries[1] = {BoundaryKind::Flux, q};  // x-high
    const int r = p.radius();
    const double area = (p.grid.ny - 1 - 2 * r) * p.grid.hy * (p.grid.nz - 1 - 2 * r) * p.grid.hz;
    const int steps = 300;
    const auto rows = monitored_run(p, randn_field<double>(p.grid, 5), steps, steps);
    ASSERT_EQ(rows.size(), 2u);
    const double gained = rows.back().total_heat - rows.front().total_heat;
    EXPECT_NEAR(gained, q * area * steps * p.dt, 1e-12 * q * area * steps * p.dt) << order;
    for (const MonitorValues& row : rows) {
      EXPECT_NEAR(row.heat_in[1], q * area, 1e-14 * q * area) << order;
      for (int face : {0, 2, 3, 4, 5}) EXPECT_EQ(row.heat_in[face], 0.0);
    }
  }
}

// The faces' rates of a random field of `p` (faces x-low and y-high not insulated) add up to the
// total heat's rate, measured as below.
void expect_faces_rates_add_up(const Problem& p, const char* name) {
  const auto change_rate = [&](double dt) {
    Problem step = p;
    step.dt = dt;
    const auto rows = monitored_run(step, randn_field<double>(p.grid, 9), 1, 1);
    return std::pair{rows, (rows.back().total_heat - rows.front().total_heat) / dt};
  };
  const auto [rows, short_step] = change_rate(1e-5 * p.dt);
  const double measured = 2 * short_step - change_rate(2e-5 * p.dt).second;
  double rate = 0;
  for (double face : rows.front().heat_in) rate += face;
  std::printf("%s, order %d: faces %.12g, total heat's rate %.12g\n", name, p.order, rate, measured);
  EXPECT_NEAR(measured, rate, 1e-6 * std::abs(rate)) << name << " " << p.order;
  EXPECT_NE(rows.front().heat_in[0], 0.0);
  EXPECT_NE(rows.front().heat_in[3], 0.0);
}

// One RK4 step of a small dt changes the total heat by dt times its rate plus dt^2 terms (RK4 of a
// linear system is u + dt (A u + b) + ...); two steps, of dt and 2 dt, give the rate to dt^2 by
// Richardson's rule, and that rate is the faces' sum: the temperature faces' discrete flux at
// every order, convective and radiation at order 2 (where their ghosts are the flux closure's).
TEST(Monitors, TheFacesRatesAddUpToTheTotalHeatsRate) {
  struct Case {
    const char* name;
    std::vector<int> orders;
    BoundaryCondition low, high;
  };
  const Case cases[] = {
      {"temperature", {2, 4, 6, 8}, {BoundaryKind::Temperature, 0.4}, {BoundaryKind::Temperature, -0.3}},
      {"convective", {2}, {BoundaryKind::Convective, 2.0, 0.7}, {BoundaryKind::Convective, 0.5, -0.2}},
      {"radiation", {2}, {BoundaryKind::Radiation, 0.9, 300.0}, {BoundaryKind::Radiation, 0.4, 250.0}},
  };
  for (const Case& c : cases)
    for (int order : c.orders) {
      Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
      p.boundaries[0] = c.low;
      p.boundaries[3] = c.high;  // y-high: two axes, so the held edge rows count too
      expect_faces_rates_add_up(p, c.name);
    }
}

// A radiation face on an insulated bar, its temperatures a few hundred kelvin (the cell Biot
// number 4 EPS sigma T^3 h / K about 0.1 at 16 cells): the total heat's change over a run is the
// time integral of the heat radiated in, EPS sigma (T_INF^4 - u^4) over the face (the monitors'
// column, integrated by Simpson's rule over every step), to the closure's error, which shrinks
// with h at its order (2 at order 2, where it is the flux closure's and the balance holds to the
// time integral's error alone; about 4 above).
TEST(Monitors, ARadiationFacesHeatBalancesItsRadiatedFluxToTheClosuresError) {
  for (int order : {2, 4, 6, 8}) {
    std::vector<double> mismatch;
    for (int cells : {16, 32, 64}) {
      const int r = order / 2;
      Problem p;
      p.order = order;
      const double h = 1.0 / cells;
      p.grid = {cells + 1 + 2 * r, 2 * r + 1, 2 * r + 1, h, h, h};
      p.conductivity = 2;
      p.heat_capacity = 3;
      p.alpha = p.conductivity / p.heat_capacity;
      p.boundaries.fill({BoundaryKind::Periodic});
      p.boundaries[0] = {BoundaryKind::Radiation, 0.8, 250.0};
      p.boundaries[1] = {BoundaryKind::Insulated};
      const double t_end = 0.05;
      const int steps = 2 * int(std::ceil(t_end / (2 * 0.2 * h * h / p.alpha)));  // even, for Simpson
      p.dt = t_end / steps;
      // A cosine mode, and a parabola whose slope at x = 0 is the radiation's there and 0 at x = 1,
      // so that the start meets both faces' conditions.
      const BoundaryCondition& face = p.boundaries[0];
      const double face_value = 460, face_value2 = face_value * face_value, t_inf2 = face.t_inf * face.t_inf;
      const double slope = face.value * kStefanBoltzmann * (face_value2 * face_value2 - t_inf2 * t_inf2) / p.conductivity;
      Field<double> u(p.grid);
      for (int k = 0; k < p.grid.nz; ++k)
        for (int j = 0; j < p.grid.ny; ++j)
          for (int i = 0; i < p.grid.nx; ++i) {
            const double x = (i - r) * h;
            u(i, j, k) = 400 + 60 * std::cos(kPi * x) + slope * (x - x * x / 2);
          }
      const auto rows = monitored_run(p, u, steps, 1);
      ASSERT_EQ(rows.size(), std::size_t(steps) + 1);
      double radiated = 0;
      for (int s = 0; s <= steps; ++s)
        radiated += (s == 0 || s == steps ? 1 : s % 2 ? 4 : 2) * rows[std::size_t(s)].heat_in[0];
      radiated *= p.dt / 3;
      const double gained = rows.back().total_heat - rows.front().total_heat;
      mismatch.push_back(std::abs(gained - radiated) / std::abs(radiated));
      std::printf("order %d, %d cells: heat gained %.12g, radiated in %.12g\n", order, cells, gained, radiated);
    }
    for (std::size_t l = 1; l < mismatch.size(); ++l) {
      const double observed = std::log2(mismatch[l - 1] / mismatch[l]);
      EXPECT_GT(observed, 1.8) << "order " << order << ": relative mismatch " << mismatch[l - 1] << " -> "
                               << mismatch[l];
    }
  }
}

// The same with random K (three decades) and C: a temperature face's heat is the sum of the pair
// conductances' fluxes across its held point, at every order.
TEST(Monitors, WithMaterialFieldsTheTemperatureFacesRatesAddUpToTheTotalHeatsRate) {
  for (int order : {2, 4, 6, 8}) {
    Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
    p.boundaries[0] = {BoundaryKind::Temperature, 0.4};
    p.boundaries[3] = {BoundaryKind::Temperature, -0.3};
    p.materials = make_materials(p, test::random_positive(p.grid, 1.7, 31), test::random_positive(p.grid, 0.6, 32));
    p.alpha = largest_diffusivity(p, *p.materials);
    p.dt = dt_from_cfl(p.grid, p.alpha, 0.5 * material_cfl_limit(p));
    expect_faces_rates_add_up(p, "temperature with materials");
  }
}

// With material fields the total heat is sum(w C u) dV, C at each point: it stays put in an
// insulated box of random K and C, where the constant C's sum would not.
TEST(Monitors, WithMaterialFieldsAnInsulatedBoxKeepsItsTotalHeatSumOfCU) {
  for (int order : {2, 8}) {
    Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
    p.materials = make_materials(p, test::random_positive(p.grid, 1.7, 41), test::random_positive(p.grid, 0.6, 42));
    p.alpha = largest_diffusivity(p, *p.materials);
    p.dt = dt_from_cfl(p.grid, p.alpha, 0.9 * material_cfl_limit(p));
    const Field<double> start = randn_field<double>(p.grid, 43);
    Field<double> heat = start;
    double scale = 0;  // the size of the terms summed
    for (std::size_t n = 0; n < heat.size(); ++n) {
      heat.data()[n] *= p.materials->heat_capacity.data()[n];
      scale += std::abs(heat.data()[n]) * p.grid.hx * p.grid.hy * p.grid.hz;
    }
    const auto rows = monitored_run(p, start, 300, 100);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_NEAR(rows.front().total_heat, body_integral(p, heat), 1e-14 * scale) << order;
    for (const MonitorValues& row : rows) {
      EXPECT_NEAR(row.total_heat, rows.front().total_heat, 1e-13 * scale) << order;
      for (double rate : row.heat_in) EXPECT_EQ(rate, 0.0);
    }
    // The field moves: C's weights are what keeps the sum.
    EXPECT_GT(std::abs(rows.back().mean - rows.front().mean), 1e-6) << order;
  }
}

// Constant fields give the constant problem's monitors to rounding, every face kind.
TEST(Monitors, ConstantMaterialFieldsGiveTheConstantProblemsMonitors) {
  const BoundaryCondition faces[] = {{BoundaryKind::Temperature, 0.4}, {BoundaryKind::Convective, 2, 0.5},
                                     {BoundaryKind::Flux, -1},         {BoundaryKind::Temperature, -0.3},
                                     {BoundaryKind::Insulated},        {BoundaryKind::Layer}};
  for (int order : {2, 4, 6, 8}) {
    Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
    for (int face = 0; face < kFaces; ++face) p.boundaries[face] = faces[(face + order) % kFaces];
    Problem fields = p;
    fields.materials = make_materials(p, Field<double>(p.grid.nx, p.grid.ny, p.grid.nz, p.conductivity),
                                      Field<double>(p.grid.nx, p.grid.ny, p.grid.nz, p.heat_capacity));
    // About 1: no sum of its terms cancels, so each compares to its size.
    Field<double> u = randn_field<double>(p.grid, 51);
    for (double& v : u.values()) v = 1 + 0.1 * v;
    const MonitorValues constant = measure_monitors(p, u.data(), {}), varying = measure_monitors(fields, u.data(), {});
    EXPECT_NEAR(varying.total_heat, constant.total_heat, 1e-13 * std::abs(constant.total_heat)) << order;
    for (int face = 0; face < kFaces; ++face) {
      if (std::isnan(constant.heat_in[face])) {
        EXPECT_TRUE(std::isnan(varying.heat_in[face])) << order << " face " << face;
        continue;
      }
      EXPECT_NEAR(varying.heat_in[face], constant.heat_in[face], 1e-12 * std::abs(constant.heat_in[face]))
          << order << " face " << face;
    }
  }
}

// A periodic box holding prod_a cos(k_a (x_a - r h) + phase_a): after n steps the field is the
// mode times P(z)^n exactly, and a probe between points reads it to the trilinear
// interpolation's error, O(h^2): halving h quarters it (the error taken relative to the decay,
// which differs from level to level as dt does). Each probe lies a third or two thirds into
// its cell along each axis at every level (x = (m + 1/3)/8), where that error's factor f(1 - f)
// is the same; the mode is far from 0 at both, where that error, a multiple of u, would vanish.
TEST(Monitors, AProbeOnAFourierModeReadsTheExactValueToSecondOrder) {
  const int order = 8, r = order / 2, steps = 10;
  const auto at = [](double m) { return (m + 1.0 / 3) / 8; };
  const std::vector<Probe> probes = {{at(2), at(6), at(4)}, {at(7), at(2), at(5)}};
  double previous[2] = {0, 0};
  for (int period : {16, 32, 64}) {
    Problem p;
    p.order = order;
    const double h = 1.0 / period;
    p.grid = {period + 2 * r, period + 2 * r, period + 2 * r, h, h, h};
    p.alpha = 0.3;
    p.boundaries.fill({BoundaryKind::Periodic});
    p.dt = dt_from_cfl(p.grid, p.alpha, 0.2);
    FourierMode mode;
    mode.wavenumber = {2 * kPi, 4 * kPi, 2 * kPi};
    // The phases put the mode's origin at the low face points (index r).
    mode.phase = {0.3 - 2 * kPi * r * h, -0.5 - 4 * kPi * r * h, 1.1 - 2 * kPi * r * h};
    const double decay = discrete_decay(p, mode, steps);
    std::vector<Probe> shifted;
    for (const Probe& q : probes) shifted.push_back({q.x + r * h, q.y + r * h, q.z + r * h});
    const auto rows = monitored_run(p, mode_field(p.grid, mode), steps, steps, shifted);
    for (int n = 0; n < 2; ++n) {
      const Probe& q = shifted[n];
      double exact = decay;
      const double at[3] = {q.x, q.y, q.z};
      for (int a = 0; a < 3; ++a) exact *= std::cos(mode.wavenumber[a] * at[a] + mode.phase[a]);
      const double error = std::abs(rows.back().probes[n] - exact) / decay;
      if (previous[n] > 0) {
        const double observed = std::log2(previous[n] / error);
        std::printf("probe %d, %d points a period: error %.3e, observed order %.2f\n", n, period, error, observed);
        EXPECT_GT(observed, 1.9);
        EXPECT_LT(observed, 2.1);
      }
      previous[n] = error;
    }
  }
}

// The monitors are measured plane by plane (measure_plane_shares) so that ranks holding other
// planes give the same numbers: the shares of any split of the planes into boxes, each read from a
// box of its own planes and r planes more on each side, combine to the whole grid's bits; and a
// plane's share is one thread's, so the thread count changes nothing. With material fields too (K
// and C read from the whole grid's, as every rank holds them).
TEST(Monitors, AnySplitOfThePlanesAndAnyThreadCountGiveTheSameBits) {
  const BoundaryCondition faces[] = {{BoundaryKind::Temperature, 0.4},
                                     {BoundaryKind::Convective, 2, 0.5},
                                     {BoundaryKind::Flux, -1},
                                     {BoundaryKind::Temperature, -0.3}};
  for (int order : {2, 8})
    for (bool materials : {false, true}) {
      Problem p = test::material_box(order, 3 * order / 2 + 3, {BoundaryKind::Insulated});
      for (int face = 0; face < kFaces; ++face) p.boundaries[face] = faces[(face + order) % 4];
      p.boundaries[2] = p.boundaries[3] = {BoundaryKind::Periodic};  // y
      if (materials)
        p.materials = make_materials(p, test::random_positive(p.grid, 1.7, 61), test::random_positive(p.grid, 0.6, 62));
      const Field<double> u = randn_field<double>(p.grid, 23);
      const int r = p.radius(), nz = p.grid.nz;
      std::vector<Probe> probes;
      for (double z = (r + 0.3) * p.grid.hz; z < (nz - 1 - r) * p.grid.hz; z += 0.7 * p.grid.hz)
        probes.push_back({(r + 0.6) * p.grid.hx, (p.grid.ny - r - 0.4) * p.grid.hy, z});
      const MonitorValues whole = measure_monitors(p, u.data(), probes);
      const std::size_t plane = std::size_t(p.grid.nx) * std::size_t(p.grid.ny);
      for (const std::vector<int>& cuts :
           std::vector<std::vector<int>>{{0, nz}, {0, nz / 2, nz}, {0, r + 1, nz - r - 2, nz}}) {
        std::vector<double> shares;
        for (std::size_t part = 0; part + 1 < cuts.size(); ++part) {
          const int box_begin = std::max(0, cuts[part] - r), box_end = std::min(nz, cuts[part + 1] + r);
          const std::vector<double> box(u.data() + std::size_t(box_begin) * plane,
                                        u.data() + std::size_t(box_end) * plane);
          const std::vector<double> mine =
              measure_plane_shares(p, box.data(), box_begin, cuts[part], cuts[part + 1], probes);
          shares.insert(shares.end(), mine.begin(), mine.end());
        }
        const MonitorValues split = combine_plane_shares(p, shares, probes.size());
        EXPECT_EQ(monitor_csv_row(0, 0, split), monitor_csv_row(0, 0, whole))
            << order << ", " << cuts.size() - 1 << " parts";
      }
      const int threads = omp_get_max_threads();
      omp_set_num_threads(3);
      const MonitorValues three = measure_monitors(p, u.data(), probes);
      omp_set_num_threads(threads);
      EXPECT_EQ(monitor_csv_row(0, 0, three), monitor_csv_row(0, 0, whole)) << order;
    }
}

TEST(Monitors, AProbeOutsideTheDomainIsNamedWithTheBounds) {
  Problem p = test::material_box(2, 12, {BoundaryKind::Insulated});
  p.boundaries[0] = {BoundaryKind::Layer};
  // x: the layer side ends at 0, the insulated one at its face point (n - 1 - r) h.
  const auto extents = probe_extents(p);
  EXPECT_EQ(extents[0].low, 0.0);
  EXPECT_DOUBLE_EQ(extents[0].high, 10 * p.grid.hx);
  EXPECT_NO_THROW(require_probes_inside(p, {{0.0, 0.5, 0.5}}));
  try {
    require_probes_inside(p, {{0.5, 0.5, 0.5}, {1.5, 0.5, 0.5}});
    FAIL() << "a probe outside was taken";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("--probe 1.5,0.5,0.5"), std::string::npos) << message;
    EXPECT_NE(message.find("x in [0, 1]"), std::string::npos) << message;
  }
  EXPECT_THROW(parse_probes("1,2"), InputError);
  EXPECT_THROW(parse_probes("1,nan,2"), InputError);
  EXPECT_THROW(parse_probes("1,,2"), InputError);
  EXPECT_EQ(probes_text(parse_probes("0.1,2,-3,4,5,6")), "0.1,2,-3,4,5,6");
}

}  // namespace
}  // namespace heat
