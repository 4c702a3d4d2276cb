// --json writes what it names by what that is: a regular file (or a new name) is replaced safely,
// anything else is written in place and never replaced: standard output keeps the shell's
// redirection (">>" appends), a FIFO's reader gets the summary, a device stays a device, a link
// stays a link. Names the run could not write under are refused before any work (exit 2).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "test_support.hpp"
#include "check/shell_quote.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

// A run that writes its summary and, with `output` empty, no snapshots.
std::vector<std::string> small_run(const std::string& json, const std::string& output = "") {
  std::vector<std::string> args = {"--n", "12", "--steps", "2", "--init", "randn", "--backend", "cpu", "--quiet"};
  if (!json.empty()) args.insert(args.end(), {"--json", json});
  if (output.empty()) args.insert(args.end(), {"--format", "none"});
  else args.insert(args.end(), {"--output", output});
  return args;
}

// Runs heatrk4 through the shell with `redirection` after its arguments; the exit code.
int run_redirected(const std::vector<std::string>& args, const std::string& redirection) {
  std::string command = shell_quote(HEATRK4_EXE);
  for (const auto& a : args) command += " " + shell_quote(a);
  const int status = std::system((command + " " + redirection).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool is_summary(const std::string& text) {
  return text.rfind("{\"problem\": {", 0) == 0 && text.find("\"final_step\": 2") != std::string::npos &&
         text.back() == '\n';
}

bool is_file_type(const std::string& path, mode_t type) {
  struct stat s;
  return ::lstat(path.c_str(), &s) == 0 && (s.st_mode & S_IFMT) == type;
}

TEST(JsonTarget, StandardOutputAppendsWhereTheShellRedirectsIt) {
  const std::string dir = test::temp_directory("json-stdout");
  fs::create_symlink("/proc/self/fd/1", dir + "/to-stdout");
  const std::vector<std::string> names = {"-", "/dev/stdout", "/proc/self/fd/1", "/proc/thread-self/fd/1", "/dev/fd/1",
                                          dir + "/to-stdout"};
  for (const std::string& name : names) {
    const std::string log = dir + "/run.log";
    std::ofstream(log) << "an earlier line\n";
    ASSERT_EQ(run_redirected(small_run(name), ">> " + shell_quote(log)), 0) << name;
    const std::string text = test::read_text(log);
    ASSERT_EQ(text.rfind("an earlier line\n", 0), 0u) << "--json " << name << " replaced run.log:\n" << text;
    EXPECT_TRUE(is_summary(text.substr(16))) << name << ":\n" << text;
    EXPECT_TRUE(is_file_type(log, S_IFREG));
  }
  EXPECT_FALSE(fs::exists("-")) << "--json - wrote a file named '-'";
  EXPECT_TRUE(is_file_type(dir + "/to-stdout", S_IFLNK)) << "the link to standard output was replaced";
}

// convergence's --csv (and --plot) follow the same rules.
TEST(JsonTarget, ConvergenceCsvToStandardOutputAppendsToo) {
  const std::string log = test::temp_directory("csv-stdout") + "/run.log";
  std::ofstream(log) << "an earlier line\n";
  ASSERT_EQ(run_redirected({"convergence", "--csv", "/dev/stdout"}, ">> " + shell_quote(log)), 0);
  const std::string text = test::read_text(log);
  EXPECT_EQ(text.rfind("an earlier line\n", 0), 0u) << "--csv /dev/stdout replaced run.log:\n" << text;
  EXPECT_NE(text.find("\nstudy,order,expected_order,level,"), std::string::npos) << text;
}

// A FIFO that no process reads: the run's end is not held up forever (the stop signals, handled
// by then, could not end it either); exit 3, naming it, and the FIFO is left as it was.
TEST(JsonTarget, AFifoWithNoReaderFailsTheRunInsteadOfWaitingForever) {
  const std::string fifo = test::temp_directory("json-fifo-unread") + "/summary";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << std::strerror(errno);
  const auto r = run_heatrk4(small_run(fifo), "timeout 60");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("it is a FIFO that no process is reading"), std::string::npos) << r.output;
  EXPECT_TRUE(is_file_type(fifo, S_IFIFO)) << "the FIFO was replaced";
}

// A path whose bytes are not UTF-8 (a file system allows any) is written as U+FFFD in the JSON,
// which must be UTF-8; valid UTF-8 is kept as it is.
TEST(JsonTarget, BytesThatAreNotUtf8AreWrittenAsTheReplacementCharacter) {
  const std::string dir = test::temp_directory("json-bytes");
  const std::string json = dir + "/run.json";
  const auto r = run_heatrk4({"--n", "8", "--order", "2", "--steps", "2", "--backend", "cpu", "--quiet", "--output",
                              dir + "/bad\xff\xfe-\xc3\xa9t\xc3\xa9", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string text = test::read_text(json);
  EXPECT_TRUE(is_summary(text)) << text;
  EXPECT_NE(text.find("bad\\ufffd\\ufffd-\xc3\xa9t\xc3\xa9"), std::string::npos) << text;
  EXPECT_EQ(text.find('\xff'), std::string::npos) << "a byte that is not UTF-8 is in the JSON";
}

TEST(JsonTarget, AFifoIsWrittenInPlaceAndItsReaderGetsTheSummary) {
  const std::string fifo = test::temp_directory("json-fifo") + "/summary";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << std::strerror(errno);
  // Opened without waiting for a writer, so the run's open finds a reader; read once it ends.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0) << std::strerror(errno);
  const auto r = run_heatrk4(small_run(fifo));
  std::string received;
  char buffer[4096];
  for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;) received.append(buffer, std::size_t(n));
  ::close(reader);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(is_summary(received)) << "the FIFO's reader got:\n" << received;
  EXPECT_TRUE(is_file_type(fifo, S_IFIFO)) << "the FIFO was replaced";
}

// Device nodes of our own (the numbers of /dev/null and /dev/full), so that the old behaviour
// under test replaces nothing of the machine's. Making one needs root (CAP_MKNOD).
TEST(JsonTarget, ADeviceIsWrittenInPlaceAndAFullOneIsExitThreeNamingIt) {
  const std::string dir = test::temp_directory("json-device");
  const std::string null = dir + "/null", full = dir + "/full";
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
      ::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
    GTEST_SKIP() << "cannot make device nodes here (" << std::strerror(errno) << ")";
  const auto into_null = run_heatrk4(small_run(null));
  EXPECT_EQ(into_null.exit_code, 0) << into_null.output;
  EXPECT_TRUE(is_file_type(null, S_IFCHR)) << "the device node was replaced";
  const auto into_full = run_heatrk4(small_run(full));
  EXPECT_EQ(into_full.exit_code, 3) << into_full.output;
  EXPECT_NE(into_full.output.find(full + ": " + std::strerror(ENOSPC)), std::string::npos) << into_full.output;
  EXPECT_TRUE(is_file_type(full, S_IFCHR)) << "the device node was replaced";
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_TRUE(entry.path() == null || entry.path() == full) << "left behind: " << entry.path();
}

TEST(JsonTarget, ALinkStaysALinkAndALinkToNothingIsRefused) {
  const std::string dir = test::temp_directory("json-link");
  std::ofstream(dir + "/earlier.json") << "an earlier summary\n";
  fs::create_symlink("earlier.json", dir + "/summary.json");
  const auto through = run_heatrk4(small_run(dir + "/summary.json"));
  EXPECT_EQ(through.exit_code, 0) << through.output;
  EXPECT_TRUE(is_file_type(dir + "/summary.json", S_IFLNK));
  EXPECT_TRUE(is_summary(test::read_text(dir + "/earlier.json")));

  fs::create_symlink("missing/target.json", dir + "/dangling.json");
  const auto dangling = run_heatrk4(small_run(dir + "/dangling.json"));
  EXPECT_EQ(dangling.exit_code, 2) << dangling.output;
  EXPECT_NE(dangling.output.find("--json '" + dir + "/dangling.json': is a symbolic link to '" + dir +
                                 "/missing/target.json', "
                                 "which does not exist"),
            std::string::npos)
      << dangling.output;
  EXPECT_TRUE(is_file_type(dir + "/dangling.json", S_IFLNK)) << "the link was replaced";
  EXPECT_FALSE(fs::exists(dir + "/missing"));
}

// --json makes the directories its path names that do not exist, as --output does; a refused run
// makes none.
TEST(JsonTarget, MissingParentDirectoriesAreMadeByARunAndNotByARefusedOne) {
  const std::string dir = test::temp_directory("json-parents");
  const auto refused = test::run_heatrk4({"--n", "12", "--steps", "0", "--backend", "cpu", "--format", "none", "--json",
                                          dir + "/a/b/run.json"});
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_FALSE(fs::exists(dir + "/a")) << "a refused run made --json's directory";
  const auto made = test::run_heatrk4({"--n", "12", "--steps", "2", "--backend", "cpu", "--format", "none", "--quiet",
                                       "--json", dir + "/a/b/run.json"});
  ASSERT_EQ(made.exit_code, 0) << made.output;
  EXPECT_TRUE(is_summary(test::read_text(dir + "/a/b/run.json")));
}

TEST(JsonTarget, ADescriptorNotOpenForWritingIsRefusedBeforeAnyWork) {
  const auto closed = run_heatrk4(small_run("/dev/fd/9"), "exec 9>&-;");
  EXPECT_EQ(closed.exit_code, 2) << closed.output;
  EXPECT_NE(closed.output.find("file descriptor 9 is not open"), std::string::npos) << closed.output;
  const auto read_only = run_heatrk4(small_run("/dev/fd/9"), "exec 9</dev/null;");
  EXPECT_EQ(read_only.exit_code, 2) << read_only.output;
  EXPECT_NE(read_only.output.find("file descriptor 9 is open for reading only"), std::string::npos)
      << read_only.output;
}

// The temporary name ("NAME.tmp-PID") is longer than the name: a name that fits while its
// temporary one does not would fail only after the run.
TEST(JsonTarget, NamesTooLongForTheirTemporaryNameAreRefusedBeforeAnyWork) {
  const std::string dir = test::temp_directory("json-long");
  const std::string long_name = dir + "/" + std::string(NAME_MAX - 5, 'j');
  const auto named = run_heatrk4(small_run(long_name, dir + "/out"));
  EXPECT_EQ(named.exit_code, 2) << named.output;
  EXPECT_NE(named.output.find("more than NAME_MAX, " + std::to_string(NAME_MAX)), std::string::npos) << named.output;
  EXPECT_FALSE(fs::exists(dir + "/out")) << "the run went ahead";

  // Parts that each fit, a whole that fits (PATH_MAX - 4 with its terminating null), and the
  // whole as the run writes it, longer, that does not.
  const std::size_t length = PATH_MAX - 4;
  std::string deep = dir;
  while (deep.size() + 201 + 20 <= length) deep += "/" + std::string(200, 'd');
  deep += "/" + std::string(length - deep.size() - 1, 'f');
  ASSERT_EQ(deep.size(), length);
  for (const bool as_output : {false, true}) {
    const auto too_deep = run_heatrk4(as_output ? small_run("", deep) : small_run(deep, dir + "/out"));
    EXPECT_EQ(too_deep.exit_code, 2) << too_deep.output.substr(too_deep.output.size() - 300);
    EXPECT_NE(too_deep.output.find("PATH_MAX, " + std::to_string(PATH_MAX)), std::string::npos)
        << too_deep.output.substr(too_deep.output.size() - 300);
  }
  EXPECT_FALSE(fs::exists(dir + "/" + std::string(200, 'd'))) << "the run made the directories";
  EXPECT_FALSE(fs::exists(dir + "/out")) << "the run went ahead";

  const auto long_output = run_heatrk4(small_run("", dir + "/" + std::string(NAME_MAX + 1, 'o')));
  EXPECT_EQ(long_output.exit_code, 2) << long_output.output;
  EXPECT_NE(long_output.output.find("more than NAME_MAX"), std::string::npos) << long_output.output;
}

}  // namespace
}  // namespace heat
