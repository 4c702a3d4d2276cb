// A restart continues the run that wrote the snapshot: order, precision, alpha and dt come from
// the file's /heatrk4 group unless an option overrides them (and the run says so), --restart F
// continues the series in F's directory, --init-file F alone means --init file, and every
// snapshot records the command line that made it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "io/compression.hpp"
#include "io/input_file.hpp"
#include "io/run_settings.hpp"
#include "io/series_files.hpp"
#include "test_support.hpp"

namespace heat {
namespace {

namespace fs = std::filesystem;
using test::run_heatrk4;

// Every setting away from its default, so a restart that fell back to a default shows.
std::vector<std::string> original_run(const std::string& output, int steps) {
  return {"--nx", "19", "--ny", "17", "--nz", "15", "--order", "4", "--precision", "double", "--alpha", "2",
          "--cfl", "0.1", "--init", "randn", "--seed", "5", "--backend", "cpu", "--steps", std::to_string(steps),
          "--output-every", "3", "--quiet", "--output", output};
}

void expect_mentions(const test::CommandResult& r, const std::string& text) {
  EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n" << r.output;
}

TEST(RestartSettings, RestartContinuesWithTheStoredSettingsAndEqualsTheWholeRunBitwise) {
  const std::string dir = test::temp_directory("restart-settings");
  ASSERT_EQ(run_heatrk4(original_run(dir + "/whole", 9)).exit_code, 0);
  const auto first = run_heatrk4(original_run(dir + "/split", 3));
  ASSERT_EQ(first.exit_code, 0) << first.output;

  // Nothing but the file, the steps and the backend: the rest comes from the snapshot, and
  // the output goes to the snapshot's own directory.
  const auto rest = run_heatrk4({"--restart", dir + "/split/heat_000003.hdf", "--steps", "6", "--output-every", "3",
                                 "--backend", "cpu", "--quiet"});
  ASSERT_EQ(rest.exit_code, 0) << rest.output;
  EXPECT_EQ(rest.output.find("overrides"), std::string::npos) << rest.output;

  const StoredRunSettings stored = read_stored_run_settings(dir + "/split/heat_000009.hdf");
  const StoredRunSettings original = read_stored_run_settings(dir + "/whole/heat_000009.hdf");
  EXPECT_EQ(stored.order, 4);
  EXPECT_EQ(stored.precision, "double");
  EXPECT_EQ(stored.alpha, 2.0);
  EXPECT_EQ(stored.dt, original.dt);
  const auto series = read_hdf_series_entries(dir + "/split/heat.hdf.series");
  ASSERT_EQ(series.size(), 4u);  // 0, 3 from the first run; 6, 9 from the restart
  EXPECT_EQ(series.back().step, 9);

  const auto same = run_heatrk4({"compare", dir + "/whole/heat_000009.hdf", dir + "/split/heat_000009.hdf", "--rtol",
                                 "0", "--atol", "0"});
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

// A restart that writes no snapshot at its start (--output-every 0: the final one only) keeps
// the one it started from in the series.
TEST(RestartSettings, TheSeriesKeepsTheSnapshotTheRestartStartedFrom) {
  const std::string dir = test::temp_directory("restart-start-entry");
  ASSERT_EQ(run_heatrk4(original_run(dir, 3)).exit_code, 0);
  const auto rest = run_heatrk4({"--restart", dir + "/heat_000003.hdf", "--steps", "2", "--output-every", "0",
                                 "--backend", "cpu", "--quiet"});
  ASSERT_EQ(rest.exit_code, 0) << rest.output;
  std::vector<int> steps;
  for (const auto& e : read_hdf_series_entries(dir + "/heat.hdf.series")) steps.push_back(e.step);
  EXPECT_EQ(steps, (std::vector<int>{0, 3, 5}));
}

TEST(RestartSettings, AnOptionOverridesTheStoredValueAndTheRunSaysSo) {
  const std::string dir = test::temp_directory("restart-override");
  ASSERT_EQ(run_heatrk4(original_run(dir, 3)).exit_code, 0);
  const auto r = run_heatrk4({"--restart", dir + "/heat_000003.hdf", "--order", "8", "--alpha", "1.5", "--steps", "1",
                              "--backend", "cpu", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  expect_mentions(r, "--order 8 overrides");
  expect_mentions(r, "order 4");
  expect_mentions(r, "--alpha 1.5 overrides");
  const StoredRunSettings stored = read_stored_run_settings(dir + "/heat_000004.hdf");
  EXPECT_EQ(stored.order, 8);
  EXPECT_EQ(stored.alpha, 1.5);
  EXPECT_EQ(stored.precision, "double");  // not overridden: still the snapshot's
  EXPECT_EQ(stored.dt, read_stored_run_settings(dir + "/heat_000003.hdf").dt);
}

// The summary on stdout and the --json summary list the overrides too, not only a note at the start.
// A snapshot's dt that a new order makes unstable is named as the file's, with what to give instead.
TEST(RestartSettings, AStoredDtTheNewOrderMakesUnstableIsNamedAsTheFiles) {
  const std::string dir = test::temp_directory("restart-unstable");
  std::vector<std::string> args = original_run(dir, 3);
  // cfl 0.6 at order 2 (stable up to 0.6963), unstable at order 8 (up to 0.4284).
  std::replace(args.begin(), args.end(), std::string("0.1"), std::string("0.6"));
  args[std::size_t(std::find(args.begin(), args.end(), "--order") - args.begin()) + 1] = "2";
  ASSERT_EQ(run_heatrk4(args).exit_code, 0);
  const auto r = run_heatrk4({"--restart", dir + "/heat_000003.hdf", "--order", "8", "--steps", "1", "--backend", "cpu"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  expect_mentions(r, "stored in " + dir + "/heat_000003.hdf (cfl 0.6; give --cfl or --dt for this run) is unstable for order 8");
  EXPECT_EQ(r.output.find("--dt 0"), std::string::npos) << r.output;
}

TEST(RestartSettings, TheSummaryAndTheJsonListTheOverrides) {
  const std::string dir = test::temp_directory("restart-override-summary");
  ASSERT_EQ(run_heatrk4(original_run(dir, 3)).exit_code, 0);
  const std::string json = dir + "/summary.json";
  const auto r = run_heatrk4({"--restart", dir + "/heat_000003.hdf", "--precision", "float", "--steps", "1",
                              "--backend", "cpu", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  expect_mentions(r, "  override  --precision float overrides the value stored in");
  std::ifstream in(json);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"overrides\": [\"--precision float overrides the value stored in"), std::string::npos) << text;
}

// Without --backend a restart steps on the backend its run stepped on (not auto's choice, which on a
// GPU machine would be tiled), and says where it came from; --backend chooses another, with a note.
TEST(RestartSettings, ARestartWithoutBackendStepsOnTheStoredOne) {
  const std::string dir = test::temp_directory("restart-backend");
  std::vector<std::string> args = original_run(dir, 3);
  args[std::size_t(std::find(args.begin(), args.end(), "--backend") - args.begin()) + 1] = "cpu_reference";
  ASSERT_EQ(run_heatrk4(args).exit_code, 0);
  const std::string json = dir + "/summary.json";
  const auto taken = run_heatrk4({"--restart", dir + "/heat_000003.hdf", "--steps", "1", "--json", json});
  ASSERT_EQ(taken.exit_code, 0) << taken.output;
  expect_mentions(taken, "backend   cpu_reference on host");
  expect_mentions(taken, "as stored in " + dir + "/heat_000003.hdf");
  EXPECT_EQ(taken.output.find("note:"), std::string::npos) << taken.output;
  EXPECT_NE(test::read_text(json).find("\"backend\": \"cpu_reference\""), std::string::npos) << test::read_text(json);
  EXPECT_EQ(read_stored_run_settings(dir + "/heat_000004.hdf").backend, "cpu_reference");

  const auto chosen = run_heatrk4({"--restart", dir + "/heat_000003.hdf", "--steps", "1", "--backend", "cpu"});
  ASSERT_EQ(chosen.exit_code, 0) << chosen.output;
  expect_mentions(chosen, "--backend cpu overrides the value stored in " + dir + "/heat_000003.hdf (backend cpu_reference)");
  expect_mentions(chosen, "backend   cpu on host");
}

TEST(RestartSettings, InitFileAloneMeansInitFile) {
  const std::string dir = test::temp_directory("init-file-alone");
  ASSERT_EQ(run_heatrk4(original_run(dir + "/a", 3)).exit_code, 0);
  const auto r = run_heatrk4(
      {"--init-file", dir + "/a/heat_000003.hdf", "--steps", "2", "--backend", "cpu", "--quiet", "--output", dir + "/b"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const LoadedField loaded = read_initial_field(dir + "/b/heat_000005.hdf");
  EXPECT_EQ(loaded.step, 5);
  EXPECT_FALSE(loaded.stored_as_float);
}

TEST(RestartSettings, RestartRefusesContradictoryOptions) {
  const std::string dir = test::temp_directory("restart-contradict");
  ASSERT_EQ(run_heatrk4(original_run(dir, 3)).exit_code, 0);
  const auto init = run_heatrk4({"--restart", dir + "/heat_000003.hdf", "--init", "gaussian", "--backend", "cpu"});
  EXPECT_EQ(init.exit_code, 2) << init.output;
  expect_mentions(init, "--init");
  const auto two = run_heatrk4({"--restart", dir + "/heat_000003.hdf", "--init-file", dir + "/heat_000000.hdf",
                                "--backend", "cpu"});
  EXPECT_EQ(two.exit_code, 2) << two.output;
}

TEST(RestartSettings, EverySnapshotRecordsItsCommandLine) {
  const std::string dir = test::temp_directory("command-line");
  const std::string output = dir + "/with space";
  const auto r = run_heatrk4(original_run(output, 3));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string line = read_stored_run_settings(output + "/heat_000003.hdf").command_line;
  EXPECT_NE(line.find("heatrk4 --nx 19 --ny 17"), std::string::npos) << line;
  EXPECT_NE(line.find("--output '" + output + "'"), std::string::npos) << line;  // quoted for the shell
}

// The snapshot a restart starts from is its input: the restart's own first snapshot, the same
// step in the same directory, is not written over it, so a restart that then fails (exit 3)
// leaves it as it was and the plain restart from it still runs.
TEST(RestartSettings, AFailedRestartLeavesTheSnapshotItStartedFromAsItWas) {
  const std::string dir = test::temp_directory("restart-keeps-start");
  ASSERT_EQ(run_heatrk4(original_run(dir, 3)).exit_code, 0);
  const std::string start = dir + "/heat_000003.hdf";
  const std::string bytes = test::read_text(start);
  ASSERT_FALSE(bytes.empty());
  const auto failed = run_heatrk4({"--restart", start, "--alpha", "40", "--allow-unstable", "--steps", "500",
                                   "--output-every", "50", "--backend", "cpu", "--quiet"});
  ASSERT_EQ(failed.exit_code, 3) << failed.output;
  expect_mentions(failed, "blew up");
  EXPECT_TRUE(test::read_text(start) == bytes) << "the snapshot the restart started from was rewritten";

  const auto plain = run_heatrk4({"--restart", start, "--steps", "3", "--backend", "cpu", "--quiet"});
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_EQ(plain.output.find("overrides"), std::string::npos) << plain.output;
  EXPECT_TRUE(test::read_text(start) == bytes) << "the snapshot the restart started from was rewritten";
  std::vector<int> steps;
  for (const auto& e : read_hdf_series_entries(dir + "/heat.hdf.series")) steps.push_back(e.step);
  EXPECT_EQ(steps, (std::vector<int>{0, 3, 6}));
}

// How often and in what formats the run wrote snapshots are its settings too: a restart given
// neither goes on as the run did, in every format's series; a given one overrides, with a note.
TEST(RestartSettings, ARestartGoesOnWithTheStoredOutputEveryAndFormat) {
  const std::string dir = test::temp_directory("restart-output-settings");
#ifdef HEAT_HAVE_VTK
  const std::string formats = "hdf5,vtk";
#else
  const std::string formats = "hdf5";
#endif
  auto first = original_run(dir, 4);
  *(std::find(first.begin(), first.end(), "--output-every") + 1) = "2";
  first.insert(first.end(), {"--format", formats});
  ASSERT_EQ(run_heatrk4(first).exit_code, 0);
  const StoredRunSettings stored = read_stored_run_settings(dir + "/heat_000004.hdf");
  EXPECT_EQ(stored.output_every, 2);
  EXPECT_EQ(stored.format, formats);

  const auto rest = run_heatrk4({"--restart", dir + "/heat_000004.hdf", "--steps", "4", "--backend", "cpu", "--quiet"});
  ASSERT_EQ(rest.exit_code, 0) << rest.output;
  EXPECT_EQ(rest.output.find("overrides"), std::string::npos) << rest.output;
  std::vector<int> steps;
  for (const auto& e : read_hdf_series_entries(dir + "/heat.hdf.series")) steps.push_back(e.step);
  EXPECT_EQ(steps, (std::vector<int>{0, 2, 4, 6, 8}));
#ifdef HEAT_HAVE_VTK
  EXPECT_EQ(read_pvd_entries(dir + "/heat.pvd").size(), 5u);
  EXPECT_TRUE(fs::exists(dir + "/heat_000006.vti"));
#endif

  const auto given = run_heatrk4({"--restart", dir + "/heat_000008.hdf", "--steps", "2", "--output-every", "0",
                                  "--format", "hdf5", "--backend", "cpu"});
  ASSERT_EQ(given.exit_code, 0) << given.output;
  expect_mentions(given, "--output-every 0 overrides the value stored in " + dir + "/heat_000008.hdf (output_every 2)");
#ifdef HEAT_HAVE_VTK
  expect_mentions(given, "--format hdf5 overrides the value stored in " + dir + "/heat_000008.hdf (format hdf5,vtk)");
#endif
  EXPECT_EQ(read_stored_run_settings(dir + "/heat_000010.hdf").output_every, 0);
}

// A restart of an hdf5-only run that adds .vti files: the start's .hdf holds the state and is not
// written again, but the start step's .vti is, so ParaView's series begins where the run does.
TEST(RestartSettings, ARestartThatAddsVtkWritesTheStartStepsVti) {
#ifdef HEAT_HAVE_VTK
  const std::string dir = test::temp_directory("restart-adds-vtk");
  auto first = original_run(dir, 4);
  *(std::find(first.begin(), first.end(), "--output-every") + 1) = "2";
  ASSERT_EQ(run_heatrk4(first).exit_code, 0);
  const std::string start = test::read_text(dir + "/heat_000002.hdf");
  const auto rest = run_heatrk4({"--restart", dir + "/heat_000002.hdf", "--steps", "2", "--format", "hdf5,vtk",
                                 "--backend", "cpu", "--quiet"});
  ASSERT_EQ(rest.exit_code, 0) << rest.output;
  EXPECT_TRUE(fs::exists(dir + "/heat_000002.vti")) << "the start step has no .vti";
  EXPECT_EQ(read_pvd_entries(dir + "/heat.pvd").size(), 2u);
  EXPECT_EQ(test::read_text(dir + "/heat_000002.hdf"), start) << "the start file was written again";
#else
  GTEST_SKIP() << "this build has no VTK";
#endif
}

// The snapshots' codec is a setting too: a restart given no --compress writes on with the stored
// one (ZFP where the build has it, else gzip), a given one overrides it with a note, and a stored
// ZFP codec with .vti files to write asks for --compress.
TEST(RestartSettings, ARestartGoesOnWithTheStoredCodec) {
  const std::string dir = test::temp_directory("restart-codec");
  const std::string codec = built_with_zfp() ? "zfp:reversible" : "gzip:3";
  auto first = original_run(dir, 4);
  first.insert(first.end(), {"--compress", codec});
  ASSERT_EQ(run_heatrk4(first).exit_code, 0);
  EXPECT_EQ(read_stored_run_settings(dir + "/heat_000003.hdf").compress, codec);

  const auto rest = run_heatrk4({"--restart", dir + "/heat_000003.hdf", "--steps", "3", "--backend", "cpu", "--quiet"});
  ASSERT_EQ(rest.exit_code, 0) << rest.output;
  EXPECT_EQ(rest.output.find("overrides"), std::string::npos) << rest.output;
  EXPECT_EQ(read_stored_run_settings(dir + "/heat_000006.hdf").compress, codec);

  const auto given = run_heatrk4({"--restart", dir + "/heat_000006.hdf", "--steps", "3", "--compress", "0",
                                  "--backend", "cpu"});
  ASSERT_EQ(given.exit_code, 0) << given.output;
  expect_mentions(given, "--compress 0 overrides the value stored in " + dir + "/heat_000006.hdf (compression " +
                             codec + ")");
  EXPECT_EQ(read_stored_run_settings(dir + "/heat_000009.hdf").compress, "0");
  // The file without a codec (--compress 0) carries none: the next restart writes uncompressed too.
  const auto plain = run_heatrk4({"--restart", dir + "/heat_000009.hdf", "--steps", "3", "--backend", "cpu", "--quiet"});
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_EQ(read_stored_run_settings(dir + "/heat_000012.hdf").compress, "0");
#ifdef HEAT_HAVE_VTK
  if (built_with_zfp()) {
    const auto vtk = run_heatrk4({"--restart", dir + "/heat_000006.hdf", "--steps", "3", "--format", "hdf5,vtk",
                                  "--output", dir + "/vtk", "--backend", "cpu", "--quiet"});
    EXPECT_EQ(vtk.exit_code, 2) << vtk.output;
    expect_mentions(vtk, "stores compression zfp:reversible: give --compress");
  }
#endif
}

}  // namespace
}  // namespace heat
