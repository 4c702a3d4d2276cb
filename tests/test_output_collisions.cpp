// An output path that is also an input of the run (--restart, --init-file, --config) or another
// of its outputs (a snapshot, a slab file, a series file, the output directory itself) is refused
// before any work (exit 2), naming both roles, however the path is spelled: "./a" for "a",
// "d/../d/a", through a symlink. Nothing the run reads or wrote before changes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "io/series_files.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

// Every regular file under `directory` (symlinks left out) with its bytes.
std::map<std::string, std::string> files_of(const std::string& directory) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(directory)) {
    if (!entry.is_symlink() && entry.is_regular_file()) files[entry.path().string()] = test::read_text(entry.path());
  }
  return files;
}

class OutputCollisions : public ::testing::Test {
 protected:
  void SetUp() override {
    root = test::temp_directory("collisions");
    out = root + "/out";
    const auto first = run_heatrk4({"--n", "12", "--steps", "4", "--output-every", "2", "--init", "randn",
                                    "--backend", "cpu", "--quiet", "--output", out});
    ASSERT_EQ(first.exit_code, 0) << first.output;
    std::ofstream(root + "/run.toml") << "steps = 2\n";
    before = files_of(root);
  }

  // A fresh run (from a randn field, or args' own start) with --json `json`: refused, naming
  // both `json` and `other_role`, and every file under root as it was.
  void expect_refused(const std::string& json, const std::string& other_role, std::vector<std::string> args = {}) {
    if (args.empty()) args = {"--n", "12", "--init", "randn", "--output", out, "--overwrite"};
    args.insert(args.end(), {"--steps", "2", "--backend", "cpu", "--quiet", "--json", json});
    const auto r = run_heatrk4(args);
    EXPECT_EQ(r.exit_code, 2) << "--json " << json << ":\n" << r.output;
    EXPECT_NE(r.output.find("--json '" + json + "'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(other_role), std::string::npos) << "expected '" << other_role << "' in:\n" << r.output;
    EXPECT_TRUE(files_of(root) == before) << "--json " << json << " changed files under " << root;
  }

  std::string root, out;
  std::map<std::string, std::string> before;
};

TEST_F(OutputCollisions, JsonOnTheRunsOwnSnapshotsAndSeriesFilesIsRefused) {
  expect_refused(out + "/heat.hdf.series", "heat.hdf.series in the --output directory");
  expect_refused(out + "/heat_000002.hdf", "heat_000002.hdf in the --output directory");
  expect_refused(out + "/heat.pvd", "heat.pvd in the --output directory");
  expect_refused(out + "/" + slab_file_name(2, 0, 2), slab_file_name(2, 0, 2) + " in the --output directory");
  expect_refused(out + "/.heatrk4.lock", ".heatrk4.lock in the --output directory");
  expect_refused(out, "is the --output directory");
  expect_refused(out + "/", "is the --output directory");
}

TEST_F(OutputCollisions, JsonOnAnInputOfTheRunIsRefused) {
  const std::string snapshot = out + "/heat_000002.hdf";
  expect_refused(snapshot, "--restart '" + snapshot + "'", {"--restart", snapshot, "--output", root + "/next"});
  expect_refused(snapshot, "--init-file '" + snapshot + "'", {"--init-file", snapshot, "--output", root + "/next"});
  expect_refused(root + "/run.toml", "--config '" + root + "/run.toml'",
                 {"--config", root + "/run.toml", "--n", "12", "--output", root + "/next"});
}

TEST_F(OutputCollisions, OtherSpellingsOfTheSamePathAreRefused) {
  expect_refused(root + "/out/../out/./heat.hdf.series", "heat.hdf.series in the --output directory");
  fs::create_symlink(out + "/heat.hdf.series", root + "/link.json");
  expect_refused(root + "/link.json", "heat.hdf.series in the --output directory");
  fs::remove(root + "/link.json");
  // Relative paths against absolute ones: the run starts in root.
  const auto r = run_heatrk4({"--restart", "./out/heat_000002.hdf", "--output", root + "/next", "--steps", "2",
                              "--backend", "cpu", "--quiet", "--json", out + "/heat_000002.hdf"},
                             "cd " + root + " &&");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--restart './out/heat_000002.hdf'"), std::string::npos) << r.output;
  EXPECT_TRUE(files_of(root) == before) << "files under " << root << " changed";
}

TEST_F(OutputCollisions, AJsonBesideTheSnapshotsUnderItsOwnNameIsWritten) {
  const auto r = run_heatrk4({"--n", "12", "--init", "randn", "--output", out, "--overwrite", "--steps", "2",
                              "--backend", "cpu", "--quiet", "--json", out + "/summary.json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(out + "/summary.json"));
  // --format none writes no snapshots: the directory's names are then free.
  const auto none = run_heatrk4({"--n", "12", "--init", "randn", "--output", root + "/elsewhere", "--format", "none",
                                 "--steps", "2", "--backend", "cpu", "--quiet", "--json", root + "/elsewhere"});
  EXPECT_EQ(none.exit_code, 0) << none.output;
}

TEST(ConvergenceOutputCollisions, CsvAndPlotOnOneFileAreRefused) {
  const std::string dir = test::temp_directory("csv-plot");
  const std::string same = dir + "/../" + fs::path(dir).filename().string() + "/./a";
  const auto r = run_heatrk4({"convergence", "--csv", dir + "/a", "--plot", same});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--csv '" + dir + "/a'"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir + "/a"));
}

}  // namespace
}  // namespace heat
