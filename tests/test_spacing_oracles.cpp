// What the product computes from the spacing, checked against numbers worked out by hand here
// (never with the product's own dt_from_cfl, which would share any bug in it): dt from --cfl
// and cfl from --dt on grids whose three spacings differ, a run near the largest stable cfl on
// such a grid that must stay finite, and the spatial order on unequal spacings with dt given.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "backends/registry.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"
#include "check/analytic.hpp"

namespace heat {
namespace {

// One number of the --json summary's "problem" object (each key appears once there).
double json_number(const std::string& json, const std::string& key) {
  std::smatch match;
  if (!std::regex_search(json, match, std::regex("\"" + key + "\": ([-+0-9.eE]+)"))) return std::nan("");
  return std::stod(match[1]);
}

struct RunSummary {
  int exit_code = -1;
  std::string output, json;
};

RunSummary run_with_summary(std::vector<std::string> args) {
  const std::string dir = test::temp_directory("spacing");
  args.insert(args.end(), {"--backend", "cpu", "--format", "none", "--quiet", "--json", dir + "/summary.json"});
  const auto result = test::run_heatrk4(args);
  return {result.exit_code, result.output, test::read_text(dir + "/summary.json")};
}

struct SpacingCase {
  std::vector<std::string> args;
  double dt;  // by hand: cfl / (alpha * (1/hx^2 + 1/hy^2 + 1/hz^2))
};

TEST(SpacingOracles, DtFromCflCountsEachAxisOnce) {
  const std::vector<SpacingCase> cases = {
      // 0.4 / (1 + 1 + 16) = 0.4 / 18
      {{"--hx", "1", "--hy", "1", "--hz", "0.25", "--cfl", "0.4"}, 0.022222222222222223},
      // 0.3 / (2 * (4 + 1 + 0.25)) = 0.3 / 10.5 = 1/35
      {{"--hx", "0.5", "--hy", "1", "--hz", "2", "--alpha", "2", "--cfl", "0.3"}, 0.028571428571428571},
      // 0.5 / (0.5 * (25 + 100 + 6.25)) = 0.5 / 65.625 = 4/525
      {{"--hx", "0.2", "--hy", "0.1", "--hz", "0.4", "--alpha", "0.5", "--cfl", "0.5"}, 0.0076190476190476190},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"--nx", "11", "--ny", "10", "--nz", "9", "--order", "2", "--steps", "1"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const RunSummary r = run_with_summary(args);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NEAR(json_number(r.json, "dt"), c.dt, 1e-15 * c.dt) << c.args[1] << " " << c.args[3] << " " << c.args[5];
  }
}

TEST(SpacingOracles, CflFromDtCountsEachAxisOnce) {
  // 0.01 * 1 * (1 + 4 + 16) = 0.21 with hx 1, hy 0.5, hz 0.25; and 0.002 * 3 * (100 + 4 + 1) = 0.63.
  const RunSummary a = run_with_summary(
      {"--nx", "11", "--ny", "10", "--nz", "9", "--hx", "1", "--hy", "0.5", "--hz", "0.25", "--dt", "0.01", "--steps", "1"});
  ASSERT_EQ(a.exit_code, 0) << a.output;
  EXPECT_NEAR(json_number(a.json, "cfl"), 0.21, 1e-14);
  const RunSummary b = run_with_summary({"--nx", "11", "--ny", "10", "--nz", "9", "--order", "2", "--hx", "0.1", "--hy",
                                         "0.5", "--hz", "1", "--alpha", "3", "--dt", "0.002", "--steps", "1"});
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_NEAR(json_number(b.json, "cfl"), 0.63, 1e-14);
}

// The largest stable cfl of each order (design.md §1: 2.7853 / m_p, m_p = 4, 16/3, 272/45, 3296/315):
// 0.6963, 0.5222, 0.4608, 0.4284. 0.95 of it, rounded down.
struct StableCase {
  const char* order;
  const char* near_limit;
  const char* above_limit;  // 1.3x: the control, which must blow up on the same grid
};

TEST(SpacingOracles, ARunNearTheStableCflOnUnequalSpacingsStaysFinite) {
  for (const StableCase& c : {StableCase{"2", "0.661", "0.905"}, StableCase{"8", "0.406", "0.557"}}) {
    const std::vector<std::string> grid = {"--nx", "22", "--ny", "19", "--nz", "25", "--hx", "1", "--hy", "0.7",
                                           "--hz", "0.25", "--order", c.order, "--init", "randn", "--steps", "200"};
    std::vector<std::string> stable = grid;
    stable.insert(stable.end(), {"--cfl", c.near_limit});
    const RunSummary r = run_with_summary(stable);
    EXPECT_EQ(r.exit_code, 0) << "order " << c.order << " at cfl " << c.near_limit << ":\n" << r.output;
    EXPECT_EQ(json_number(r.json, "final_step"), 200) << r.json;
    // The same grid and steps do show an unstable cfl, so the run above is a real check.
    std::vector<std::string> unstable = grid;
    unstable.insert(unstable.end(), {"--cfl", c.above_limit, "--allow-unstable"});
    const RunSummary u = run_with_summary(unstable);
    EXPECT_EQ(u.exit_code, 3) << "order " << c.order << " at cfl " << c.above_limit << " did not blow up:\n" << u.output;
  }
}

// Spatial convergence (check/convergence.cpp's study) on spacings in the ratio 1 : 1.25 : 0.8
// and sizes that differ by axis, with one dt written here: a weight that takes another axis's
// spacing breaks the order.
TEST(SpacingOracles, SpatialOrderOnUnequalSpacingsWithDtGiven) {
  FourierMode mode;
  mode.wavenumber = {1.0, 0.8, 0.6};
  mode.phase = {0.3, -0.7, 1.1};
  constexpr int kSteps = 2;
  for (int order : {2, 4, 6, 8}) {
    double previous_error = 0;
    for (double h : {0.8, 0.4, 0.2}) {
      Problem p;
      const int margin = exact_region_margin(order, kSteps);
      p.grid = {2 * margin + 5, 2 * margin + 6, 2 * margin + 7, h, 1.25 * h, 0.8 * h};
      p.order = order;
      p.alpha = 0.9;
      // cfl 0.9 * 3e-4 * (25 + 16 + 39.0625) = 0.022 on the finest grid: the time error is far
      // below the stencil's at every level.
      p.dt = 3e-4;
      const Field<double> u0 = mode_field(p.grid, mode);
      Field<double> u = u0;
      auto backend = default_registry().find("cpu")->make<double>(p, BackendOptions{});
      advance(*backend, u, kSteps);
      const double error = mode_decay_error(u, u0, order, kSteps, continuous_decay(p.alpha, mode, kSteps * p.dt));
      ASSERT_GT(error, 0) << "order " << order << " h " << h;
      if (previous_error > 0)
        EXPECT_NEAR(std::log2(previous_error / error), order, 0.25) << "order " << order << ", h " << h << ": "
                                                                     << previous_error << " -> " << error;
      previous_error = error;
    }
  }
}

}  // namespace
}  // namespace heat
