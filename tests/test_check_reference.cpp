// What --check compares a run with, and that the summary says so: the fast cpu backend in double
// for every backend but cpu itself, which the reference checks (a backend is never checked
// against itself).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "test_support.hpp"
#include "check/reference.hpp"

namespace heat {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The text summary's check line and the JSON summary's check.against, for a checked run.
void expect_check_against(const std::string& backend, const std::string& against) {
  const std::string dir = test::temp_directory("check-against");
  const auto result = test::run_heatrk4({"--n", "18", "--order", "8", "--steps", "3", "--init", "randn", "--backend",
                                         backend, "--check", "--format", "none", "--json", dir + "/run.json"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("PASS against " + against + " in double"), std::string::npos) << result.output;
  EXPECT_NE(read_file(dir + "/run.json").find("\"against\": \"" + against + "\""), std::string::npos)
      << read_file(dir + "/run.json");
}

TEST(CheckReference, CpuRunIsCheckedByTheReference) { expect_check_against("cpu", kCpuReferenceName); }

TEST(CheckReference, OtherRunsAreCheckedByTheFastCpuInDouble) { expect_check_against(kCpuReferenceName, "cpu"); }

TEST(CheckReference, NamesWhatItRan) {
  Problem p;
  p.grid = Grid{14, 13, 12, 0.1, 0.1, 0.1};
  p.order = 4;
  p.dt = dt_from_cfl(p.grid, p.alpha, 0.2);
  const Field<double> start = randn_field(p.grid, 3);
  EXPECT_EQ(check_reference("tiled", p, start, 1).backend, "cpu");
  EXPECT_EQ(check_reference("cpu", p, start, 1).backend, kCpuReferenceName);
}

}  // namespace
}  // namespace heat
