// A Fourier mode evolves as P(dt*alpha*lambda)^N u0 at every point at least 4rN from every
// face (check/analytic.hpp says why), through every backend in the registry: the
// stencil's symbol and the RK4 polynomial, checked together on the whole solver.
#include <gtest/gtest.h>

#include <cmath>

#include "backends/cuda/gpu_info.hpp"
#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"
#include "check/analytic.hpp"

namespace heat {
namespace {

constexpr int kSteps = 3;

// A mode with a different k*h on each axis (1.3, 0.5, 2.1), unequal spacings and a grid just
// large enough for a few exact points on each axis, different on each axis.
Problem mode_problem(int order) {
  Problem p;
  const int margin = exact_region_margin(order, kSteps);
  p.grid = {2 * margin + 3, 2 * margin + 6, 2 * margin + 4, 0.7, 1.3, 0.9};
  p.order = order;
  p.alpha = 0.8;
  // Large enough that the mode decays to about a quarter in three steps, so every stage matters:
  // cfl 0.097 * 0.8 * (1/0.49 + 1/1.69 + 1/0.81) = 0.300. Written here, not from dt_from_cfl, so
  // a fault there cannot cancel against the same fault in the check.
  p.dt = 0.097;
  return p;
}

FourierMode test_mode(const Grid& g) {
  FourierMode m;
  m.wavenumber = {1.3 / g.hx, 0.5 / g.hy, 2.1 / g.hz};
  m.phase = {0.4, -1.0, 2.2};
  return m;
}

// The error of the decay factor (relative to the mode's amplitude) after kSteps steps.
template <typename T>
double decay_error(const std::string& backend, const Problem& p, const Field<double>& initial, int steps) {
  const Field<double> u0 = field_cast<double>(field_cast<T>(initial));  // what the backend starts from
  Field<T> u = field_cast<T>(initial);
  auto solver = default_registry().find(backend)->make<T>(p, BackendOptions{});
  advance(*solver, u, steps);
  return mode_decay_error(u, u0, p.order, steps, discrete_decay(p, test_mode(p.grid), steps));
}

class FourierModeEvolution : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (default_registry().find(GetParam())->uses_cuda) HEAT_REQUIRE_GPU();
  }
};

TEST_P(FourierModeEvolution, DoubleMatchesDiscreteSolutionTo1e12) {
  for (int order : {2, 4, 6, 8}) {
    const Problem p = mode_problem(order);
    const double decay = discrete_decay(p, test_mode(p.grid), kSteps);
    ASSERT_LT(decay, 0.5) << "the test needs a mode that visibly decays";
    const double err = decay_error<double>(GetParam(), p, mode_field(p.grid, test_mode(p.grid)), kSteps);
    ASSERT_GE(err, 0) << "empty exact region";
    EXPECT_LT(err, 1e-12) << GetParam() << " order " << order << ": decay factor " << decay;
  }
}

TEST_P(FourierModeEvolution, FloatMatchesDiscreteSolutionToFloatRounding) {
  // Float rounding of a few operations per stage over 12 stages: the cpu backend shows 2e-8 to
  // 5e-8; the bound leaves room for backends that order their operations differently.
  for (int order : {2, 4, 6, 8}) {
    const Problem p = mode_problem(order);
    const double err = decay_error<float>(GetParam(), p, mode_field(p.grid, test_mode(p.grid)), kSteps);
    ASSERT_GE(err, 0) << "empty exact region";
    EXPECT_LT(err, 5e-7) << GetParam() << " order " << order;
  }
}

std::vector<std::string> all_backends() { return default_registry().names(); }

INSTANTIATE_TEST_SUITE_P(AllBackends, FourierModeEvolution, ::testing::ValuesIn(all_backends()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(FourierMode, SineInitialConditionIsTheModeAndEvolvesExactly) {
  // The field `--init sine` draws is the mode analytic.hpp describes, so a user's sine run can
  // be checked against P(z)^N u0 too.
  for (int order : {2, 8}) {
    Problem p;
    const int margin = exact_region_margin(order, 2);
    p.grid = {2 * margin + 5, 2 * margin + 7, 2 * margin + 9, 0.02, 0.03, 0.025};
    p.order = order;
    p.dt = 7.6e-5;  // cfl 7.6e-5 * (2500 + 1111.1 + 1600) = 0.396
    const std::array<int, 3> modes = {3, 2, 5};
    const Field<double> sine = sine_field(p.grid, modes);
    const FourierMode mode = mode_of_sine_field(p.grid, modes);
    for (int k = 0; k < p.grid.nz; ++k)
      for (int j = 0; j < p.grid.ny; ++j)
        for (int i = 0; i < p.grid.nx; ++i) ASSERT_NEAR(sine(i, j, k), mode.value(p.grid, i, j, k), 1e-14);
    Field<double> u = sine;
    auto solver = default_registry().find("cpu")->make<double>(p, BackendOptions{});
    advance(*solver, u, 2);
    EXPECT_LT(mode_decay_error(u, sine, order, 2, discrete_decay(p, mode, 2)), 1e-12) << "order " << order;
  }
}

TEST(FourierMode, ContinuousLimitIsApproachedAsTheGridRefines) {
  // exp(alpha*lambda*t) -> exp(-alpha*|k|^2*t) as k*h -> 0, at rate (kh)^p.
  FourierMode mode;
  mode.wavenumber = {1.0, 0.8, 0.6};
  for (int order : {2, 4, 6, 8}) {
    double previous = 0;
    for (double h : {0.4, 0.2}) {
      Problem p;
      p.grid = {9, 9, 9, h, h, h};
      p.order = order;
      const double gap = std::fabs(semi_discrete_decay(p, mode, 1.0) - continuous_decay(p.alpha, mode, 1.0));
      if (previous > 0) EXPECT_NEAR(std::log2(previous / gap), order, 0.1) << "order " << order;
      previous = gap;
    }
  }
}

}  // namespace
}  // namespace heat
