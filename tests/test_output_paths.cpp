// Output paths are checked before any work (exit 2, naming the path and the system's reason),
// a new run does not mix its snapshots into another run's directory unless --overwrite, a later
// run clears the temporary files of writers that died, and a run that fails before its first
// snapshot leaves no directory behind.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/input_file.hpp"
#include "io/series_files.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

// Exit 2 (bad input, found before any work; a failure found while running is 3), naming the
// path and the reason.
void expect_refused_at_once(std::vector<std::string> args, const std::string& path, const std::string& reason) {
  args.insert(args.end(), {"--n", "16", "--steps", "20", "--backend", "cpu", "--quiet"});
  const auto r = run_heatrk4(args);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "'" + path + "'");
  expect_mentions(r, reason);
}

// An existing directory no file can be created in (EACCES): for root, whom permission bits do
// not stop, sysfs's root where the machine has one; for anyone else, a directory without write
// permission. Empty when there is none.
std::string unwritable_directory() {
  if (::geteuid() != 0) {
    const std::string dir = test::temp_directory("read-only") + "/locked";
    fs::create_directory(dir);
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
    return dir;
  }
  const int fd = ::open("/sys/heatrk4-test", O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd >= 0) {
    ::close(fd);
    ::unlink("/sys/heatrk4-test");
    return "";
  }
  return errno == EACCES ? "/sys" : "";
}

TEST(OutputPaths, BadOutputDirectoriesAreRefusedBeforeAnyWork) {
  const std::string dir = test::temp_directory("bad-output");
  std::ofstream(dir + "/plain") << "a regular file";
  expect_refused_at_once({"--output", dir + "/plain"}, dir + "/plain", "Not a directory");
  expect_refused_at_once({"--output", dir + "/plain/below"}, dir + "/plain/below", "Not a directory");
  expect_refused_at_once({"--output", "/proc/x"}, "/proc/x", "No such file or directory");
  fs::create_symlink(dir + "/nowhere", dir + "/dangling");
  expect_refused_at_once({"--output", dir + "/dangling"}, dir + "/dangling",
                         "'" + dir + "/dangling' is a link to '" + dir + "/nowhere', which does not exist");
  expect_refused_at_once({"--output", dir + "/dangling/below"}, dir + "/dangling/below",
                         "'" + dir + "/dangling' is a link to '" + dir + "/nowhere', which does not exist");
  EXPECT_FALSE(fs::exists(dir + "/nowhere"));
  const auto empty = run_heatrk4({"--output", "", "--n", "16", "--backend", "cpu", "--quiet"});
  EXPECT_EQ(empty.exit_code, 2) << empty.output;
  expect_mentions(empty, "--output: the value is empty");
  const std::string locked = unwritable_directory();
  if (locked.empty()) GTEST_SKIP() << "no unwritable directory on this machine to test with";
  expect_refused_at_once({"--output", locked, "--output-every", "0"}, locked, "Permission denied");
}

TEST(OutputPaths, AnUnwritableJsonPathIsRefusedBeforeAnyWork) {
  const std::string dir = test::temp_directory("bad-json");
  expect_refused_at_once({"--format", "none", "--json", "/proc/x/summary.json"}, "/proc/x/summary.json",
                         "No such file or directory");
  expect_refused_at_once({"--format", "none", "--json", dir}, dir, "Is a directory");
  const std::string locked = unwritable_directory();
  if (locked.empty()) GTEST_SKIP() << "no unwritable directory on this machine to test with";
  expect_refused_at_once({"--format", "none", "--json", locked + "/summary.json"}, locked + "/summary.json",
                         "Permission denied");
}

TEST(OutputPaths, ConvergenceOutputPathsAreRefusedBeforeTheStudies) {
  for (const char* option : {"--csv", "--plot"}) {
    const auto r = run_heatrk4({"convergence", option, "/proc/x/table"});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    expect_mentions(r, std::string(option) + " '/proc/x/table': No such file or directory");
    EXPECT_EQ(r.output.find("observed order"), std::string::npos) << "refused only after the studies:\n" << r.output;
  }
}

// The READMEs' convergence commands, typed as they stand in the repository's root, must not write
// over a file of the source tree (the committed table and plot): --csv and --plot there name
// files under build/ or names that do not exist.
TEST(OutputPaths, TheReadmesConvergenceCommandsWriteNoFileOfTheSourceTree) {
  for (const std::string readme : {"README.md", "check/README.md"}) {
    std::istringstream text(test::read_text(std::string(HEAT_SOURCE_DIR) + "/" + readme));
    ASSERT_FALSE(text.str().empty()) << readme;
    std::string word, option;
    int named = 0;
    while (text >> word) {
      if (option == "--csv" || option == "--plot") {
        ++named;
        EXPECT_TRUE(word.rfind("build/", 0) == 0 || !fs::exists(std::string(HEAT_SOURCE_DIR) + "/" + word))
            << readme << ": " << option << " " << word << " writes over a file of the source tree";
      }
      option = word;
    }
    EXPECT_GT(named, 0) << readme << " shows no convergence command with --csv or --plot";
  }
}

// The JSON summary may go into the --output directory, or another one, that the run creates:
// the up-front check must not refuse a directory that does not exist yet.
TEST(OutputPaths, AJsonPathInADirectoryTheRunCreatesIsAccepted) {
  const std::string dir = test::temp_directory("json-new-dir");
  const auto with_output = run_heatrk4({"--n", "12", "--steps", "2", "--backend", "cpu", "--quiet", "--output",
                                        dir + "/out", "--json", dir + "/out/summary.json"});
  EXPECT_EQ(with_output.exit_code, 0) << with_output.output;
  EXPECT_TRUE(fs::exists(dir + "/out/summary.json"));
  const auto alone = run_heatrk4({"--n", "12", "--steps", "2", "--backend", "cpu", "--quiet", "--format", "none",
                                  "--json", dir + "/a/b/summary.json"});
  EXPECT_EQ(alone.exit_code, 0) << alone.output;
  EXPECT_TRUE(fs::exists(dir + "/a/b/summary.json"));
}

std::vector<std::string> small_run(int n, int steps, const std::string& output) {
  return {"--n", std::to_string(n), "--steps", std::to_string(steps), "--output-every", "2", "--init", "randn",
          "--backend", "cpu", "--quiet", "--output", output};
}

TEST(OutputPaths, ANewRunIntoAnotherRunsDirectoryIsRefusedUnlessOverwrite) {
  const std::string dir = test::temp_directory("other-run");
  ASSERT_EQ(run_heatrk4(small_run(16, 8, dir)).exit_code, 0);
  const auto before = fs::last_write_time(dir + "/heat_000000.hdf");

  const auto refused = run_heatrk4(small_run(12, 4, dir));
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  expect_mentions(refused, "5 snapshots heat_000000.hdf ... heat_000008.hdf");
  expect_mentions(refused, "heat.hdf.series");
  expect_mentions(refused, "--overwrite");
  EXPECT_EQ(fs::last_write_time(dir + "/heat_000000.hdf"), before);
  EXPECT_EQ(read_initial_field(dir + "/heat_000000.hdf").grid.nx, 16);

  const auto replaced = run_heatrk4([&] {
    auto args = small_run(12, 4, dir);
    args.push_back("--overwrite");
    return args;
  }());
  ASSERT_EQ(replaced.exit_code, 0) << replaced.output;
  EXPECT_EQ(read_initial_field(dir + "/heat_000000.hdf").grid.nx, 12);
  EXPECT_FALSE(fs::exists(dir + "/heat_000006.hdf")) << "the other run's later snapshots are still there";
  EXPECT_FALSE(fs::exists(dir + "/heat_000008.hdf"));
  EXPECT_EQ(read_hdf_series_entries(dir + "/heat.hdf.series").size(), 3u);
}

// The README's command typed twice: without --output, the default directory holds the latest run.
TEST(OutputPaths, WithoutOutputANewRunReplacesTheLastRunInTheDefaultDirectory) {
  const std::string cwd = test::temp_directory("default-output");
  const auto run_in_cwd = [&](int n, int steps, std::vector<std::string> more) {
    std::vector<std::string> args = {"--n", std::to_string(n), "--steps", std::to_string(steps), "--output-every",
                                      "2", "--init", "randn", "--backend", "cpu", "--quiet"};
    args.insert(args.end(), more.begin(), more.end());
    return run_heatrk4(args, "cd " + cwd + " &&");
  };
  ASSERT_EQ(run_in_cwd(16, 8, {}).exit_code, 0);
  const auto again = run_in_cwd(12, 4, {});
  ASSERT_EQ(again.exit_code, 0) << again.output;
  const std::string dir = cwd + "/heatrk4-out";
  EXPECT_EQ(read_initial_field(dir + "/heat_000000.hdf").grid.nx, 12);
  EXPECT_FALSE(fs::exists(dir + "/heat_000008.hdf")) << "the earlier run's later snapshots are still there";
  EXPECT_EQ(read_hdf_series_entries(dir + "/heat.hdf.series").size(), 3u);
  // Named, the same directory keeps its protection.
  const auto named = run_in_cwd(12, 4, {"--output", "heatrk4-out"});
  EXPECT_EQ(named.exit_code, 2) << named.output;
  expect_mentions(named, "--overwrite");
}

// The pid of a process that has exited and been reaped.
pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

TEST(OutputPaths, TemporaryFilesOfDeadWritersAreRemovedAndLiveOnesKept) {
  const std::string dir = test::temp_directory("stale-tmp");
  const std::string dead_pid_text = std::to_string(dead_pid());
  const std::string dead = dir + "/heat_000002.hdf.tmp-" + dead_pid_text;
  const std::string dead_series = dir + "/heat.hdf.series.tmp-" + dead_pid_text;
  const std::string live = dir + "/heat_000004.hdf.tmp-" + std::to_string(::getpid());
  const std::string users = dir + "/notes.tmp-" + dead_pid_text;  // not a name heatrk4 writes
  // A distributed .vti snapshot's piece and the .pvti over the pieces, of a rank that died.
  const std::string dead_piece = dir + "/" + vti_piece_name(2, 1, 3) + ".tmp-" + dead_pid_text;
  const std::string dead_pvti = dir + "/heat_000002.pvti.tmp-" + dead_pid_text;
  const std::string users_vtk = dir + "/heat_000002.rank1of3.vtk.tmp-" + dead_pid_text;
  for (const std::string& file : {dead_piece, dead_pvti, users_vtk}) std::ofstream(file) << "half a file";
  std::ofstream(dead) << "half a snapshot";
  std::ofstream(dead_series) << "half a series file";
  std::ofstream(live) << "a snapshot being written";
  std::ofstream(users) << "the user's own file";
  const auto r = run_heatrk4(small_run(12, 2, dir));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(dead_series));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(users)) << "a file heatrk4 did not write was removed";
  EXPECT_FALSE(fs::exists(dead_piece));
  EXPECT_FALSE(fs::exists(dead_pvti));
  EXPECT_TRUE(fs::exists(users_vtk)) << "a file heatrk4 did not write was removed";
}

TEST(OutputPaths, ARunThatFailsBeforeItsFirstSnapshotLeavesNoDirectory) {
  const std::string dir = test::temp_directory("no-empty-dir") + "/a/b";
  const auto r = run_heatrk4({"--n", "12", "--order", "2", "--cfl", "2", "--allow-unstable", "--steps", "2000",
                              "--init", "randn", "--backend", "cpu", "--quiet", "--output", dir});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_FALSE(fs::exists(fs::path(dir).parent_path()));
}

}  // namespace
}  // namespace heat
