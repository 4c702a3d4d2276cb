// The command line and --config, as a new user meets them (issue 24): every bad value or file is
// exit 2 with a message naming it, and the forms the README shows work.
#include <gtest/gtest.h>

#include <fstream>

#include "test_support.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

// A small cpu job that writes nothing unless asked.
std::vector<std::string> small_run(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--steps", "1", "--backend", "cpu", "--quiet"};
  if (std::find(extra.begin(), extra.end(), "--output") == extra.end()) args.insert(args.end(), {"--format", "none"});
  if (std::find(extra.begin(), extra.end(), "--n") == extra.end()) args.insert(args.end(), {"--n", "12"});
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

class ConfigFile : public ::testing::Test {
 protected:
  std::string dir = test::temp_directory("config");
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
};

TEST(Modes, ThreeIntegersOnTheCommandLineAndInTomlGiveTheSameField) {
  const std::string dir = test::temp_directory("modes");
  const auto cli = run_heatrk4(small_run({"--init", "sine", "--modes", "1", "2", "1", "--output", dir + "/cli"}));
  ASSERT_EQ(cli.exit_code, 0) << cli.output;
  const std::string config = dir + "/modes.toml";
  std::ofstream(config) << "init = \"sine\"\nmodes = [1, 2, 1]\n";
  const auto toml = run_heatrk4(small_run({"--config", config, "--output", dir + "/toml"}));
  ASSERT_EQ(toml.exit_code, 0) << toml.output;
  const auto other = run_heatrk4(small_run({"--init", "sine", "--modes", "1", "1", "1", "--output", dir + "/other"}));
  ASSERT_EQ(other.exit_code, 0) << other.output;
  const std::string file = "/heat_000001.hdf";
  EXPECT_EQ(run_heatrk4({"compare", dir + "/cli" + file, dir + "/toml" + file, "--rtol", "0", "--atol", "0"}).exit_code, 0);
  // The modes are used: (1, 2, 1) is not (1, 1, 1).
  EXPECT_EQ(run_heatrk4({"compare", dir + "/cli" + file, dir + "/other" + file}).exit_code, 1);
  const auto two = run_heatrk4(small_run({"--init", "sine", "--modes", "1", "2"}));
  EXPECT_EQ(two.exit_code, 2) << two.output;
}

TEST(GridSize, AProductThatWrapsIsRefusedWithTheValueAndTheLimit) {
  const auto r = run_heatrk4(small_run({"--nx", "4194304", "--ny", "2097152", "--nz", "2097152"}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "4194304 x 2097152 x 2097152 = 18446744073709551616 points");
  expect_mentions(r, "more than 18014398509481983");
  const auto cube = run_heatrk4(small_run({"--n", "2097152"}));
  EXPECT_EQ(cube.exit_code, 2) << cube.output;
  expect_mentions(cube, "points is more than");
}

TEST_F(ConfigFile, AGoodFileRuns) {
  const auto r = run_heatrk4(small_run({"--config", write("good.toml", "# a comment\nn = 10  # points\nsteps = 2\n"
                                                                       "init = 'randn'\nseed = 7\ncheck = true\n")}));
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST_F(ConfigFile, OneFileAtMost) {
  const std::string good = write("good.toml", "n = 10\nsteps = 2\n");
  const auto r = run_heatrk4(small_run({"--config", good, "--config", good}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "--config is given 2 times: give one file");
}

struct BadConfig {
  std::string text, must_mention;
};
class BadConfigFile : public ConfigFile, public ::testing::WithParamInterface<BadConfig> {};

TEST_P(BadConfigFile, ExitsTwoNamingTheFileLineAndKey) {
  const std::string path = write("bad.toml", GetParam().text);
  const auto r = run_heatrk4(small_run({"--config", path}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "--config " + path + " line ");
  expect_mentions(r, GetParam().must_mention);
}

INSTANTIATE_TEST_SUITE_P(
    Refused, BadConfigFile,
    ::testing::Values(BadConfig{"n = 12\nbogus_key = 1\n", "line 2: unknown key 'bogus_key'"},
                      BadConfig{"output_every = 2\n", "line 1: unknown key 'output_every' (did you mean 'output-every'?)"},
                      BadConfig{"Some notes about a run.\nNot TOML at all.\n", "line 1: 'Some notes about a run.' is not"},
                      BadConfig{std::string("\x89HDF\r\n\x1a\n\0\0\0", 11), "line 2: byte 0x1a is not text"},
                      BadConfig{"n = 12\n\nsteps =\n", "line 3: key steps has no value"},
                      BadConfig{"steps = ten\n", "line 1: key steps: "},
                      BadConfig{"modes = [1, 2,\n  3\n", "line 1: key modes: the array"},
                      BadConfig{"output = \"dir\n", "line 1: key output: the string"},
                      BadConfig{"[run]\nn = 12\n", "line 1: section '[run]'"},
                      BadConfig{"n = 12\nn = 14\n", "line 2: key n is given twice (also on line 1)"},
                      BadConfig{"config = \"other.toml\"\n", "line 1: unknown key 'config'"},
                      BadConfig{"seed = -5\n", "line 1: key seed: --seed: -5 is not a seed"}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

TEST_F(ConfigFile, AnHdf5SnapshotIsNotAConfig) {
  const std::string out = dir + "/run";
  ASSERT_EQ(run_heatrk4(small_run({"--output", out})).exit_code, 0);
  const auto r = run_heatrk4(small_run({"--config", out + "/heat_000001.hdf"}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "is not text");
}

struct BadValue {
  std::vector<std::string> args;
  std::string must_mention;
};
class BadValueLine : public ::testing::TestWithParam<BadValue> {};

TEST_P(BadValueLine, ExitsTwoNamingTheValue) {
  const auto r = run_heatrk4(GetParam().args);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, GetParam().must_mention);
  EXPECT_LT(r.output.size(), 400u) << "a short message, not a 309-digit limit:\n" << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Refused, BadValueLine,
    ::testing::Values(BadValue{small_run({"--check", "--rtol", "-1"}), "--rtol: -1 is not a tolerance"},
                      BadValue{small_run({"--check", "--rtol", "nan"}), "--rtol: nan is not a tolerance"},
                      BadValue{small_run({"--check", "--atol", "inf"}), "--atol: inf is not a tolerance"},
                      BadValue{{"compare", "a.hdf", "b.hdf", "--rtol", "-1"}, "--rtol: -1 is not a tolerance"},
                      BadValue{{"compare", "a.hdf", "b.hdf", "--atol", "nan"}, "--atol: nan is not a tolerance"},
                      BadValue{small_run({"--init", "randn", "--seed", "-5"}), "--seed: -5 is not a seed"},
                      BadValue{small_run({"--init", "randn", "--seed", "99999999999999999999999"}),
                               "--seed: 99999999999999999999999 is not a seed"},
                      BadValue{small_run({"--nx", "-2147483647"}), "--nx -2147483647 must be a positive number"},
                      BadValue{small_run({"--nz", "-1"}), "--nz -1 must be a positive number"},
                      BadValue{{"--n", "0", "--format", "none"}, "--n 0 must be a positive number"}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

TEST(Seed, TheLargestUint64IsTaken) {
  const auto r = run_heatrk4(small_run({"--init", "randn", "--seed", "18446744073709551615"}));
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST(Help, RunHelpListsTheRunOptionsAndShortHWorks) {
  for (const std::vector<std::string> args : {std::vector<std::string>{"run", "--help"}, {"run", "-h"}, {"-h"}, {"--help"}}) {
    const auto r = run_heatrk4(args);
    EXPECT_EQ(r.exit_code, 0) << args.back() << ":\n" << r.output;
    expect_mentions(r, "--steps");
    expect_mentions(r, "--init-file");
  }
}

TEST(Help, NamesTheExitCodesAndRestart) {
  const auto r = run_heatrk4({"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  expect_mentions(r, "Exit codes: 0 success; 1 a --check or compare found a mismatch; 2 invalid input");
  expect_mentions(r, "3 a failure while running");
  expect_mentions(r, "Restart: --restart F.hdf");
  expect_mentions(r, "--overwrite lets a new run replace");
}

}  // namespace
}  // namespace heat
