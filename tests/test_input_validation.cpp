// The command line and --config, as a new user meets them: every bad value or file is
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
                      BadConfig{"Some notes about a run.\nNot TOML at all.\n", "line 1: not TOML at column 6"},
                      BadConfig{std::string("\x89HDF\r\n\x1a\n\0\0\0", 11), "line 2: byte 0x1a is not text"},
                      BadConfig{"n = 12\n\nsteps =\n", "line 3: not TOML"},
                      BadConfig{"steps = ten\n", "line 1: not TOML"},
                      BadConfig{"modes = [1, 2,\n  3\n", "line 2: not TOML"},
                      BadConfig{"output = \"dir\n", "line 1: not TOML"},
                      BadConfig{"[run]\nn = 12\n", "line 1: 'run' is a table ([run]"},
                      BadConfig{"n = 12\nn = 14\n", "line 2: not TOML at column 5: Error while parsing key-value pair: "
                                                    "cannot redefine existing integer 'n'"},
                      BadConfig{"config = \"other.toml\"\n", "line 1: unknown key 'config'"},
                      BadConfig{"seed = -5\n", "line 1: key seed: --seed: -5 is not a seed"},
                      // TOML's own rules: no leading zero, no hex float (0x10 and 1_000 are integers).
                      BadConfig{"n = 016\n", "line 1: not TOML at column 8: Error while parsing decimal integer: "
                                             "leading zeroes are prohibited"},
                      BadConfig{"seed = 010\n", "line 1: not TOML"},
                      BadConfig{"dt = 0x1p-3\n", "line 1: not TOML"},
                      BadConfig{"h = nan\n", "line 1: key h: --h: nan is not a decimal number"},
                      BadConfig{"json = \"\"\n", "line 1: key json: the value is empty"},
                      BadConfig{"output = ''\n", "line 1: key output: the value is empty"},
                      // TOML's types: each option takes its own (config_file.hpp).
                      BadConfig{"n = 12.0\n", "line 1: key n takes a whole number, not the float 12.0"},
                      BadConfig{"steps = 1e1\n", "line 1: key steps takes a whole number, not the float 10.0"},
                      BadConfig{"n = '12'\n", "line 1: key n takes a whole number, not the string \"12\""},
                      BadConfig{"n = [12]\n", "line 1: key n takes a whole number, not an array"},
                      BadConfig{"alpha = '1'\n", "line 1: key alpha takes a number, not the string \"1\""},
                      BadConfig{"output = 5\n", "line 1: key output takes a string, not the integer 5"},
                      BadConfig{"output = true\n", "line 1: key output takes a string, not the boolean true"},
                      BadConfig{"check = 'true'\n", "line 1: key check takes true or false, not the string \"true\""},
                      BadConfig{"check = 1\n", "line 1: key check takes true or false, not the integer 1"},
                      BadConfig{"n = 12\ncheck = [true]\n", "line 2: key check takes true or false, not an array"},
                      BadConfig{"modes = 1\n", "line 1: key modes takes an array of 3 whole numbers, not the integer 1"},
                      BadConfig{"modes = [1, 2]\n",
                                "line 1: key modes takes an array of 3 whole numbers, not an array of 2"},
                      BadConfig{"modes = [1, 2.5, 1]\n",
                                "line 1: key modes takes an array of 3 whole numbers, not an array "
                                "whose item 2 is the float 2.5"},
                      BadConfig{"format = []\n", "line 1: key format: the array is empty"},
                      BadConfig{"format = ['hdf5', 1]\n",
                                "line 1: key format takes a string or an array of strings, not an "
                                "array whose item 2 is the integer 1"},
                      BadConfig{"format = ['hdf5', '']\n", "line 1: key format: item 2 of the array is empty"},
                      BadConfig{"n = 1979-05-27\n", "line 1: key n takes a whole number, not a date"},
                      BadConfig{"n = { x = 1 }\n", "line 1: 'n' is a table"},
                      BadConfig{"run.n = 12\n", "line 1: 'run' is a table"},
                      BadConfig{"output = \"a\\u0000b\"\n", "line 1: key output: the value holds a NUL character"},
                      BadConfig{"h = inf\n", "line 1: key h: --h: inf is not a decimal number"},
                      BadConfig{"seed = 18446744073709551615\n", "line 1: not TOML at column"},
                      BadConfig{"n = 12\n\"--n\" = 12\n", "line 2: unknown key '--n'"},
                      BadConfig{"n = 12\nN = 12\n", "line 2: unknown key 'N'"},
                      // toml++ 3.3 met these with undefined behaviour (config_toml.cpp says how it is kept off).
                      BadConfig{"\xC3\xA9t\xC3\xA9 = 1\n", "line 1: not TOML at column 1"},
                      BadConfig{"n = 12\xC2\xA7\n", "line 1: not TOML at column 7"},
                      BadConfig{"\xEF\xBB\x9Fn = 12\n", "line 1: not TOML at column 1"},
                      BadConfig{" [\t*t]\n", "line 1: not TOML at column 4"},
                      BadConfig{"[[[n]]]\n", "line 1: not TOML"}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

// A value that parses but that the run's plan refuses names the file, the line and the key too.
// The command line gives nothing the file sets, so the file's values are the ones checked.
class PlanRefusedConfigValue : public ConfigFile, public ::testing::WithParamInterface<BadConfig> {};

TEST_P(PlanRefusedConfigValue, ExitsTwoNamingTheFileLineAndKey) {
  const std::string path = write("plan.toml", GetParam().text);
  const auto r = run_heatrk4({"--config", path, "--backend", "cpu", "--format", "none", "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "--config " + path + " " + GetParam().must_mention);
}

INSTANTIATE_TEST_SUITE_P(
    Refused, PlanRefusedConfigValue,
    ::testing::Values(BadConfig{"n = 12\nsteps = 0\n", "line 2: key steps: --steps 0 must be at least 1"},
                      BadConfig{"order = 3\n", "line 1: key order: --order 3 is not supported"},
                      BadConfig{"steps = 1\nn = 4\n", "line 2: key n: --n 4 is too small for order 8"},
                      BadConfig{"n = 12\nnx = 5\n", "line 2: key nx: --nx 5 is too small for order 8"},
                      BadConfig{"cfl = 0.9\n", "line 1: key cfl: --cfl 0.9 is unstable for order 8"},
                      BadConfig{"alpha = -1\n", "line 1: key alpha: --alpha -1 must be a positive number"},
                      BadConfig{"h = 0\n", "line 1: key h: --h 0 must be a positive number"},
                      BadConfig{"hy = -2\n", "line 1: key hy: --hy -2 must be a positive number"},
                      BadConfig{"precision = 'half'\n", "line 1: key precision: --precision half is not one of"},
                      BadConfig{"init = 'noise'\n", "line 1: key init: --init noise is not one of"},
                      BadConfig{"init = 'sine'\nmodes = [1, 0, 1]\n", "line 2: key modes: --modes 0 must be"},
                      BadConfig{"compress = 12\n", "line 1: key compress: --compress 12 must be a gzip level"},
                      BadConfig{"output-every = -1\n", "line 1: key output-every: --output-every -1 must be"},
                      BadConfig{"snapshot-buffers = 99\n", "line 1: key snapshot-buffers: --snapshot-buffers 99"},
                      BadConfig{"n = 300000\n", "line 1: key n: --n: 300000 x 300000 x 300000"}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

TEST_F(ConfigFile, AValueTheCommandLineGivesIsTheCommandLinesAlone) {
  const std::string path = write("steps.toml", "n = 12\nsteps = 0\n");
  const auto cli_refused = run_heatrk4({"--config", path, "--steps", "0", "--backend", "cpu", "--format", "none"});
  EXPECT_EQ(cli_refused.exit_code, 2) << cli_refused.output;
  expect_mentions(cli_refused, "--steps 0 must be at least 1");
  EXPECT_EQ(cli_refused.output.find("--config"), std::string::npos) << cli_refused.output;
  const auto cli_wins = run_heatrk4({"--config", path, "--steps", "1", "--backend", "cpu", "--format", "none", "-q"});
  EXPECT_EQ(cli_wins.exit_code, 0) << cli_wins.output;
}

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
                      BadValue{small_run({"--init", "uniform:warm"}), "--init uniform:warm: warm is not a finite number"},
                      BadValue{small_run({"--init", "uniform:inf"}), "--init uniform:inf: inf is not a finite number"},
                      BadValue{small_run({"--init", "randn", "--seed", "-5"}), "--seed: -5 is not a seed"},
                      BadValue{small_run({"--init", "randn", "--seed", "99999999999999999999999"}),
                               "--seed: 99999999999999999999999 is not a seed"},
                      BadValue{small_run({"--nx", "-2147483647"}), "--nx -2147483647 must be a positive number"},
                      BadValue{small_run({"--nz", "-1"}), "--nz -1 must be a positive number"},
                      BadValue{{"--n", "0", "--format", "none"}, "--n 0 must be a positive number"},
                      // Numbers are decimal: CLI11 alone reads 010 as 8, 0x10 as 16 and 0x1p3 as 8.
                      BadValue{small_run({"--steps", "010"}), "--steps: 010 has a leading zero, which can mean octal: write 10"},
                      BadValue{small_run({"--n", "016"}), "--n: 016 has a leading zero"},
                      BadValue{small_run({"--n", "0x10"}), "--n: 0x10 is not a whole number in decimal digits"},
                      BadValue{small_run({"--init", "randn", "--seed", "010"}), "--seed: 010 has a leading zero"},
                      BadValue{small_run({"--init", "randn", "--seed", "09"}), "--seed: 09 has a leading zero"},
                      BadValue{small_run({"--modes", "1", "0x2", "1"}), "--modes: 0x2 is not a whole number"},
                      BadValue{small_run({"--cfl", "0x1p-5"}), "--cfl: 0x1p-5 is not a decimal number"},
                      BadValue{{"verify", "--steps", "010"}, "--steps: 010 has a leading zero"},
                      BadValue{{"verify", "--n", "0x10"}, "--n: 0x10 is not a whole number"},
                      // verify's cfl is refused as a run's is.
                      BadValue{{"verify", "--cfl", "0"}, "--cfl 0 must be a positive number"},
                      BadValue{{"verify", "--cfl", "0.6"}, "--cfl 0.6 is unstable for order 4"},
                      BadValue{{"convergence", "--device", "0x1"}, "--device: 0x1 is not a whole number"},
                      // NaN is no spacing, not "the default spacing".
                      BadValue{small_run({"--h", "nan"}), "--h: nan is not a decimal number"},
                      BadValue{small_run({"--hx", "nan"}), "--hx: nan is not a decimal number"},
                      // A seed is a uint64 in decimal for verify as for a run.
                      BadValue{{"verify", "--seed", "-1"}, "--seed: -1 is not a seed"},
                      BadValue{{"verify", "--seed", "18446744073709551616"}, "--seed: 18446744073709551616 is not a seed"},
                      // An empty value is no value.
                      BadValue{small_run({"--json", ""}), "--json: the value is empty"},
                      BadValue{small_run({"--config", ""}), "--config: the value is empty"},
                      BadValue{small_run({"--output", ""}), "--output: the value is empty"},
                      BadValue{small_run({"--n", ""}), "--n: the value is empty"},
                      BadValue{small_run({"--restart", ""}), "--restart: the value is empty"},
                      BadValue{{"verify", "--halo-exchange", ""}, "--halo-exchange: the value is empty"},
                      BadValue{{"compare", "", "b.hdf"}, "A: the value is empty"},
                      BadValue{{"convergence", "--csv", ""}, "--csv: the value is empty"},
                      // verify sizes its fields before making them, as a run does.
                      BadValue{{"verify", "--n", "3000"}, "verify --n 3000 needs about"},
                      BadValue{{"verify", "--n", "3000"}, "bytes of host memory but"},
                      BadValue{{"verify", "--n", "2097152"}, "--n: 2097152 x 2097152 x 2097152"}),
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
  expect_mentions(r, "Exit codes: 0 success; 1 a --check, verify or compare found a mismatch; 2 invalid input");
  expect_mentions(r, "3 a failure while running");
  expect_mentions(r, "Restart: --restart F.hdf");
  expect_mentions(r, "--overwrite lets a new run replace");
}

}  // namespace
}  // namespace heat
