// One run at a time in an output directory: a second run into a directory another live run holds
// is refused before any work (exit 2), naming the holder; a lock file left by a run that died
// blocks nothing, counts as none of another run's files and survives no --overwrite of a holder.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "io/output_lock.hpp"
#include "test_support.hpp"
#include "check/shell_quote.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

std::vector<std::string> small_run(const std::string& output) {
  return {"--n", "12", "--steps", "4", "--output-every", "2", "--init", "randn", "--backend", "cpu", "--quiet",
          "--output", output};
}

TEST(OutputLock, ARunIntoADirectoryAnotherProcessHoldsIsRefusedNamingIt) {
  const std::string dir = test::temp_directory("held") + "/out";
  {
    const OutputDirectoryLock held(dir);
    ASSERT_TRUE(held.holds());
    for (const bool overwrite : {false, true}) {
      auto args = small_run(dir);
      if (overwrite) args.push_back("--overwrite");
      const auto r = run_heatrk4(args);
      EXPECT_EQ(r.exit_code, 2) << r.output;
      EXPECT_NE(r.output.find("in use by another heatrk4 run (pid " + std::to_string(::getpid())),
                std::string::npos)
          << r.output;
      EXPECT_FALSE(fs::exists(dir + "/heat_000000.hdf")) << "the refused run wrote a snapshot";
      EXPECT_TRUE(fs::exists(dir + "/.heatrk4.lock")) << "the refused run removed the holder's lock file";
    }
  }
  // Let go: the run goes ahead, and leaves no lock file behind.
  const auto r = run_heatrk4(small_run(dir));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir + "/heat_000004.hdf"));
  EXPECT_FALSE(fs::exists(dir + "/.heatrk4.lock"));
}

TEST(OutputLock, TwoRunsStartedTogetherIntoOneDirectoryDoNotBothRun) {
  const std::string root = test::temp_directory("two-runs");
  const std::string dir = root + "/out";
  // The first run takes a while over each snapshot; the second starts once it holds the directory.
  std::string first = "HEATRK4_TEST_WRITE_DELAY_MS=1500 " + shell_quote(HEATRK4_EXE);
  for (const auto& a : small_run(dir)) first += " " + shell_quote(a);
  first += " >" + root + "/first.log 2>&1; echo $? >" + root + "/first.rc";
  ASSERT_EQ(std::system(("(" + first + ") &").c_str()), 0);
  for (int i = 0; i < 200 && !fs::exists(dir + "/.heatrk4.lock"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto second = run_heatrk4(small_run(dir));
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_NE(second.output.find("in use by another heatrk4 run (pid "), std::string::npos) << second.output;
  for (int i = 0; i < 400 && !fs::exists(root + "/first.rc"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(test::read_text(root + "/first.rc"), "0\n") << test::read_text(root + "/first.log");
  EXPECT_TRUE(fs::exists(dir + "/heat_000004.hdf"));
}

TEST(OutputLock, ALockFileLeftByADeadRunBlocksNothingAndIsNoOtherRunsFile) {
  const std::string dir = test::temp_directory("stale-lock");
  std::ofstream(dir + "/.heatrk4.lock") << "pid 999999 on a machine long gone\n";
  // An explicit --output that holds only the lock file is not "another run's files".
  const auto r = run_heatrk4(small_run(dir));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir + "/heat_000004.hdf"));
}

TEST(OutputLock, ARunRefusedAfterTakingTheLockLeavesNoDirectoryItCreatedForIt) {
  const std::string dir = test::temp_directory("lock-dir") + "/a/b";
  // Too little host memory is found after the output checks.
  const auto r = run_heatrk4({"--n", "100000", "--init", "randn", "--backend", "cpu", "--quiet", "--output", dir});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("host memory"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(fs::path(dir).parent_path())) << r.output;
}

// A directory that was there keeps its modification time when a run is refused after locking it.
TEST(OutputLock, ARunRefusedAfterTakingTheLockLeavesAnExistingDirectorysTimeAsItWas) {
  const std::string dir = test::temp_directory("lock-time");
  std::ofstream(dir + "/notes.txt") << "the user's own file";
  const auto past = fs::file_time_type::clock::now() - std::chrono::hours(24 * 30);
  fs::last_write_time(dir, past);
  const auto r = run_heatrk4({"--n", "100000", "--init", "randn", "--backend", "cpu", "--quiet", "--output", dir});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_FALSE(fs::exists(dir + "/" + kOutputLockName));
  EXPECT_TRUE(fs::last_write_time(dir) == past) << r.output;
}

// A link under the lock's name is never followed: the run is refused (exit 2) naming it, the file
// it points to keeps its bytes, a link to nothing gets no target made, and the link stays.
TEST(OutputLock, ALinkUnderTheLockNameIsRefusedAndWhatItNamesLeftAlone) {
  const std::string dir = test::temp_directory("lock-link");
  const std::string precious = dir + "/precious.txt";
  std::ofstream(precious) << "the user's own words\n";
  for (const std::string& target : {std::string("../precious.txt"), std::string("../created-by-nobody")}) {
    const std::string out = dir + "/out-" + fs::path(target).stem().string();
    fs::create_directory(out);
    fs::create_symlink(target, out + "/.heatrk4.lock");
    const auto r = run_heatrk4(small_run(out));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("the lock file " + out + "/.heatrk4.lock is a symbolic link (to " + target + ")"),
              std::string::npos)
        << r.output;
    EXPECT_TRUE(fs::is_symlink(out + "/.heatrk4.lock")) << "the link was removed or replaced";
    EXPECT_FALSE(fs::exists(out + "/heat_000000.hdf")) << "the run went ahead";
  }
  EXPECT_EQ(test::read_text(precious), "the user's own words\n");
  EXPECT_FALSE(fs::exists(dir + "/created-by-nobody")) << "a dangling link's target was created";
}

// A second name of a user's file, or a FIFO, under the lock's name would have the pid written
// into it: refused the same way.
TEST(OutputLock, AHardLinkOrAFifoUnderTheLockNameIsRefused) {
  const std::string dir = test::temp_directory("lock-hard-link");
  const std::string precious = dir + "/precious.txt";
  std::ofstream(precious) << "the user's own words\n";
  fs::create_directory(dir + "/linked");
  fs::create_hard_link(precious, dir + "/linked/.heatrk4.lock");
  const auto linked = run_heatrk4(small_run(dir + "/linked"));
  EXPECT_EQ(linked.exit_code, 2) << linked.output;
  EXPECT_NE(linked.output.find("is a file with 2 names (hard links)"), std::string::npos) << linked.output;
  EXPECT_EQ(test::read_text(precious), "the user's own words\n");
  EXPECT_TRUE(fs::exists(dir + "/linked/.heatrk4.lock")) << "the user's second name was removed";

  fs::create_directory(dir + "/fifo");
  ASSERT_EQ(::mkfifo((dir + "/fifo/.heatrk4.lock").c_str(), 0644), 0);
  const auto fifo = run_heatrk4(small_run(dir + "/fifo"));
  EXPECT_EQ(fifo.exit_code, 2) << fifo.output;
  EXPECT_NE(fifo.output.find("is not a regular file"), std::string::npos) << fifo.output;
  EXPECT_TRUE(fs::is_fifo(dir + "/fifo/.heatrk4.lock"));
}

// A socket under the lock's name (a user's service) is named as one, not as open(2)'s ENXIO
// ("No such device or address").
TEST(OutputLock, ASocketUnderTheLockNameIsNamedAsOne) {
  const std::string dir = test::temp_directory("lock-socket");
  fs::create_directory(dir + "/socket");
  const std::string path = dir + "/socket/.heatrk4.lock";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof address.sun_path) << "the test's directory is too deep for a socket's name";
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  const auto r = run_heatrk4(small_run(dir + "/socket"));
  ::close(listener);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(".heatrk4.lock is a socket"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("No such device or address"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::is_socket(path)) << "the socket was removed";
}

}  // namespace
}  // namespace heat
