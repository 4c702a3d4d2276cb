// Restart: 10 steps in one run equal 4 steps, a restart from that snapshot, and 6 more, bitwise
// (cpu backend), and the restarted run continues the step numbering and the physical time.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "io/input_file.hpp"
#include "io/series_files.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

std::vector<std::string> run_args(const std::string& precision, const std::string& output, int steps) {
  return {"--nx", "23", "--ny", "19", "--nz", "17", "--order", "8", "--init", "randn", "--seed", "11",
          "--precision", precision, "--backend", "cpu", "--steps", std::to_string(steps), "--quiet",
          "--output", output};
}

class Restart : public ::testing::TestWithParam<std::string> {};

TEST_P(Restart, FourStepsThenSixEqualTenBitwise) {
  const std::string precision = GetParam();
  const std::string dir = test::temp_directory("restart-" + precision);

  const auto whole = run_heatrk4(run_args(precision, dir + "/whole", 10));
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  const auto first = run_heatrk4(run_args(precision, dir + "/split", 4));
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const auto rest = run_heatrk4({"--init", "file", "--init-file", dir + "/split/heat_000004.hdf", "--precision",
                                 precision, "--backend", "cpu", "--steps", "6", "--output-every", "3", "--quiet",
                                 "--output", dir + "/split"});
  ASSERT_EQ(rest.exit_code, 0) << rest.output;

  // Numbering continues: the restart writes its initial state as step 4, then 7 and 10.
  for (const char* name : {"heat_000004.hdf", "heat_000007.hdf", "heat_000010.hdf"})
    EXPECT_TRUE(fs::exists(dir + "/split/" + name)) << name;
  const auto series = read_hdf_series_entries(dir + "/split/heat.hdf.series");
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(series.back().step, 10);

  const LoadedField a = read_initial_field(dir + "/whole/heat_000010.hdf");
  const LoadedField b = read_initial_field(dir + "/split/heat_000010.hdf");
  ASSERT_EQ(a.values.size(), b.values.size());
  EXPECT_EQ(a.stored_as_float, precision == "float");
  EXPECT_EQ(std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)), 0)
      << "the restarted run differs from the uninterrupted one";
  EXPECT_EQ(b.step, 10);
  EXPECT_NEAR(b.time, a.time, 1e-12 * a.time);  // 4*dt + 6*dt against 10*dt: equal up to rounding

  // And heatrk4 compare says so, exactly.
  const auto same = run_heatrk4({"compare", dir + "/whole/heat_000010.hdf", dir + "/split/heat_000010.hdf", "--rtol",
                                 "0", "--atol", "0"});
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

INSTANTIATE_TEST_SUITE_P(Precisions, Restart, ::testing::Values("float", "double"));

}  // namespace
}  // namespace heat
