// --source through the heatrk4 binary (docs/design.md §1 "Sources", §3): every bad value is exit 2
// naming it before any work, the summary states the total power, a TOML array gives the same
// sources, and a restart carries them on (a file source with the checksum of its array).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "core/initial_conditions.hpp"
#include "io/snapshots.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

// A small double run on a 14^3 unit cube (h = 1/13, the body 4h to 9h at order 8) that writes nothing.
std::vector<std::string> source_run(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--quiet", "--precision", "double", "--steps", "2", "--format", "none", "--n", "14"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

struct Refusal {
  std::vector<std::string> args;
  std::string message;
};

class SourceRefused : public ::testing::TestWithParam<Refusal> {};

TEST_P(SourceRefused, ExitsTwoNamingTheValue) {
  const auto r = run_heatrk4(source_run(GetParam().args));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Options, SourceRefused,
    ::testing::Values(
        Refusal{{"--source", "uniform:nan"}, "--source uniform:nan: nan is not a finite number (the form is uniform:Q)"},
        Refusal{{"--source", "uniform:inf"}, "--source uniform:inf: inf is not a finite number"},
        Refusal{{"--source", "heater:3"}, "--source heater:3 is not a heat source: give uniform:Q, gaussian:X,Y,Z"},
        Refusal{{"--source", "gaussian:0.5,0.5,0.5,0,1"}, "SIGMA 0 must be a positive width"},
        Refusal{{"--source", "gaussian:0.5,0.5,0.5,-0.1,1"}, "SIGMA -0.1 must be a positive width"},
        Refusal{{"--source", "gaussian:0.5,0.5"}, "--source gaussian:0.5,0.5 has 2 numbers: the form is gaussian:X,Y,Z,SIGMA,POWER"},
        Refusal{{"--source", "gaussian:0.5,0.2,0.5,0.1,1"}, "the centre's Y 0.2 lies outside the body, 0.3076923076923077 to 0.6923076923076923"},
        Refusal{{"--source", "uniform:1", "--source", "gaussian:0.5,0.5,0.9,0.1,1"}, "the centre's Z 0.9 lies outside"},
        Refusal{{"--source", "file:missing.hdf:q"}, "--source file:missing.hdf:q: missing.hdf: no such file"},
        Refusal{{"--source", "file:q.hdf"}, "--source file:q.hdf: the form is file:F.hdf:ARRAY"}));

TEST(SourceOptions, TheSummaryStatesTheTotalPower) {
  const std::string dir = test::temp_directory("source_power");
  // A uniform source in an insulated 14^3 unit cube at order 2: the body is the points 1 to 12, a
  // cube of side 11/13, so the trapezoid rule's power is Q (11/13)^3 exactly.
  const auto r = run_heatrk4(source_run({"--order", "2", "--bc", "insulated", "--source", "uniform:2.5", "--json",
                                         dir + "/s.json"}));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string json = test::read_text(dir + "/s.json");
  expect_mentions({0, json}, "\"sources\": [\"uniform:2.5\"]");
  const std::size_t at = json.find("\"source_power\": ");
  ASSERT_NE(at, std::string::npos) << json;
  EXPECT_NEAR(std::stod(json.substr(at + 16)), 2.5 * std::pow(11.0 / 13.0, 3), 1e-13);
  const auto text = run_heatrk4({"--n", "14", "--steps", "1", "--format", "none", "--source", "uniform:2.5"});
  expect_mentions(text, "  sources   total power ");
  expect_mentions(text, "W (sum(w q) dV): uniform:2.5");
}

TEST(SourceOptions, AConfigFileGivesAnArrayOfSources) {
  const std::string dir = test::temp_directory("source_toml");
  {
    std::ofstream toml(dir + "/run.toml");
    toml << "source = [\"uniform:1\", \"gaussian:0.5,0.5,0.5,0.1,2\"]\n";
  }
  const auto r = run_heatrk4(source_run({"--config", dir + "/run.toml", "--json", dir + "/s.json"}));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  expect_mentions({0, test::read_text(dir + "/s.json")}, "\"sources\": [\"uniform:1\", \"gaussian:0.5,0.5,0.5,0.1,2\"]");
}

#ifdef HEAT_HAVE_HDF5
// A heatrk4 snapshot of u on the 14^3 unit cube, as a source file with array "u".
std::string source_file(const std::string& dir, const Field<double>& u) {
  OutputSpec spec;
  spec.directory = dir;
  RunDescription run;
  run.problem.grid = {u.nx(), u.ny(), u.nz(), 1.0 / 13, 1.0 / 13, 1.0 / 13};
  run.cfl = 0.05;
  run.problem.dt = dt_from_cfl(run.problem.grid, run.problem.alpha, run.cfl);
  run.precision = "double";
  run.formats = "hdf5";
  SnapshotWriter(spec, run).write(u, 0, 0.0);
  return dir + "/heat_000000.hdf";
}

TEST(SourceOptions, AFileSourceMustBeFiniteOnTheRunsGridWithItsArray) {
  const std::string dir = test::temp_directory("source_file_refusals");
  Field<double> q = randn_field<double>(Grid{14, 14, 14}, 3);
  const std::string good = source_file(dir + "/good", q);
  q(5, 6, 7) = NAN;
  const std::string bad = source_file(dir + "/bad", q);
  const auto nan = run_heatrk4(source_run({"--source", "file:" + bad + ":u"}));
  EXPECT_EQ(nan.exit_code, 2) << nan.output;
  expect_mentions(nan, "'s array u holds nan at (5,6,7): a source must be finite");
  const auto array = run_heatrk4(source_run({"--source", "file:" + good + ":q"}));
  EXPECT_EQ(array.exit_code, 2) << array.output;
  expect_mentions(array, "has no point array 'q' (it has: u)");
  const auto grid = run_heatrk4(source_run({"--nx", "15", "--source", "file:" + good + ":u"}));
  EXPECT_EQ(grid.exit_code, 2) << grid.output;
  expect_mentions(grid, "is on another grid (14 x 14 x 14 points");
}

TEST(SourceOptions, ARestartCarriesTheSourcesOnAndRefusesAChangedFile) {
  const std::string dir = test::temp_directory("source_restart");
  const std::string file = source_file(dir + "/q", randn_field<double>(Grid{14, 14, 14}, 3));
  const std::string source = "file:" + file + ":u";
  ASSERT_EQ(run_heatrk4({"--n", "14", "--steps", "4", "--quiet", "--precision", "double", "--output", dir + "/whole",
                         "--source", source, "--source", "uniform:2"})
                .exit_code,
            0);
  ASSERT_EQ(run_heatrk4({"--n", "14", "--steps", "2", "--quiet", "--precision", "double", "--output", dir + "/first",
                         "--source", source, "--source", "uniform:2"})
                .exit_code,
            0);
  const auto resumed = run_heatrk4({"--restart", dir + "/first/heat_000002.hdf", "--steps", "2", "--json",
                                    dir + "/resumed.json"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  expect_mentions({0, test::read_text(dir + "/resumed.json")}, "\"sources\": [\"" + source + "\", \"uniform:2\"]");
  // Two steps and two more are the four steps of one run, bit for bit.
  const auto same = run_heatrk4({"compare", dir + "/whole/heat_000004.hdf", dir + "/first/heat_000004.hdf", "--rtol",
                                 "0", "--atol", "0"});
  EXPECT_EQ(same.exit_code, 0) << same.output;
  // A source file changed since: refused, naming both checksums.
  source_file(dir + "/q", randn_field<double>(Grid{14, 14, 14}, 4));
  const auto changed = run_heatrk4({"--restart", dir + "/first/heat_000002.hdf", "--steps", "2", "--quiet"});
  EXPECT_EQ(changed.exit_code, 2) << changed.output;
  expect_mentions(changed, "'s array u has changed since that run (checksum fnv1a64:");
  // Given anew, it runs with the file as it is now.
  EXPECT_EQ(run_heatrk4({"--restart", dir + "/first/heat_000002.hdf", "--steps", "2", "--quiet", "--source", source})
                .exit_code,
            0);
}
#endif

}  // namespace
}  // namespace heat
