// A restart continues the series of the directory it starts from. When heat.hdf.series there is
// garbage, cut short or gone, the restart rebuilds it from the snapshots on disk (each holds its
// step and time) instead of writing a series of its own snapshots alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(SeriesRebuild, ARestartOverAGarbageCutOrMissingSeriesRebuildsItFromTheSnapshots) {
  const std::string original = test::temp_directory("series") + "/out";
  const auto first = run_heatrk4({"--backend", "cpu", "--n", "12", "--order", "2", "--init", "randn", "--steps", "4",
                                  "--output-every", "1", "--output", original, "--quiet"});
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const std::string series = read_text(original + "/heat.hdf.series");
  ASSERT_NE(series.find("heat_000004.hdf"), std::string::npos) << series;

  struct Case {
    const char* name;
    void (*damage)(const std::string& path, const std::string& text);
    bool noted;
  };
  const Case cases[] = {
      {"intact", [](const std::string&, const std::string&) {}, false},
      {"garbage", [](const std::string& path, const std::string&) { write_text(path, "{\"files\": [garbage\n"); },
       true},
      {"cut short", [](const std::string& path, const std::string& text) { write_text(path, text.substr(0, 120)); },
       true},
      {"missing", [](const std::string& path, const std::string&) { fs::remove(path); }, true},
  };
  for (const Case& c : cases) {
    const std::string dir = test::temp_directory("damaged") + "/out";
    fs::copy(original, dir);
    c.damage(dir + "/heat.hdf.series", series);
    // Steps 2 to 4 again, each a snapshot: the whole series is then the first run's, byte for byte.
    const auto restart = run_heatrk4({"--restart", dir + "/heat_000002.hdf", "--steps", "2", "--output-every", "1",
                                      "--quiet"});
    ASSERT_EQ(restart.exit_code, 0) << c.name << ":\n" << restart.output;
    EXPECT_EQ(read_text(dir + "/heat.hdf.series"), series) << c.name;
    EXPECT_EQ(restart.output.find("heat.hdf.series") != std::string::npos, c.noted) << c.name << ":\n"
                                                                                    << restart.output;
  }
}

}  // namespace
// A restart that went back (from step 2, one step: the series lists 0, 2, 3) and then one from a
// snapshot of the first history it dropped (step 4): its series must not play both histories as
// one (0, 2, 3, 6). It starts again at the start, and says so.
TEST(SeriesRebuild, ARestartFromASnapshotTheSeriesNoLongerListsStartsTheSeriesThere) {
  const std::string dir = test::temp_directory("rewound") + "/out";
  const std::vector<std::string> cpu = {"--backend", "cpu", "--quiet"};
  const auto with_cpu = [&](std::vector<std::string> args) {
    args.insert(args.end(), cpu.begin(), cpu.end());
    return run_heatrk4(args);
  };
  ASSERT_EQ(with_cpu({"--n", "12", "--order", "2", "--steps", "6", "--output-every", "2", "--output", dir}).exit_code, 0);
  ASSERT_EQ(with_cpu({"--restart", dir + "/heat_000002.hdf", "--steps", "1"}).exit_code, 0);
  ASSERT_NE(read_text(dir + "/heat.hdf.series").find("heat_000003.hdf"), std::string::npos);
  const auto again = with_cpu({"--restart", dir + "/heat_000004.hdf", "--steps", "2"});
  ASSERT_EQ(again.exit_code, 0) << again.output;
  const std::string series = read_text(dir + "/heat.hdf.series");
  EXPECT_EQ(series.find("heat_000003.hdf"), std::string::npos) << "two histories in one series:\n" << series;
  EXPECT_EQ(series.find("heat_000002.hdf"), std::string::npos) << series;
  EXPECT_NE(series.find("heat_000004.hdf"), std::string::npos) << series;
  EXPECT_NE(series.find("heat_000006.hdf"), std::string::npos) << series;
  EXPECT_NE(again.output.find("the series starts again at step 4"), std::string::npos) << again.output;
}

// A series file that is a directory is refused before the restart does anything, naming it.
TEST(SeriesRebuild, ASeriesThatIsADirectoryIsRefusedBeforeAnyWork) {
  const std::string dir = test::temp_directory("series-dir") + "/out";
  ASSERT_EQ(run_heatrk4({"--backend", "cpu", "--n", "12", "--order", "2", "--steps", "2", "--output-every", "1",
                         "--output", dir, "--quiet"})
                .exit_code,
            0);
  fs::remove(dir + "/heat.hdf.series");
  fs::create_directory(dir + "/heat.hdf.series");
  const auto r = run_heatrk4({"--restart", dir + "/heat_000002.hdf", "--steps", "1", "--backend", "cpu", "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("heat.hdf.series is not a file"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir + "/heat_000003.hdf")) << "the restart ran";
}

}  // namespace heat
