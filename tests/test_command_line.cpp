// Bad command lines: exit code 2 and a message that names the problem, before any work.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.hpp"

namespace heat {
namespace {

struct BadLine {
  std::vector<std::string> args;
  std::string must_mention;
};

class BadCommandLine : public ::testing::TestWithParam<BadLine> {};

TEST_P(BadCommandLine, ExitsWithTwoAndNamesTheProblem) {
  const BadLine& line = GetParam();
  auto args = line.args;
  args.push_back("--format");
  args.push_back("none");
  const auto result = test::run_heatrk4(args);
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find(line.must_mention), std::string::npos)
      << "expected the message to mention '" << line.must_mention << "', got:\n" << result.output;
}

INSTANTIATE_TEST_SUITE_P(
    Refused, BadCommandLine,
    ::testing::Values(BadLine{{"--n", "8", "--order", "8"}, "at least 2r+1 = 9"},
                      BadLine{{"--nx", "4", "--n", "16", "--order", "4"}, "--nx 4 is too small for order 4"},
                      BadLine{{"--order", "5"}, "--order 5 is not supported"},
                      BadLine{{"--cfl", "0.6", "--order", "8"}, "largest stable cfl is 0.4284"},
                      BadLine{{"--cfl", "0.7", "--order", "2"}, "largest stable cfl is 0.6963"},
                      BadLine{{"--cfl", "0.01", "--dt", "1e-5"}, "--dt and --cfl both given"},
                      BadLine{{"--alpha", "-1"}, "--alpha -1 must be a positive number"},
                      BadLine{{"--h", "0"}, "--h 0 must be a positive number"},
                      BadLine{{"--steps", "0"}, "--steps 0 must be at least 1"},
                      BadLine{{"--dt", "-0.1"}, "--dt -0.1 must be a positive number"},
                      BadLine{{"--backend", "warp"}, "--backend warp is unknown"},
                      BadLine{{"--precision", "half"}, "--precision half is not one of float, double"},
                      BadLine{{"--init", "file"}, "--init file needs --init-file"},
                      BadLine{{"--init", "noise"}, "--init noise is not one of"},
                      BadLine{{"--compress", "12"}, "--compress 12 must be a gzip level from 0 to 9"},
                      BadLine{{"--compress", "09"}, "--compress 09: 09 has a leading zero, which can mean octal: write 9"},
                      BadLine{{"--compress", "zfp:"}, "--compress zfp: gives no error bound (zfp:1e-6, say)"},
                      BadLine{{"--output-every", "-3"}, "--output-every -3"},
                      BadLine{{"--n", "abc"}, "--n"},
                      BadLine{{"--alpha", "1e400"}, "--alpha: 1e400 is out of range: the largest number is 1.7e308"},
                      BadLine{{"--cfl", "1e-400"}, "--cfl: 1e-400 is too small to tell from 0"},
                      BadLine{{"--n", "2147483648"}, "--n: 2147483648 is out of range: the largest value is 2147483647"},
                      BadLine{{"--modes", "99999999999", "1", "1"}, "99999999999 is out of range: the largest value is"},
                      BadLine{{"--device", "-2147483649"}, "-2147483649 is out of range: the smallest value is -2147483648"},
                      BadLine{{"--no-such-option"}, "--no-such-option"},
                      BadLine{{"--n", "200000", "--backend", "cpu"}, "bytes of host memory"}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

// A run's option typed before another command is refused, naming it: CLI11 takes it for the
// run, and the command would silently go on without it (compare at its own tolerance, verify at
// its own size, no --json written).
TEST(CommandLine, ARunsOptionBeforeAnotherCommandIsRefused) {
  for (const auto& line : {std::vector<std::string>{"--rtol", "1", "compare", "a.hdf", "b.hdf"},
                           std::vector<std::string>{"--n", "16", "verify"},
                           std::vector<std::string>{"--json", "x.json", "backends"},
                           std::vector<std::string>{"--steps", "2", "convergence"}}) {
    const auto r = test::run_heatrk4(line);
    EXPECT_EQ(r.exit_code, 2) << line[0] << ": " << r.output;
    EXPECT_NE(r.output.find(line[0] + " is an option of a run, given before `" + line[2] + "`"), std::string::npos)
        << r.output;
  }
}

// -h is --help, except as the value of the option before it: --json -h writes the file "-h".
TEST(CommandLine, DashHAsAnOptionsValueIsThatValue) {
  const std::string dir = test::temp_directory("dash-h");
  const auto r = test::run_heatrk4({"--n", "12", "--steps", "1", "--backend", "cpu", "--format", "none", "--quiet",
                                    "--json", "-h"},
                                   "cd " + dir + " &&");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/-h")) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/--help")) << "the value -h was taken for --help";
  const auto help = test::run_heatrk4({"--n", "12", "-h"});
  EXPECT_EQ(help.exit_code, 0) << help.output;
  EXPECT_NE(help.output.find("Usage: heatrk4"), std::string::npos) << help.output;
}

// Output lost on stdout (a full disk there) is a failed run, exit 3, said on stderr.
TEST(CommandLine, ASummaryThatCannotBeWrittenToStdoutExitsThree) {
  if (!std::filesystem::is_character_file("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const std::string to_full = "sh -c '\"$0\" \"$@\" > /dev/full'";
  for (const auto& line : {std::vector<std::string>{"--n", "12", "--steps", "1", "--backend", "cpu", "--format", "none"},
                           std::vector<std::string>{"backends"}}) {
    const auto r = test::run_heatrk4(line, to_full);
    EXPECT_EQ(r.exit_code, 3) << line[0] << ": " << r.output;
    EXPECT_NE(r.output.find("cannot write to standard output"), std::string::npos) << r.output;
  }
}

// Every command that takes --device refuses one below 0 before any work, naming the value and
// the limit (verify once skipped its CUDA backends and passed); on a machine with GPUs, verify
// also refuses a device that is not there.
TEST(CommandLine, EveryCommandRefusesANegativeDevice) {
  for (const auto& command : {std::vector<std::string>{"verify", "--n", "12", "--steps", "1"},
                              std::vector<std::string>{"convergence"}, std::vector<std::string>{"backends"},
                              std::vector<std::string>{"--n", "12", "--steps", "1", "--format", "none"}}) {
    auto args = command;
    args.insert(args.end(), {"--device", "-1"});
    const auto r = test::run_heatrk4(args);
    EXPECT_EQ(r.exit_code, 2) << command[0] << ": " << r.output;
    EXPECT_NE(r.output.find("--device -1 must be 0 or more"), std::string::npos) << command[0] << ": " << r.output;
    EXPECT_EQ(r.output.find("pass"), std::string::npos) << "verify ran:\n" << r.output;
  }
  if (gpu_count() == 0) return;
  const auto absent =
      test::run_heatrk4({"verify", "--n", "12", "--steps", "1", "--device", std::to_string(gpu_count())});
  EXPECT_EQ(absent.exit_code, 2) << absent.output;
  EXPECT_NE(absent.output.find("does not exist"), std::string::npos) << absent.output;
}

TEST(CommandLine, UnstableCflRunsWhenAskedExplicitly) {
  const auto result = test::run_heatrk4(
      {"--n", "12", "--order", "2", "--cfl", "0.69", "--steps", "1", "--backend", "cpu", "--format", "none"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  const auto unstable = test::run_heatrk4({"--n", "12", "--order", "2", "--cfl", "0.8", "--steps", "1", "--backend",
                                           "cpu", "--format", "none", "--allow-unstable"});
  EXPECT_EQ(unstable.exit_code, 0) << unstable.output;
}

TEST(CommandLine, CudaBackendWithoutGpuIsRefusedAndAutoFallsBack) {
  if (gpu_count() > 0) GTEST_SKIP() << "this machine has a GPU";
  const auto refused = test::run_heatrk4({"--n", "12", "--backend", "naive", "--format", "none"});
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  const char* reason = built_with_cuda() ? "needs a CUDA GPU" : "--backend naive is unknown";
  EXPECT_NE(refused.output.find(reason), std::string::npos) << refused.output;
  // Not CUDA's "driver version is insufficient" alone, which reads as "upgrade the driver".
  if (built_with_cuda())
    EXPECT_NE(refused.output.find("no NVIDIA GPU or driver was found"), std::string::npos) << refused.output;
  const auto fallback = test::run_heatrk4({"--n", "12", "--steps", "2", "--format", "none"});
  EXPECT_EQ(fallback.exit_code, 0) << fallback.output;
  EXPECT_NE(fallback.output.find("auto: no CUDA GPU, so cpu"), std::string::npos) << fallback.output;
}

TEST(CommandLine, CheckPassesOnCpuFloatAndWritesJson) {
  const std::string dir = test::temp_directory("json");
  const auto result = test::run_heatrk4({"--n", "20", "--steps", "3", "--init", "randn", "--backend", "cpu",
                                         "--check", "--format", "none", "--json", dir + "/run.json"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("PASS"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("ms/step"), std::string::npos) << result.output;
  FILE* f = std::fopen((dir + "/run.json").c_str(), "r");
  ASSERT_NE(f, nullptr);
  char buf[4096] = {};
  std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  EXPECT_NE(std::string(buf).find("\"pass\": true"), std::string::npos) << buf;
}

TEST(CommandLine, ConfigFileSetsOptions) {
  const std::string dir = test::temp_directory("config");
  const std::string config = dir + "/run.toml";
  FILE* f = std::fopen(config.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("n = 14\norder = 4\nsteps = 2\nbackend = \"cpu\"\nformat = \"none\"\n", f);
  std::fclose(f);
  const auto result = test::run_heatrk4({"--config", config});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("14 x 14 x 14 points"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("order 4"), std::string::npos) << result.output;
}

TEST(CommandLine, BackendsListsEveryBackend) {
  const auto result = test::run_heatrk4({"backends"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  for (const char* name : {"cpu", "auto"}) EXPECT_NE(result.output.find(name), std::string::npos) << name;
  // tiled's table of defaults is build data: printed with or without a GPU.
  if (built_with_cuda())
    EXPECT_NE(result.output.find("tiled: the default of each order and precision"), std::string::npos)
        << result.output;
}

}  // namespace
}  // namespace heat
