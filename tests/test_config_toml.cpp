// --config FILE.toml is TOML (toml++): strings decoded, booleans and numbers typed, arrays for the
// options of several values, and the file itself checked before it is read (a device, a FIFO, a
// huge file, one that cannot be opened). The values refused for their type or their TOML are
// test_input_validation.cpp's BadConfigFile cases.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/hdf5_snapshot.hpp"
#include "io/input_file.hpp"
#include "io/vtk_snapshot.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output.substr(0, 2000);
}

class TomlConfig : public ::testing::Test {
 protected:
  std::string dir = test::temp_directory("toml");
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  // A small cpu run of `config`; `extra` words after it.
  test::CommandResult run(const std::string& config, std::vector<std::string> extra = {},
                          const std::string& prefix = "") {
    std::vector<std::string> args = {"--config", config, "--steps", "1", "--backend", "cpu"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_heatrk4(args, prefix);
  }
};

bool exists(const std::string& path) { return std::filesystem::exists(path); }

TEST_F(TomlConfig, StringsAreDecodedAndAHashInAStringIsNoComment) {
  if (!built_with_hdf5()) GTEST_SKIP() << "no HDF5 in this build";
  const std::string text =
      "n = 12 # points\nformat = \"hdf5\"\noutput = \"" + dir + "/a#b\"  # a comment\nbackend = \"\\u0063pu\"\n";
  const auto hash = run(write("hash.toml", text), {"--quiet"});
  ASSERT_EQ(hash.exit_code, 0) << hash.output;
  EXPECT_TRUE(exists(dir + "/a#b/heat_000001.hdf")) << "the snapshot is not in a#b";
  EXPECT_FALSE(exists(dir + "/\"a")) << "the string was cut at its '#'";

  const auto tab = run(write("tab.toml", "n = 12\noutput = \"" + dir + "/o\\tut\"\n"), {"--quiet"});
  ASSERT_EQ(tab.exit_code, 0) << tab.output;
  EXPECT_TRUE(exists(dir + "/o\tut/heat_000001.hdf")) << "\\t was not decoded to a tab";
  // A line-ending backslash in a """string""" skips the line break and the spaces after it.
  const auto joined =
      run(write("joined.toml", "n = 12\noutput = \"\"\"" + dir + "/\\\n   \xC3\xA9t\xC3\xA9\"\"\"\n"), {"--quiet"});
  ASSERT_EQ(joined.exit_code, 0) << joined.output;
  EXPECT_TRUE(exists(dir + "/\xC3\xA9t\xC3\xA9/heat_000001.hdf"));
  // A literal string keeps its backslash, as TOML says.
  const auto literal = run(write("literal.toml", "n = 12\noutput = '" + dir + "/x\\y'\n"), {"--quiet"});
  ASSERT_EQ(literal.exit_code, 0) << literal.output;
  EXPECT_TRUE(exists(dir + "/x\\y/heat_000001.hdf"));
}

TEST_F(TomlConfig, BooleansAreTomlBooleansOnly) {
  const auto on = run(write("on.toml", "n = 12\ninit = 'randn'\ncheck = true\nformat = 'none'\n"));
  ASSERT_EQ(on.exit_code, 0) << on.output;
  expect_mentions(on, "PASS");
  const auto off = run(write("off.toml", "n = 12\ncheck = false\nformat = 'none'\n"));
  ASSERT_EQ(off.exit_code, 0) << off.output;
  EXPECT_EQ(off.output.find("PASS"), std::string::npos) << off.output;
  for (const std::string value : {"True", "TRUE", "yes", "on"}) {
    const std::string path = write("capital.toml", "n = 12\ncheck = " + value + "\n");
    const auto r = run(path, {"--format", "none"});
    EXPECT_EQ(r.exit_code, 2) << value << ":\n" << r.output;
    expect_mentions(r, "--config " + path + " line 2: not TOML");
  }
}

TEST_F(TomlConfig, AnArrayGivesAnOptionOfSeveralValues) {
  if (!built_with_hdf5()) GTEST_SKIP() << "no HDF5 in this build";
  const auto one = run(write("one.toml", "n = 12\nformat = ['hdf5']\noutput = '" + dir + "/one'\n"), {"--quiet"});
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_TRUE(exists(dir + "/one/heat_000001.hdf"));
  // Both formats: as the command line's --format hdf5,vtk does, whether this build has VTK or not.
  const auto cli = run_heatrk4(
      {"--n", "12", "--steps", "1", "--backend", "cpu", "--quiet", "--format", "hdf5,vtk", "--output", dir + "/cli"});
  const auto both =
      run(write("both.toml", "n = 12\nformat = [\"hdf5\", \"vtk\"]\noutput = '" + dir + "/both'\n"), {"--quiet"});
  EXPECT_EQ(both.exit_code, cli.exit_code) << both.output << "\nthe command line:\n" << cli.output;
  EXPECT_EQ(both.exit_code, built_with_vtk() ? 0 : 2) << both.output;
  if (built_with_vtk())
    EXPECT_TRUE(exists(dir + "/both/heat_000001.vti"));
  else
    expect_mentions(both, "this build has no VTK");
}

// init = "uniform:T" is --init uniform:T: the field starts at T everywhere, and the snapshots and
// the summary record it; a temperature that is no number is exit 2 naming the file's line.
TEST_F(TomlConfig, AUniformInitialTemperatureIsTheCommandLines) {
  if (!built_with_hdf5()) GTEST_SKIP() << "no HDF5 in this build";
  const std::string out = dir + "/uniform";
  const auto r = run(write("uniform.toml", "n = 12\ninit = \"uniform:293.15\"\noutput-every = 1\noutput = '" + out + "'\n"),
                     {"--precision", "double", "--json", dir + "/uniform.json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  expect_mentions(r, "init uniform:293.15");
  EXPECT_NE(test::read_text(dir + "/uniform.json").find("\"init\": \"uniform:293.15\""), std::string::npos);
  const LoadedField start = read_initial_field(out + "/heat_000000.hdf");
  ASSERT_EQ(start.values.size(), std::size_t(12 * 12 * 12));
  for (double v : start.values.values()) ASSERT_EQ(v, 293.15);
  const auto bad = run(write("warm.toml", "n = 12\ninit = \"uniform:warm\"\nformat = 'none'\n"));
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  expect_mentions(bad, "warm.toml");
  expect_mentions(bad, "line 2");
  expect_mentions(bad, "warm is not a finite number");
}

// TOML's integers are integers whichever way they are written (0x0c, 1_2); a float is no integer.
TEST_F(TomlConfig, IntegersAreTomlIntegers) {
  for (const std::string n : {"0x0c", "1_2", "0o14", "0b1100", "+12"}) {
    const auto r = run(write("n.toml", "n = " + n + "\nformat = 'none'\n"));
    EXPECT_EQ(r.exit_code, 0) << n << ":\n" << r.output;
    expect_mentions(r, "12 x 12 x 12 points");
  }
  // Integers stop at 2^63-1 in TOML; a larger seed is given as a string of digits.
  const auto seed =
      run(write("seed.toml", "n = 12\ninit = 'randn'\nseed = \"18446744073709551615\"\nformat = 'none'\n"));
  EXPECT_EQ(seed.exit_code, 0) << seed.output;
  const auto alpha = run(write("alpha.toml", "n = 12\nalpha = 1\nformat = 'none'\n"), {"--quiet"});
  EXPECT_EQ(alpha.exit_code, 0) << alpha.output;
}

TEST_F(TomlConfig, AUtf8ByteOrderMarkIsAccepted) {
  const auto r = run(write("bom.toml", "\xEF\xBB\xBFn = 14\nformat = 'none'\n"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  expect_mentions(r, "14 x 14 x 14 points");
}

// The file is checked before it is read: nothing is read from a device, a FIFO or a huge file.
class UnreadConfig : public TomlConfig {
 protected:
  void expect_refused(const std::string& path, const std::string& why, const std::string& prefix = "") {
    // Bounded in time: the reader before these checks waited on a FIFO for ever and took minutes
    // over a long array.
    const auto r = run(path, {"--format", "none"}, prefix + " timeout 120");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    expect_mentions(r, "--config: " + why);
    EXPECT_LT(r.output.size(), 400u) << r.output;
  }
};

TEST_F(UnreadConfig, ADeviceIsRefusedUnread) {
  // Bounded in memory too (4 GiB of address space): the reader before this check read /dev/zero
  // until memory ran out. heatrk4 touches no GPU and no MPI before it parses its options.
  expect_refused("/dev/zero", "/dev/zero is a character device, not a regular file", "ulimit -v 4194304;");
}

TEST_F(UnreadConfig, AFifoIsRefusedUnopened) {
  const std::string fifo = dir + "/config.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(fifo, fifo + " is a FIFO (named pipe), not a regular file");
}

TEST_F(UnreadConfig, AMissingFileOrADirectorySaysWhich) {
  expect_refused(dir + "/missing.toml", "cannot read " + dir + "/missing.toml: No such file or directory");
  expect_refused(dir, dir + " is a directory");
}

TEST_F(UnreadConfig, AFileThatCannotBeOpenedSaysWhy) {
  const std::string path = write("private.toml", "n = 12\n");
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  // Root reads any file; without the capabilities that let it, root is refused as anyone else.
  const bool root = geteuid() == 0;
  if (root && std::system("setpriv --bounding-set=-dac_override,-dac_read_search true 2>/dev/null") != 0)
    GTEST_SKIP() << "running as root without setpriv, which could drop root's right to read any file";
  expect_refused(path, "cannot open " + path + ": Permission denied",
                 root ? "setpriv --bounding-set=-dac_override,-dac_read_search" : "");
}

TEST_F(UnreadConfig, AFileOverOneMebibyteIsRefusedUnread) {
  // Three million array items on one line (9 MB).
  std::string text = "modes = [";
  for (int n = 0; n < 3000000; ++n) text += "1, ";
  const std::string path = write("huge.toml", text + "1]\n");
  expect_refused(path, path + " is 9000012 bytes, more than the 1048576 (1 MiB) a config file may hold");
}

// Just under the limit, a long array is read once (toml++ is linear) and refused for its length.
TEST_F(TomlConfig, ALongArrayUnderTheLimitIsReadAndRefused) {
  std::string text = "modes = [";
  for (int n = 0; n < 300000; ++n) text += "1, ";
  const auto r = run(write("long.toml", text + "1]\n"), {"--format", "none"});
  EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 400);
  expect_mentions(r, "line 1: key modes takes an array of 3 whole numbers, not an array of 300001");
}

// A dotted key or a table header of half a million parts, just under the size limit: toml++
// recurses once per part, which overflowed the stack (a crash, exit 139); it is read and refused.
TEST_F(TomlConfig, AKeyOfHalfAMillionPartsIsReadAndRefused) {
  std::string dotted = "a", header = "[a";
  for (int n = 0; n < 520000; ++n) {
    dotted += ".a";
    header += ".a";
  }
  for (const std::string& text : {dotted + " = 1\n", header + "]\n"}) {
    const auto r = run(write("deep.toml", text), {"--format", "none"});
    EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 400);
    expect_mentions(r, "line 1: 'a' is a table");
  }
}

// The command line wins over the file where it says the same another way: --dt over the file's
// cfl (which together would be refused as both given), --n over its nx.
TEST_F(TomlConfig, TheCommandLinesOtherWayOfSayingAKeyWinsOverTheFile) {
  const std::string json = dir + "/run.json";
  const auto dt = run(write("cfl.toml", "cfl = 0.1\nn = 12\nformat = \"none\"\n"), {"--dt", "1e-5", "--json", json});
  ASSERT_EQ(dt.exit_code, 0) << dt.output;
  EXPECT_NE(test::read_text(json).find("\"dt\": 1.0000000000000001e-05"), std::string::npos) << test::read_text(json);
  const auto n = run(write("nx.toml", "nx = 12\nformat = \"none\"\n"), {"--n", "16", "--json", json});
  ASSERT_EQ(n.exit_code, 0) << n.output;
  EXPECT_NE(test::read_text(json).find("\"nx\": 16, \"ny\": 16, \"nz\": 16"), std::string::npos) << test::read_text(json);
  // And back: --cfl over the file's dt; another axis's option leaves the file's axis alone.
  const auto cfl = run(write("dt.toml", "dt = 1e-5\nn = 12\nformat = \"none\"\n"), {"--cfl", "0.01", "--json", json});
  ASSERT_EQ(cfl.exit_code, 0) << cfl.output;
  EXPECT_NE(test::read_text(json).find("\"cfl\": 0.01"), std::string::npos) << test::read_text(json);
  const auto axes = run(write("axes.toml", "n = 10\nnx = 12\nformat = \"none\"\n"), {"--ny", "14", "--json", json});
  ASSERT_EQ(axes.exit_code, 0) << axes.output;
  EXPECT_NE(test::read_text(json).find("\"nx\": 12, \"ny\": 14, \"nz\": 10"), std::string::npos) << test::read_text(json);
}

// A long value is shown by its first 60 bytes and its length, however it reaches a message.
TEST_F(TomlConfig, ALongValueIsNeverEchoedWhole) {
  const std::string long_text(1000000, 'x');
  for (const std::string line : {"precision = \"" + long_text + "\"", long_text + " = 1",
                                 "modes = \"" + long_text + "\"", "output = \"" + long_text + "\"",
                                 "json = \"" + long_text + "\"", "format = [\"hdf5\", \"" + long_text + "\"]"}) {
    const auto r = run(write("long.toml", line + "\n"), {"--n", "12"});
    EXPECT_EQ(r.exit_code, 2) << line.substr(0, 20) << ":\n" << r.output.substr(0, 2000);
    expect_mentions(r, "xxxxxxxxxx... (100000");
    EXPECT_LT(r.output.size(), 400u) << line.substr(0, 20) << ":\n" << r.output.substr(0, 2000);
  }
  // On the command line too, where one word may be up to 128 KiB.
  const std::string word(100000, 'y');
  for (const std::string option : {"--precision", "--output", "--json", "--init", "--format", "--h", "--n"}) {
    const auto r = run_heatrk4({"--n", "12", "--steps", "1", option, word});
    EXPECT_EQ(r.exit_code, 2) << option << ":\n" << r.output.substr(0, 2000);
    expect_mentions(r, std::string(60, 'y') + "... (100000 bytes)");
    EXPECT_LT(r.output.size(), 400u) << option << ":\n" << r.output.substr(0, 2000);
  }
}

}  // namespace
}  // namespace heat
