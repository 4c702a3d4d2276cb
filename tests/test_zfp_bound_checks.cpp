// A ZFP bound the run's precision cannot hold at the initial field's largest values is refused
// before any work (exit 2, nothing written), for every kind of initial field, at exactly the
// bound the snapshot writer would refuse: twice the precision's resolution at the largest |value|.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "core/initial_conditions.hpp"
#include "io/compression.hpp"
#include "io/input_file.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;

// The smallest bound float holds for values as large as `largest`, and the bound just below it.
struct Bounds {
  std::string holds, too_fine;
};
Bounds bounds_at(double largest) {
  const float at = float(largest);
  const double holds = 2 * double(std::nextafter(at, std::numeric_limits<float>::infinity()) - at);
  char text[2][40];
  std::snprintf(text[0], sizeof text[0], "zfp:%.17g", holds);
  std::snprintf(text[1], sizeof text[1], "zfp:%.17g", std::nextafter(holds, 0.0));
  return {text[0], text[1]};
}

template <typename T>
double largest_magnitude(const Field<T>& u) {
  double largest = 0;
  for (std::size_t n = 0; n < u.size(); ++n) largest = std::max(largest, std::abs(double(float(u.data()[n]))));
  return largest;
}

// The run with `init` and the bound `codec`: exit 2 naming the bound before any work where it is
// too fine, and nothing written; the run goes on where it holds.
void expect_refused_below_and_held_at(const std::vector<std::string>& init, double largest, const std::string& label) {
  const Bounds b = bounds_at(largest);
  const std::string dir = test::temp_directory("zfp-bound");
  std::vector<std::string> args = {"--backend", "cpu", "--order", "2", "--steps", "2", "--precision", "float", "--quiet"};
  args.insert(args.end(), init.begin(), init.end());
  auto too_fine = args;
  too_fine.insert(too_fine.end(), {"--compress", b.too_fine, "--output", dir + "/too-fine"});
  const auto refused = test::run_heatrk4(too_fine);
  EXPECT_EQ(refused.exit_code, 2) << label << ", " << b.too_fine << ":\n" << refused.output;
  EXPECT_NE(refused.output.find("cannot be held"), std::string::npos) << label << ":\n" << refused.output;
  EXPECT_FALSE(fs::exists(dir + "/too-fine")) << label << ": a refused run wrote output";
  auto holds = args;
  holds.insert(holds.end(), {"--compress", b.holds, "--output", dir + "/holds"});
  const auto held = test::run_heatrk4(holds);
  EXPECT_EQ(held.exit_code, 0) << label << ", " << b.holds << ":\n" << held.output;
}

TEST(ZfpBoundChecks, AGeneratedFieldsBoundIsCheckedBeforeAnyWorkAtItsLargestValue) {
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  const Grid g{21, 18, 16, 1.0 / 20, 1.0 / 17, 1.0 / 15};
  const std::vector<std::string> grid = {"--nx", "21", "--ny", "18", "--nz", "16"};
  const auto with = [&](std::vector<std::string> init) {
    init.insert(init.end(), grid.begin(), grid.end());
    return init;
  };
  InitSpec gaussian, sine, randn;
  sine.kind = InitKind::Sine;
  sine.modes = {2, 1, 3};
  randn.kind = InitKind::Randn;
  randn.seed = 7;
  expect_refused_below_and_held_at(with({"--init", "gaussian"}), largest_magnitude(make_initial_field<float>(g, gaussian)),
                                   "gaussian");
  expect_refused_below_and_held_at(with({"--init", "sine", "--modes", "2", "1", "3"}),
                                   largest_magnitude(make_initial_field<float>(g, sine)), "sine");
  expect_refused_below_and_held_at(with({"--init", "randn", "--seed", "7"}),
                                   largest_magnitude(make_initial_field<float>(g, randn)), "randn");
}

TEST(ZfpBoundChecks, AFilesBoundIsCheckedBeforeAnyWorkAtItsLargestValue) {
  if (!built_with_zfp()) GTEST_SKIP() << "this build has no libzfp";
  const std::string dir = test::temp_directory("zfp-bound-file");
  ASSERT_EQ(test::run_heatrk4({"--backend", "cpu", "--order", "2", "--n", "14", "--init", "randn", "--steps", "2",
                               "--output", dir + "/start", "--quiet"})
                .exit_code,
            0);
  const std::string file = dir + "/start/heat_000002.hdf";
  expect_refused_below_and_held_at({"--init-file", file}, largest_magnitude(read_point_array(file, "u").values),
                                   "--init-file");
}

}  // namespace
}  // namespace heat
