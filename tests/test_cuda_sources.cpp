// Every CUDA backend adds a steady heat source as the cpu reference does (docs/design.md §1,
// "Sources"): naive's and reuse's stage form, tiled's step increment in its last pass (its fused
// kernels where every face is layer, its single passes otherwise). On random fields and random
// sources, at every order in float and double, with layer faces, held temperatures (the source's
// curvature in their ghosts, filled on the device from its rate there) and every kind of face at
// once, within verify's tolerances; the device's fill with a source is the host's bits; a --t-end
// shortened last step takes an increment made for it; and by their physics, an insulated box
// gains the source's power times the time. Skipped (and reported so) on a machine without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "backends/cpu/source_step.hpp"
#include "backends/registry.hpp"
#include "check/boundary_cases.hpp"
#include "check/reference.hpp"
#include "core/body_quadrature.hpp"
#include "core/heat_source.hpp"
#include "core/time_loop.hpp"
#include "backend_physics.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

// Rows of odd and even length (the tiled kernels' scalar and pair accesses, the copy engine's
// passes where rows are a multiple of 16 bytes), spacings all unequal, every axis at least
// 3r + 1 = 13 points at order 8, a domain about a unit wide (the boundary cases' values suit it).
const Grid kGrids[] = {{23, 19, 29, 0.035, 0.065, 0.045}, {24, 20, 17, 0.05, 0.04, 0.06}};

constexpr int kSteps = 6;

// p on `faces` with a random source whose rate q/C adds about 1 to u over `steps` steps, the size
// of the random field itself: a backend that dropped the source, or added it at the wrong stage or
// with the wrong dt, would miss by far more than the tolerances.
Problem heated_problem(const Grid& g, int order, const Boundaries& faces, int steps, unsigned long long seed) {
  Problem p = test::gpu_test_problem(g, order);
  p.conductivity = 1.5;
  p.heat_capacity = p.conductivity / p.alpha;
  p.boundaries = faces;
  const double heating = p.heat_capacity / (p.dt * steps);
  p.source = make_heat_source(p, random_source(g, heating, 0.5 * heating, seed));
  return p;
}

class CudaSources : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { HEAT_REQUIRE_GPU(); }
};

template <typename T>
void expect_matches_reference(const std::string& name) {
  const double tol = default_tolerance<T>();
  for (const Grid& g : kGrids)
    for (int order : {2, 4, 6, 8})
      for (const BoundaryCase& faces : source_cases()) {
        const Problem p = heated_problem(g, order, faces.faces, kSteps, 60 + order);
        const FieldDifference d = check_against_reference<T>(name, p, randn_field(g, 50 + order), kSteps, tol, tol);
        EXPECT_TRUE(d.pass()) << name << " " << faces.name << " order " << order << " " << g.nx << "x" << g.ny << "x"
                              << g.nz << ": " << describe(d);
      }
}

TEST_P(CudaSources, MatchCpuReferenceFloat) { expect_matches_reference<float>(GetParam()); }
TEST_P(CudaSources, MatchCpuReferenceDouble) { expect_matches_reference<double>(GetParam()); }

// A temperature face's ghosts with a source hold its curvature, from the rate the device holds:
// the host's bits (each ghost computed alike, without contracted multiply-adds).
template <typename T>
void expect_fill_bitwise_the_hosts(const std::string& name) {
  for (const Grid& g : kGrids)
    for (int order : {2, 8})
      for (const BoundaryCase& faces : source_cases()) {
        const Problem p = heated_problem(g, order, faces.faces, kSteps, 3);
        const Field<T> start = field_cast<T>(randn_field(g, 4));
        const Field<T> device = test::uploaded(name, p, start), host = test::uploaded(kCpuReferenceName, p, start);
        EXPECT_EQ(std::memcmp(device.data(), host.data(), device.size() * sizeof(T)), 0)
            << name << " " << faces.name << " order " << order << " " << g.nx << "x" << g.ny << "x" << g.nz;
      }
}

TEST_P(CudaSources, FillTemperatureFacesAsTheHostBitwise) {
  expect_fill_bitwise_the_hosts<float>(GetParam());
  expect_fill_bitwise_the_hosts<double>(GetParam());
}

// --t-end's last step of 0.37 dt, with a held temperature among insulated faces and with layer
// faces alone: the increment of the step would add 0.63 dt q/C too much, a twentieth of what the
// source adds over the run, so only an increment made for the last step passes.
template <typename T>
void expect_shortened_last_step_matches(const std::string& name) {
  const double tol = default_tolerance<T>();
  const int steps = 12;
  Boundaries held;
  held.fill({BoundaryKind::Insulated});
  held[4] = {BoundaryKind::Temperature, 1.5};
  for (const Boundaries& faces : {held, Boundaries{}})
    for (int order : {2, 4, 6, 8}) {
      const Problem p = heated_problem(kGrids[1], order, faces, steps, 70 + order);
      LoopSchedule schedule;
      schedule.last_step_dt = 0.37 * p.dt;
      const Field<double> initial = randn_field(p.grid, 80 + order);
      Field<T> u = field_cast<T>(initial);
      advance(*default_registry().find(name)->make<T>(p, BackendOptions{}), u, steps, schedule);
      Field<double> reference = field_cast<double>(field_cast<T>(initial));
      advance(*default_registry().find(kCpuReferenceName)->make<double>(p, BackendOptions{}), reference, steps,
              schedule);
      const FieldDifference d = compare_with_reference(u, reference, p, tol, tol);
      EXPECT_TRUE(d.pass()) << name << (all_layer(faces) ? " layer" : " held") << " order " << order << ": "
                            << describe(d);
    }
}

TEST_P(CudaSources, TakeAnIncrementOfTheirOwnForAShortenedLastStepFloat) {
  expect_shortened_last_step_matches<float>(GetParam());
}
TEST_P(CudaSources, TakeAnIncrementOfTheirOwnForAShortenedLastStepDouble) {
  expect_shortened_last_step_matches<double>(GetParam());
}

// An insulated box gains the source's power times the time (tests/backend_physics.hpp).
TEST_P(CudaSources, AnInsulatedBoxGainsThePowerTimesTheTime) {
  test::expect_insulated_box_gains_power_times_time(GetParam());
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CudaSources);
INSTANTIATE_TEST_SUITE_P(Registry, CudaSources, ::testing::ValuesIn(test::cuda_backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace heat
