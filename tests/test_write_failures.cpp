// Writes that fail for want of room: a full disk (ENOSPC, on a small tmpfs where one can be
// mounted) and a file size limit (`ulimit -f`, EFBIG; no SIGXFSZ trap: heatrk4 ignores that
// signal itself). Each is exit 3, a message that leads with what happened and to which file, no
// temporary file left and nothing written before lost, the JSON summary included.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

std::vector<std::string> names_in(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void expect_failure_leads_with(const test::CommandResult& r, const std::string& text) {
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("run failed: " + text), std::string::npos) << "expected 'run failed: " << text << "' in:\n"
                                                                     << r.output;
}

std::vector<std::string> run_args(int n, const std::vector<std::string>& more) {
  std::vector<std::string> args = {"--n", std::to_string(n), "--steps", "2", "--init", "randn", "--backend", "cpu",
                                   "--quiet"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(WriteFailures, AJsonSummaryThatCannotBeWrittenKeepsTheEarlierOneAndLeavesNoPart) {
  const std::string dir = test::temp_directory("json-limit");
  const std::string json = dir + "/summary.json";
  std::ofstream(json) << "{\"an\": \"earlier summary\"}\n";
  // ulimit -f 0: a new file can be made but nothing written to it. The trap keeps this test on
  // the summary's own write, whatever heatrk4 does with SIGXFSZ.
  const auto r = run_heatrk4(run_args(12, {"--format", "none", "--json", json}), "trap '' XFSZ; ulimit -f 0;");
  expect_failure_leads_with(r, "file size limit exceeded writing " + json);
  EXPECT_EQ(test::read_text(json), "{\"an\": \"earlier summary\"}\n");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"summary.json"}) << "a temporary file was left";
}

TEST(WriteFailures, AWritePastTheFileSizeLimitIsAFailedWriteNotAKill) {
  const std::string dir = test::temp_directory("size-limit");
  // A 40^3 float snapshot (256 KB) past a limit of 16 blocks (8 or 16 KB, by the shell's unit).
  const auto r = run_heatrk4(run_args(40, {"--output", dir}), "ulimit -f 16;");
  expect_failure_leads_with(r, "file size limit exceeded writing " + dir + "/heat_000002.hdf");
  for (const auto& name : names_in(dir)) EXPECT_EQ(name.find(".tmp-"), std::string::npos) << name << " was left";
}

// A tmpfs of 1 MiB mounted for the test's life; skips where mounting is not allowed.
class FullDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    disk = test::temp_directory("full-disk") + "/disk";
    fs::create_directory(disk);
    if (::mount("tmpfs", disk.c_str(), "tmpfs", 0, "size=1m") != 0)
      GTEST_SKIP() << "cannot mount a tmpfs here (needs root): " << std::strerror(errno);
    mounted = true;
  }
  void TearDown() override {
    if (mounted) ::umount2(disk.c_str(), MNT_DETACH);
  }
  std::string disk;
  bool mounted = false;
};

TEST_F(FullDisk, ASnapshotThatFillsTheDiskIsReportedAsSuch) {
  // 80^3 floats: 2 MiB, twice the disk.
  const auto r = run_heatrk4(run_args(80, {"--output", disk}));
  expect_failure_leads_with(r, "no space left on device writing " + disk + "/heat_000002.hdf");
  EXPECT_EQ(names_in(disk), std::vector<std::string>{}) << "a temporary file was left";
}

TEST_F(FullDisk, AJsonSummaryOnAFullDiskKeepsTheEarlierOne) {
  const std::string json = disk + "/summary.json";
  std::ofstream(json) << "{\"an\": \"earlier summary\"}\n";
  {
    std::ofstream filler(disk + "/filler", std::ios::binary);
    const std::string block(4096, 'x');
    while (filler.write(block.data(), block.size())) {
    }
  }
  const auto r = run_heatrk4(run_args(12, {"--format", "none", "--json", json}));
  expect_failure_leads_with(r, "no space left on device writing " + json);
  EXPECT_EQ(test::read_text(json), "{\"an\": \"earlier summary\"}\n");
  EXPECT_EQ(names_in(disk), (std::vector<std::string>{"filler", "summary.json"})) << "a temporary file was left";
}

}  // namespace
}  // namespace heat
