// Rules the README, --help and docs/design.md state, each held by a test that fails where one line
// of the rule changes: a restart applies every setting given beside --restart (section 4,
// "Restart"); a restart from a bare file name continues the series in the directory it is in;
// verify refuses a cfl unstable for any one order and checks every order and precision of every
// backend, and every boundary case (section 3); ZFP is refused beside .vti output (section 3,
// --compress).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "check/boundary_cases.hpp"
#include "io/compression.hpp"
#include "io/hdf5_snapshot.hpp"
#include "io/vtk_snapshot.hpp"
#include "io/run_settings.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

std::vector<std::string> first_run(const std::string& output) {
  return {"--nx", "13", "--ny", "12", "--nz", "11", "--order", "4", "--precision", "double", "--alpha", "2",
          "--cfl", "0.1", "--init", "randn", "--backend", "cpu", "--steps", "2", "--output-every", "2",
          "--quiet", "--output", output};
}

struct GivenBesideRestart {
  std::vector<std::string> option;
  std::function<void(const StoredRunSettings&)> holds;
};

class RestartAppliesWhatIsGiven : public ::testing::TestWithParam<GivenBesideRestart> {};

TEST_P(RestartAppliesWhatIsGiven, TheNextSnapshotRecordsTheGivenValue) {
  if (!built_with_hdf5()) GTEST_SKIP() << "no HDF5 in this build";
  const std::string dir = test::temp_directory("restart-given");
  ASSERT_EQ(run_heatrk4(first_run(dir)).exit_code, 0);
  std::vector<std::string> args = {"--restart", dir + "/heat_000002.hdf", "--steps", "2", "--backend", "cpu", "--quiet"};
  args.insert(args.end(), GetParam().option.begin(), GetParam().option.end());
  const auto r = run_heatrk4(args);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  GetParam().holds(read_stored_run_settings(dir + "/heat_000004.hdf"));
}

INSTANTIATE_TEST_SUITE_P(
    EverySetting, RestartAppliesWhatIsGiven,
    ::testing::Values(
        GivenBesideRestart{{"--dt", "1.25e-05"}, [](const StoredRunSettings& s) { EXPECT_EQ(s.dt, 1.25e-05); }},
        GivenBesideRestart{{"--cfl", "0.07"}, [](const StoredRunSettings& s) { EXPECT_EQ(s.cfl, 0.07); }},
        GivenBesideRestart{{"--alpha", "0.5"}, [](const StoredRunSettings& s) { EXPECT_EQ(s.alpha, 0.5); }},
        GivenBesideRestart{{"--order", "6"}, [](const StoredRunSettings& s) { EXPECT_EQ(s.order, 6); }},
        GivenBesideRestart{{"--precision", "float"},
                           [](const StoredRunSettings& s) { EXPECT_EQ(s.precision, "float"); }},
        GivenBesideRestart{{"--output-every", "1"}, [](const StoredRunSettings& s) { EXPECT_EQ(s.output_every, 1); }},
        GivenBesideRestart{{"--compress", "4"}, [](const StoredRunSettings& s) { EXPECT_EQ(s.compress, "gzip:4"); }}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

TEST(RestartFromABareName, ContinuesTheSeriesInTheDirectoryItIsIn) {
  if (!built_with_hdf5()) GTEST_SKIP() << "no HDF5 in this build";
  const std::string dir = test::temp_directory("restart-bare-name");
  ASSERT_EQ(run_heatrk4(first_run(dir)).exit_code, 0);
  const auto r = run_heatrk4({"--restart", "heat_000002.hdf", "--steps", "2", "--backend", "cpu", "--quiet"},
                             "cd '" + dir + "' &&");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir + "/heat_000004.hdf")) << "the series was not continued where the file is";
  EXPECT_TRUE(fs::exists(dir + "/heat_000002.hdf"));
  EXPECT_FALSE(fs::exists(dir + "/heatrk4-out")) << "the run wrote to the default directory instead";
}

TEST(VerifyRules, ACflUnstableForTheHighestOrderAloneIsRefused) {
  // 0.45 is stable for orders 2, 4 and 6 (up to 0.4608) and not for order 8 (up to 0.4284).
  const auto r = run_heatrk4({"verify", "--n", "12", "--steps", "1", "--cfl", "0.45"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "--cfl 0.45 is unstable for order 8");
}

// Every order and precision of each backend that runs here, and each boundary case
// (check/boundary_cases.hpp) in each precision, with a source too, its row naming its worst order.
TEST(VerifyRules, EveryOrderAndPrecisionOfEveryBackendThatRunsIsChecked) {
  const auto r = run_heatrk4({"verify", "--n", "12", "--steps", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const std::string backend : {"cpu", "cpu_reference", "naive", "reuse", "tiled"}) {
    // A backend this build lacks has no row; one that cannot run here, a row that says skip.
    const bool built = std::regex_search(r.output, std::regex("\n" + backend + " "));
    const bool skipped = std::regex_search(r.output, std::regex("\n" + backend + " +all +both +skip"));
    if (!built || skipped) continue;
    for (const std::string precision : {"float", "double"}) {
      for (const std::string order : {"2", "4", "6", "8"})
        EXPECT_TRUE(std::regex_search(r.output, std::regex("\n" + backend + " +" + order + " " + precision + " +pass ")))
            << backend << " order " << order << " " << precision << " is missing from:\n" << r.output;
      for (const BoundaryCase& faces : boundary_cases())
        EXPECT_TRUE(std::regex_search(
            r.output, std::regex("\n" + backend + " +" + faces.name + " +" + precision + " +pass +.* [2468] \\(")))
            << backend << " " << faces.name << " " << precision << " is missing from:\n" << r.output;
      // Every backend adds a heat source: a row for each source case (check/boundary_cases.hpp).
      for (const BoundaryCase& faces : source_cases())
        EXPECT_TRUE(std::regex_search(r.output, std::regex("\n" + backend + " +" + faces.name + "\\+source +" +
                                                           precision + " +pass +.* [2468] \\(")))
            << backend << " " << faces.name << "+source " << precision << " is missing from:\n" << r.output;
    }
  }
  EXPECT_TRUE(std::regex_search(r.output, std::regex("\ncpu +8 double +pass "))) << "the cpu backend must always run";
}

TEST(CompressRules, ZfpIsRefusedBesideVti) {
  if (!built_with_vtk() || !built_with_zfp()) GTEST_SKIP() << "this build writes no .vti or no ZFP: either is refused alone";
  for (const std::string format : {"vtk", "hdf5,vtk"})
    for (const std::string codec : {"zfp:1e-6", "zfp:reversible"}) {
      const auto r = run_heatrk4({"--n", "12", "--steps", "1", "--backend", "cpu", "--format", format, "--compress", codec,
                                  "--output", test::temp_directory("zfp-vti")});
      EXPECT_EQ(r.exit_code, 2) << format << " " << codec << ":\n" << r.output;
      expect_mentions(r, "--compress " + codec + ": ZFP is for .hdf snapshots");
    }
}

// A restart from a lossy ZFP snapshot says so in the summary and the JSON: it goes on from values
// within the bound, not bitwise (docs/design.md section 4, "Restart"); a lossless one says nothing.
TEST(RestartFromZfp, ALossyStartIsSaidAndALosslessOneIsNot) {
  if (!built_with_hdf5() || !built_with_zfp()) GTEST_SKIP() << "no HDF5 or no libzfp in this build";
  for (const std::string codec : {"zfp:1e-6", "zfp:reversible", "6"}) {
    const std::string dir = test::temp_directory("restart-zfp");
    std::vector<std::string> first = first_run(dir);
    first.insert(first.end(), {"--compress", codec});
    ASSERT_EQ(run_heatrk4(first).exit_code, 0) << codec;
    const std::string json = dir + "/run.json";
    const auto r = run_heatrk4({"--restart", dir + "/heat_000002.hdf", "--steps", "1", "--backend", "cpu", "--json", json});
    ASSERT_EQ(r.exit_code, 0) << codec << ":\n" << r.output;
    const bool lossy = codec == "zfp:1e-6";
    EXPECT_EQ(r.output.find("  start     from " + dir + "/heat_000002.hdf's values, stored by ZFP within 1e-06") !=
                  std::string::npos,
              lossy)
        << codec << ":\n" << r.output;
    EXPECT_EQ(test::read_text(json).find("\"lossy_start\": ") != std::string::npos, lossy) << test::read_text(json);
  }
}

// Only heatrk4's own names are a run's files (docs/design.md section 4): a file of the user's
// named like a snapshot but of another kind is neither another run's output nor replaced with one.
TEST(OutputSafety, AUsersFileNamedLikeASnapshotIsLeftAlone) {
  if (!built_with_hdf5()) GTEST_SKIP() << "no HDF5 in this build";
  const std::string dir = test::temp_directory("users-png");
  for (const std::string name : {"heat_000010.png", "heat_000002.txt", "heat_000002.hdf.bak"})
    std::ofstream(dir + "/" + name) << "the user's " << name;
  const std::vector<std::string> run = {"--n", "12", "--steps", "2", "--backend", "cpu", "--quiet", "--output", dir};
  const auto first = run_heatrk4(run);
  ASSERT_EQ(first.exit_code, 0) << first.output;  // not refused as another run's files
  auto replacing = run;
  replacing.push_back("--overwrite");
  const auto second = run_heatrk4(replacing);
  ASSERT_EQ(second.exit_code, 0) << second.output;
  for (const std::string name : {"heat_000010.png", "heat_000002.txt", "heat_000002.hdf.bak"})
    EXPECT_EQ(test::read_text(dir + "/" + name), "the user's " + name);
  EXPECT_TRUE(fs::exists(dir + "/heat_000002.hdf"));
}

}  // namespace
}  // namespace heat
