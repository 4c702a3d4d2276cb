// A run whose standard output (or error) is a pipe nobody reads (`heatrk4 | head -1` once head has
// exited) is not killed by SIGPIPE midway: it finishes its steps and snapshots, releases its
// output directory's lock, and ends with exit 3 naming standard output and the broken pipe.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;

struct Ended {
  bool signalled = false;
  int code = -1;  // the exit status, or the signal that ended it
};

// heatrk4 `args` with its standard output, and with `stderr_too` its standard error, the write
// end of a pipe whose read end was closed before it started: every write there fails, always,
// as no reader can come. Standard error otherwise goes to `stderr_file`. SIGPIPE as a shell
// leaves it (the default: it kills).
Ended run_into_closed_pipe(const std::vector<std::string>& args, bool stderr_too, const std::string& stderr_file) {
  int ends[2];
  if (pipe(ends) != 0) return {};
  close(ends[0]);
  std::vector<char*> argv = {const_cast<char*>(HEATRK4_EXE)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    std::signal(SIGPIPE, SIG_DFL);
    const int err = stderr_too ? ends[1] : open(stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(ends[1], STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    execv(HEATRK4_EXE, argv.data());
    _exit(127);
  }
  close(ends[1]);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) return {};
  return WIFSIGNALED(status) ? Ended{true, WTERMSIG(status)} : Ended{false, WEXITSTATUS(status)};
}

std::vector<std::string> run_args(const std::string& output) {
  return {"--backend", "cpu", "--order", "2", "--n", "12", "--steps", "4", "--output-every", "2", "--output", output};
}

TEST(ClosedPipes, ARunWhoseStandardOutputNobodyReadsFinishesAndEndsWithExitThree) {
  const std::string dir = test::temp_directory("closed-stdout");
  const std::string out = dir + "/run", errors = dir + "/stderr.txt";
  const Ended ended = run_into_closed_pipe(run_args(out), false, errors);
  EXPECT_FALSE(ended.signalled) << "killed by signal " << ended.code;
  EXPECT_EQ(ended.code, 3);
  EXPECT_NE(test::read_text(errors).find("cannot write to standard output: Broken pipe"), std::string::npos)
      << test::read_text(errors);
  for (const char* name : {"heat_000000.hdf", "heat_000002.hdf", "heat_000004.hdf", "heat.hdf.series"})
    EXPECT_TRUE(fs::exists(out + "/" + name)) << name;
  EXPECT_FALSE(fs::exists(out + "/.heatrk4.lock")) << "the run left its lock";
}

// A restart's note goes to standard error before any work: with both outputs closed, the run
// still continues the series to its end.
TEST(ClosedPipes, ARunWhoseStandardErrorNobodyReadsIsNotStoppedByItsFirstLine) {
  const std::string dir = test::temp_directory("closed-stderr");
  const std::string out = dir + "/run";
  ASSERT_EQ(test::run_heatrk4(run_args(out)).exit_code, 0);
  const Ended ended =
      run_into_closed_pipe({"--restart", out + "/heat_000004.hdf", "--order", "4", "--steps", "4"}, true, "");
  EXPECT_FALSE(ended.signalled) << "killed by signal " << ended.code;
  EXPECT_EQ(ended.code, 3);
  for (const char* name : {"heat_000006.hdf", "heat_000008.hdf"}) EXPECT_TRUE(fs::exists(out + "/" + name)) << name;
  EXPECT_NE(test::read_text(out + "/heat.hdf.series").find("heat_000008.hdf"), std::string::npos);
  EXPECT_FALSE(fs::exists(out + "/.heatrk4.lock")) << "the run left its lock";
}

}  // namespace
}  // namespace heat
