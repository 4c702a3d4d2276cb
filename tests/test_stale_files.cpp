// A run that replaces another run's snapshots (--overwrite, or the default directory) sets them
// aside into .heatrk4-trash at its first snapshot and removes them beside the run: after the run
// none is left and no trash stays; a run that fails before its first snapshot keeps the run it
// would have replaced; a run that fails midway keeps what it wrote and none of the replaced run's
// files; a trash left by a killed run is removed by the next run, never recursively; a trash that
// is a link is refused before any work; the lock still keeps a second run out; a restart into its
// own directory sets nothing aside and leaves its start snapshot as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "io/input_file.hpp"
#include "io/output_lock.hpp"
#include "io/series_files.hpp"
#include "io/snapshots.hpp"
#include "io/stale_files.hpp"
#include "io/compression.hpp"
#include "core/initial_conditions.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

std::vector<std::string> small_run(int n, int steps, const std::string& output, std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"--n", std::to_string(n), "--steps", std::to_string(steps), "--output-every", "2",
                                   "--init", "randn", "--backend", "cpu", "--quiet", "--output", output};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::set<std::string> names_in(const std::string& directory) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) names.insert(entry.path().filename().string());
  return names;
}

std::map<std::string, std::string> contents_of(const std::string& directory) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(directory))
    if (entry.is_regular_file()) files[entry.path().filename().string()] = test::read_text(entry.path().string());
  return files;
}

std::vector<int> series_steps(const std::string& directory) {
  std::vector<int> steps;
  for (const auto& e : read_hdf_series_entries(directory + "/heat.hdf.series")) steps.push_back(e.step);
  return steps;
}

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

TEST(StaleFiles, TheReplacedRunsFilesAreGoneAfterTheRunAndTheJsonCountsThem) {
  const std::string dir = test::temp_directory("replace") + "/out";
  ASSERT_EQ(run_heatrk4(small_run(16, 8, dir)).exit_code, 0);  // 5 snapshots and the series
  const auto r = run_heatrk4(small_run(12, 4, dir, {"--overwrite", "--json", dir + "/../run.json"}));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"heat.hdf.series", "heat_000000.hdf", "heat_000002.hdf",
                                                  "heat_000004.hdf"}));
  for (const auto& name : {"heat_000000.hdf", "heat_000004.hdf"})
    EXPECT_EQ(read_initial_field(dir + "/" + name).grid.nx, 12) << name;
  EXPECT_EQ(series_steps(dir), (std::vector<int>{0, 2, 4}));
  const std::string json = test::read_text(dir + "/../run.json");
  EXPECT_NE(json.find("\"replaced_files\": 6"), std::string::npos) << json;
  EXPECT_NE(json.find("\"stale_removal_s\": "), std::string::npos) << json;
  EXPECT_NE(json.find("\"stale_removal_wait_s\": "), std::string::npos) << json;
  // Its summary says so.
  const auto again = run_heatrk4({"--n", "12", "--steps", "2", "--backend", "cpu", "--output", dir, "--overwrite"});
  ASSERT_EQ(again.exit_code, 0) << again.output;
  expect_mentions(again, "replaced  4 file(s) of the previous run, removed beside the run in");
}

// monitors.csv is one of a run's files: a run that replaces the run that wrote it, and writes no
// monitors itself, leaves none of the earlier run's rows beside its snapshots.
TEST(StaleFiles, AReplacingRunWithoutMonitorsSetsTheReplacedRunsMonitorsAside) {
  const std::string cwd = test::temp_directory("replace-monitors");
  const std::string in_cwd = "cd " + cwd + " &&";
  const auto first = run_heatrk4({"--n", "12", "--steps", "4", "--backend", "cpu", "--probe", "0.5,0.5,0.5", "--quiet"},
                                 in_cwd);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const std::string dir = cwd + "/heatrk4-out";
  ASSERT_TRUE(fs::exists(dir + "/monitors.csv"));
  const auto r = run_heatrk4({"--n", "12", "--steps", "2", "--backend", "cpu", "--json", "run.json"}, in_cwd);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"heat.hdf.series", "heat_000002.hdf"}));
  // The first run's series, its snapshot and its monitors.
  EXPECT_NE(test::read_text(cwd + "/run.json").find("\"replaced_files\": 3"), std::string::npos);
}

// A directory holding only another run's monitors.csv (a run of --format none) holds that run: a
// new run into it with --output is refused unless --overwrite, and --json may not name the file.
TEST(StaleFiles, AnotherRunsMonitorsAloneAreAnotherRunsFiles) {
  const std::string dir = test::temp_directory("monitors-alone") + "/out";
  const auto first = run_heatrk4(small_run(12, 4, dir, {"--format", "none", "--probe", "0.5,0.5,0.5"}));
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const std::string monitors = test::read_text(dir + "/monitors.csv");
  const auto refused = run_heatrk4(small_run(12, 4, dir));
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  expect_mentions(refused, "holds another run's files (monitors.csv)");
  const auto json = run_heatrk4(small_run(12, 4, dir + "2", {"--probe", "0.5,0.5,0.5", "--json", dir + "2/monitors.csv"}));
  EXPECT_EQ(json.exit_code, 2) << json.output;
  expect_mentions(json, "monitors.csv in the --output directory");
  EXPECT_EQ(test::read_text(dir + "/monitors.csv"), monitors);
  const auto replaced = run_heatrk4(small_run(12, 4, dir, {"--overwrite"}));
  ASSERT_EQ(replaced.exit_code, 0) << replaced.output;
  EXPECT_EQ(names_in(dir).count("monitors.csv"), 0u);
}

// The README's first run, in `cwd`: the files of its heatrk4-out (the series and 3 snapshots).
std::map<std::string, std::string> first_run_in(const std::string& cwd) {
  const auto r = run_heatrk4({"--n", "16", "--steps", "4", "--output-every", "2", "--backend", "cpu", "--quiet"},
                             "cd " + cwd + " &&");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return contents_of(cwd + "/heatrk4-out");
}

// The README's command typed twice, the second run failing before its first snapshot (a blow-up
// with the final state only): the directory still holds the first run, as it was.
TEST(StaleFiles, ARunThatFailsBeforeItsFirstSnapshotKeepsTheRunItWouldReplace) {
  const std::string cwd = test::temp_directory("replace-fails-early");
  const std::string in_cwd = "cd " + cwd + " &&";
  const std::string dir = cwd + "/heatrk4-out";
  const auto before = first_run_in(cwd);
  ASSERT_EQ(before.size(), 4u);
  const auto blown = run_heatrk4({"--n", "12", "--order", "2", "--cfl", "2", "--allow-unstable", "--steps", "2000",
                                  "--init", "randn", "--backend", "cpu", "--quiet"},
                                 in_cwd);
  ASSERT_EQ(blown.exit_code, 3) << blown.output;
  expect_mentions(blown, "blew up");
  EXPECT_EQ(contents_of(dir), before) << "a run that wrote nothing changed the run it would replace";
  EXPECT_EQ(names_in(dir).count(kTrashName), 0u);
}

// The second run fails while it writes its first snapshot, under its temporary name (a file size
// limit, as a full disk): the replaced run's files leave their names only once that first file is
// complete, so the directory still holds the first run, as it was. A ZFP bound below float's
// resolution at the field's values is refused before any work, and leaves it as well.
TEST(StaleFiles, ARunThatFailsWhileWritingItsFirstSnapshotKeepsTheRunItWouldReplace) {
  const std::string cwd = test::temp_directory("replace-fails-writing");
  const std::string in_cwd = "cd " + cwd + " &&";
  const std::string dir = cwd + "/heatrk4-out";
  const auto before = first_run_in(cwd);
  ASSERT_EQ(before.size(), 4u);
  // 48^3 floats are 442 KB; dash counts ulimit -f in 512-byte blocks, bash in 1024.
  const auto limited = run_heatrk4({"--n", "48", "--steps", "2", "--backend", "cpu", "--quiet"},
                                   in_cwd + std::string(" trap '' XFSZ; ulimit -f 100;"));
  EXPECT_EQ(limited.exit_code, 3) << limited.output;
  expect_mentions(limited, "file size limit exceeded");
  EXPECT_EQ(contents_of(dir), before) << "a first snapshot cut short changed the run it would replace";
  if (built_with_zfp()) {
    const auto refused = run_heatrk4({"--n", "16", "--steps", "2", "--compress", "zfp:1e-40", "--backend", "cpu"}, in_cwd);
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
    expect_mentions(refused, "cannot be held");
    EXPECT_EQ(contents_of(dir), before) << "a refused bound changed the run it would replace";
  }
  EXPECT_EQ(names_in(dir).count(kTrashName), 0u);
}

// The second run fails after its first snapshot (the test hook fails it after its first chunk of
// steps): that snapshot is kept, the replaced run's files are all gone, and the series lists
// what this run wrote.
TEST(StaleFiles, ARunThatFailsMidwayKeepsWhatItWroteAndNoneOfTheReplacedRun) {
  const std::string dir = test::temp_directory("replace-fails-midway");
  ASSERT_EQ(run_heatrk4(small_run(16, 8, dir)).exit_code, 0);
  const auto failed = run_heatrk4(small_run(12, 8, dir, {"--overwrite"}), "HEATRK4_TEST_FAIL_RANK=0");
  ASSERT_EQ(failed.exit_code, 3) << failed.output;
  expect_mentions(failed, "HEATRK4_TEST_FAIL_RANK");
  const auto names = names_in(dir);
  EXPECT_EQ(names.count(kTrashName), 0u) << "the trash outlived the run";
  ASSERT_TRUE(names.count("heat_000000.hdf"));
  for (const auto& name : names) {
    if (name.rfind("heat_", 0) != 0) continue;
    EXPECT_EQ(read_initial_field(dir + "/" + name).grid.nx, 12) << name << " is the replaced run's";
  }
  EXPECT_FALSE(names.count("heat_000008.hdf"));
  const auto steps = series_steps(dir);
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps.front(), 0);
  for (int step : steps) EXPECT_TRUE(names.count(snapshot_name(step, "hdf"))) << step;
}

// The writer itself: nothing changes before the first snapshot; at it, the replaced files leave
// their names before any new file is written, and are gone once the removal is finished.
TEST(StaleFiles, TheWriterSetsTheReplacedFilesAsideAtItsFirstSnapshot) {
  const std::string dir = test::temp_directory("writer-replace");
  for (const std::string name : {"heat_000000.hdf", "heat_000004.hdf", "heat.hdf.series", "heat_000004.rank1of2.h5"})
    std::ofstream(dir + "/" + name) << "the replaced run's " << name;
  std::ofstream(dir + "/notes.txt") << "the user's own file";
  OutputSpec spec;
  spec.directory = dir;
  spec.replace_series = true;
  RunDescription run;
  run.problem.grid = {9, 9, 9, 1, 1, 1};
  SnapshotWriter writer(spec, run);
  EXPECT_EQ(names_in(dir).size(), 5u) << "the writer changed the directory before its first snapshot";
  const Field<float> u = field_cast<float>(randn_field(run.problem.grid, 3));
  writer.write(u, 0, 0.0);
  writer.write(u, 2, 1.0);
  const StaleRemoval removal = writer.finish_stale_removal();
  EXPECT_EQ(removal.files, 4u);
  EXPECT_GE(removal.seconds, 0.0);
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"heat.hdf.series", "heat_000000.hdf", "heat_000002.hdf", "notes.txt"}));
  EXPECT_EQ(read_initial_field(dir + "/heat_000000.hdf").grid.nx, 9);
  EXPECT_EQ(series_steps(dir), (std::vector<int>{0, 2}));
  EXPECT_EQ(test::read_text(dir + "/notes.txt"), "the user's own file");
}

// A run killed while removing leaves the trash; the next run that writes a snapshot there removes
// it, whatever it replaces (here nothing: a fresh run into a directory without snapshots), but
// never recursively: a directory in it that is not empty stays, and the run says so.
TEST(StaleFiles, ATrashLeftByAKilledRunIsRemovedByTheNextRunNeverRecursively) {
  const std::string dir = test::temp_directory("left-trash");
  const std::string trash = dir + "/" + kTrashName;
  fs::create_directories(trash + "/empty");
  std::ofstream(trash + "/heat_000002.hdf") << "half removed";
  ASSERT_EQ(run_heatrk4(small_run(12, 2, dir)).exit_code, 0);
  EXPECT_FALSE(fs::exists(trash));

  fs::create_directories(trash + "/kept");
  std::ofstream(trash + "/kept/precious.txt") << "not heatrk4's";
  std::ofstream(trash + "/heat_000004.hdf") << "half removed";
  const auto r = run_heatrk4(small_run(12, 2, dir, {"--overwrite"}));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  expect_mentions(r, "cannot remove " + trash + "/kept");
  EXPECT_EQ(test::read_text(trash + "/kept/precious.txt"), "not heatrk4's");
  EXPECT_FALSE(fs::exists(trash + "/heat_000004.hdf"));
  EXPECT_TRUE(fs::exists(dir + "/heat_000002.hdf"));
}

// A link under the trash's name would move the replaced files out of the output directory: the
// run is refused before any work (exit 2) naming it, and the link and what it names are left alone.
TEST(StaleFiles, ALinkUnderTheTrashNameIsRefusedBeforeAnyWork) {
  const std::string root = test::temp_directory("trash-link");
  const std::string dir = root + "/out", elsewhere = root + "/elsewhere";
  fs::create_directories(elsewhere);
  ASSERT_EQ(run_heatrk4(small_run(12, 2, dir)).exit_code, 0);
  fs::create_directory_symlink("../elsewhere", dir + "/" + kTrashName);
  const auto before = contents_of(dir);
  const auto r = run_heatrk4(small_run(12, 2, dir, {"--overwrite"}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, dir + "/" + kTrashName + " is a symbolic link");
  EXPECT_EQ(contents_of(dir), before);
  EXPECT_TRUE(fs::is_symlink(dir + "/" + kTrashName));
  EXPECT_TRUE(fs::is_empty(elsewhere));
}

// A run into a directory another live run holds is refused before it sets anything aside.
TEST(StaleFiles, ARunRefusedByTheLockSetsNothingAside) {
  const std::string dir = test::temp_directory("held-replace") + "/out";
  ASSERT_EQ(run_heatrk4(small_run(12, 4, dir)).exit_code, 0);
  fs::create_directory(dir + "/" + kTrashName);
  std::ofstream(dir + "/" + kTrashName + "/heat_000006.hdf") << "being removed by the holder";
  {
    const OutputDirectoryLock held(dir);
    ASSERT_TRUE(held.holds());
    const auto before = names_in(dir);
    const auto r = run_heatrk4(small_run(12, 2, dir, {"--overwrite"}));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    expect_mentions(r, "in use by another heatrk4 run");
    EXPECT_EQ(names_in(dir), before);
    EXPECT_TRUE(fs::exists(dir + "/" + kTrashName + "/heat_000006.hdf"));
  }
  const auto r = run_heatrk4(small_run(12, 2, dir, {"--overwrite"}));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(fs::exists(dir + "/" + kTrashName));
  EXPECT_FALSE(fs::exists(dir + "/heat_000004.hdf"));
  EXPECT_FALSE(fs::exists(dir + "/.heatrk4.lock"));
}

// A restart into the directory of its snapshot continues that run: nothing is set aside (a trash
// there is still removed), and the snapshot it started from is never written.
TEST(StaleFiles, ARestartInItsOwnDirectorySetsNothingAsideAndKeepsItsStart) {
  const std::string cwd = test::temp_directory("restart-same-dir");
  const std::string in_cwd = "cd " + cwd + " &&";
  ASSERT_EQ(run_heatrk4({"--n", "12", "--steps", "4", "--output-every", "2", "--init", "randn", "--backend", "cpu",
                         "--quiet"},
                        in_cwd)
                .exit_code,
            0);
  const std::string dir = cwd + "/heatrk4-out";
  const std::string start = test::read_text(dir + "/heat_000004.hdf");
  fs::create_directory(dir + "/" + kTrashName);
  std::ofstream(dir + "/" + kTrashName + "/heat_000010.hdf") << "an earlier run's";
  const auto r = run_heatrk4({"--restart", "heatrk4-out/heat_000004.hdf", "--steps", "4", "--backend", "cpu",
                              "--json", "run.json"},
                             in_cwd);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(test::read_text(dir + "/heat_000004.hdf") == start) << "the restart rewrote its start snapshot";
  EXPECT_EQ(series_steps(dir), (std::vector<int>{0, 2, 4, 6, 8}));
  EXPECT_FALSE(fs::exists(dir + "/" + kTrashName));
  EXPECT_NE(test::read_text(cwd + "/run.json").find("\"replaced_files\": 0"), std::string::npos);
}

}  // namespace
}  // namespace heat
