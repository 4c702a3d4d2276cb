// --t-end by its physics and at the command line (docs/design.md §3, "End time and monitors"): a
// run to T whose last step is shortened holds a Fourier mode's exact discrete value at T, which a
// run stopping a step short misses; bad end times are refused before any work; the JSON's final
// time is T, --check agrees, and a restart goes on to the stored end time.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "backends/registry.hpp"
#include "check/analytic.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

constexpr double kPi = 3.14159265358979323846;

// A periodic box holding prod_a cos(k_a x_a + phase_a): RK4's steps multiply it by P(z) each, z
// = dt alpha lambda, so the steps of a run to T give P(z)^(n-1) P(z_last) exactly, and
// exp(alpha lambda T) to RK4's error.
TEST(EndTime, AShortenedLastStepLandsOnTheModesValueAtTheEndTime) {
  for (const char* backend_name : {"cpu", "cpu_reference"})
    for (int order : {2, 8}) {
      const int r = order / 2, period = 16;
      Problem p;
      p.order = order;
      const double h = 1.0 / period;
      p.grid = {period + 2 * r, period + 2 * r, period + 2 * r, h, h, h};
      p.alpha = 0.4;
      p.boundaries.fill({BoundaryKind::Periodic});
      p.dt = dt_from_cfl(p.grid, p.alpha, 0.1);
      FourierMode mode;
      mode.wavenumber = {2 * kPi, 2 * kPi, 4 * kPi};
      mode.phase = {0.2, -0.4, 0.9};
      const double t_end = 23.6 * p.dt;  // 23 steps and a last of 0.6 dt
      const int steps = 24;
      const double last_dt = t_end - 23 * p.dt;
      const Field<double> u0 = mode_field(p.grid, mode);
      const auto run = [&](int count, double last) {
        Field<double> u = u0;
        auto backend = default_registry().find(backend_name)->make<double>(p, BackendOptions{});
        LoopSchedule schedule;
        schedule.last_step_dt = last;
        advance(*backend, u, count, schedule);
        return u;
      };
      const Field<double> to_end = run(steps, last_dt), short_of_it = run(steps - 1, 0);
      const double lambda = discrete_symbol(p.grid, order, mode);
      const double discrete = std::pow(rk4_amplification(p.dt * p.alpha * lambda), steps - 1) *
                              rk4_amplification(last_dt * p.alpha * lambda);
      const double exact = std::exp(p.alpha * lambda * t_end);
      double to_discrete = 0, to_exact = 0, short_to_exact = 0;
      for (int k = r; k < p.grid.nz - r; ++k)
        for (int j = r; j < p.grid.ny - r; ++j)
          for (int i = r; i < p.grid.nx - r; ++i) {
            to_discrete = std::max(to_discrete, std::abs(to_end(i, j, k) - discrete * u0(i, j, k)));
            to_exact = std::max(to_exact, std::abs(to_end(i, j, k) - exact * u0(i, j, k)));
            short_to_exact = std::max(short_to_exact, std::abs(short_of_it(i, j, k) - exact * u0(i, j, k)));
          }
      std::printf("%s, order %d: to the discrete value %.2e, to exp(alpha lambda T) %.2e; a step short %.2e\n",
                  backend_name, order, to_discrete, to_exact, short_to_exact);
      EXPECT_LT(to_discrete, 1e-14) << backend_name << " " << order;
      EXPECT_LT(to_exact, 1e-6 * short_to_exact) << backend_name << " " << order;
    }
}

std::vector<std::string> small_run(std::vector<std::string> more) {
  std::vector<std::string> args = {"--n", "12", "--order", "2", "--backend", "cpu", "--quiet", "--format", "none"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(EndTime, BadEndTimesAndStepsBesideItAreRefusedBeforeAnyWork) {
  const struct {
    std::vector<std::string> args;
    std::string says;
  } cases[] = {
      {{"--t-end", "0.01", "--steps", "5"}, "--steps 5 and --t-end 0.01 both given"},
      {{"--t-end", "0"}, "--t-end 0 is not past the start time 0"},
      {{"--t-end", "-1"}, "--t-end -1 is not past the start time 0"},
      {{"--t-end", "nan"}, "--t-end"},
      {{"--t-end", "inf"}, "--t-end"},
      {{"--t-end", "1e300"}, "past step"},
  };
  for (const auto& c : cases) {
    const auto r = run_heatrk4(small_run(c.args));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << r.output;
  }
}

double json_number(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\": ");
  return at == std::string::npos ? std::nan("") : std::strtod(json.c_str() + at + key.size() + 4, nullptr);
}

TEST(EndTime, TheRunEndsAtTheEndTimeItsCheckAgreesAndARestartGoesOnToTheStoredOne) {
  const std::string dir = test::temp_directory("end_time");
  // dt = 0.05 / (3 * 11^2): 0.01 is 72.6 of them.
  const auto first = run_heatrk4({"--n", "12", "--order", "2", "--backend", "cpu", "--quiet", "--precision", "double",
                                  "--t-end", "0.01", "--output-every", "40", "--output", dir, "--check", "--json",
                                  dir + "/first.json"});
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const std::string json = test::read_text(dir + "/first.json");
  EXPECT_EQ(json_number(json, "final_time"), 0.01) << json;
  EXPECT_EQ(json_number(json, "final_step"), 73) << json;
  EXPECT_EQ(json_number(json, "t_end"), 0.01) << json;
  EXPECT_NE(json.find("\"pass\": true"), std::string::npos) << json;
  // From step 40 the restart takes the stored end time: its last snapshot is the first run's.
  const std::string again = dir + "/again";
  // No --backend: the restart steps on the first run's (cpu, stored in the snapshot), not on auto's
  // pick (tiled where a GPU is), so it is bitwise the first run on any machine.
  const auto restart = run_heatrk4({"--restart", dir + "/heat_000040.hdf", "--output", again, "--quiet", "--json",
                                    again + ".json"});
  ASSERT_EQ(restart.exit_code, 0) << restart.output;
  EXPECT_EQ(json_number(test::read_text(again + ".json"), "final_time"), 0.01);
  const auto same = run_heatrk4({"compare", again + "/heat_000073.hdf", dir + "/heat_000073.hdf", "--rtol", "0",
                                 "--atol", "0"});
  EXPECT_EQ(same.exit_code, 0) << same.output;
  // From the end itself there is nowhere left to go without --steps or a later --t-end.
  const auto ended = run_heatrk4({"--restart", dir + "/heat_000073.hdf", "--output", dir + "/ended", "--quiet"});
  EXPECT_EQ(ended.exit_code, 2) << ended.output;
  EXPECT_NE(ended.output.find("a restart goes on to its file's t_end"), std::string::npos) << ended.output;
}

}  // namespace
}  // namespace heat
