// The run's text summary names each phase for what it is on the backend that ran.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace heat {
namespace {

// On the cpu backend the field never leaves host memory: the loop's first phase makes the
// initial field in the backend's arrays and its last copies the result out.
TEST(RunSummary, ACpuRunNamesNoUploadOrDownload) {
  const std::string dir = test::temp_directory("summary");
  const auto r = test::run_heatrk4(
      {"--n", "12", "--steps", "2", "--init", "randn", "--backend", "cpu", "--format", "none", "--output", dir});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_NE(r.output.find("  time "), std::string::npos) << r.output;
  const auto time_line = r.output.substr(r.output.find("  time "));
  EXPECT_NE(time_line.find("initial field "), std::string::npos) << r.output;
  EXPECT_NE(time_line.find("final copy "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("upload"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("download"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace heat
