// --probe, --monitor-every and heatrk4 plot through the binary (docs/design.md §3, "End time and
// monitors"): the CSV beside the snapshots and named in the summary, a probe outside refused with
// the domain's bounds, a restart that appends, TOML's array of probes, and the plot's PNG.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace heat {
namespace {

using test::run_heatrk4;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> insulated_run(const std::string& dir, std::vector<std::string> more) {
  std::vector<std::string> args = {"--n", "12", "--order", "2", "--bc", "insulated", "--precision", "double",
                                   "--output", dir};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(MonitorOptions, TheCsvHasARowEveryKStepsAndAtTheEndAndTheSummaryNamesIt) {
  const std::string dir = test::temp_directory("monitor_rows");
  const auto r = run_heatrk4(insulated_run(dir, {"--steps", "23", "--monitor-every", "5", "--probe", "0.5,0.5,0.5",
                                                 "--probe", "0.2,0.3,0.4", "--format", "none"}));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string csv = dir + "/monitors.csv";
  EXPECT_NE(r.output.find("monitors  " + csv), std::string::npos) << r.output;
  const auto lines = lines_of(test::read_text(csv));
  ASSERT_EQ(lines.size(), 1u + 6u);  // the header, steps 0, 5, 10, 15, 20 and 23
  EXPECT_EQ(lines[0],
            "step,time,probe(0.5 0.5 0.5),probe(0.2 0.3 0.4),min,max,mean,total_heat,heat_in_x_low,heat_in_x_high,"
            "heat_in_y_low,heat_in_y_high,heat_in_z_low,heat_in_z_high");
  EXPECT_EQ(lines[6].rfind("23,", 0), 0u) << lines[6];
  for (std::size_t n = 1; n < lines.size(); ++n)
    EXPECT_EQ(std::count(lines[n].begin(), lines[n].end(), ','), 13) << lines[n];
}

TEST(MonitorOptions, AProbeOutsideTheDomainIsExit2WithTheBounds) {
  const std::string dir = test::temp_directory("monitor_outside");
  const auto r = run_heatrk4(insulated_run(dir, {"--probe", "0.5,1.2,0.5"}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--probe 0.5,1.2,0.5 lies outside the domain"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("y in ["), std::string::npos) << r.output;
  EXPECT_FALSE(std::ifstream(dir + "/monitors.csv").good());
  const auto odd = run_heatrk4(insulated_run(dir, {"--probe", "0.5,0.5"}));
  EXPECT_EQ(odd.exit_code, 2) << odd.output;
  const auto negative = run_heatrk4(insulated_run(dir, {"--monitor-every", "-1"}));
  EXPECT_EQ(negative.exit_code, 2) << negative.output;
}

// The restart from step 10 keeps the rows before it, writes its own from there (one header), and
// ends with the rows the whole run has.
TEST(MonitorOptions, ARestartAppendsToTheCsvAndDropsTheRowsFromItsStartOn) {
  const std::string whole = test::temp_directory("monitor_whole"), parts = test::temp_directory("monitor_parts");
  const std::vector<std::string> monitors = {"--monitor-every", "4", "--probe", "0.4,0.5,0.6", "--output-every", "10"};
  auto args = insulated_run(whole, monitors);
  args.insert(args.end(), {"--steps", "30", "--quiet"});
  ASSERT_EQ(run_heatrk4(args).exit_code, 0);
  args = insulated_run(parts, monitors);
  args.insert(args.end(), {"--steps", "20", "--quiet"});
  ASSERT_EQ(run_heatrk4(args).exit_code, 0);
  const auto restart = run_heatrk4({"--restart", parts + "/heat_000010.hdf", "--steps", "20", "--quiet"});
  ASSERT_EQ(restart.exit_code, 0) << restart.output;
  const auto lines = lines_of(test::read_text(parts + "/monitors.csv"));
  std::vector<std::string> steps;
  for (const std::string& line : lines) steps.push_back(line.substr(0, line.find(',')));
  // The restart's own rows: its start, every 4 steps from there, its end.
  const std::vector<std::string> expected = {"step", "0", "4", "8", "10", "14", "18", "22", "26", "30"};
  EXPECT_EQ(steps, expected);
  // Its last row's values are the whole run's, bitwise (the same steps from the same field; the
  // times are sums of other roundings).
  const auto values = [](const std::string& row) { return row.substr(row.find(',', row.find(',') + 1)); };
  EXPECT_EQ(values(lines.back()), values(lines_of(test::read_text(whole + "/monitors.csv")).back()));
}

// A restart keeps only rows of the run it continues: from a snapshot whose run wrote no monitors, a
// monitors.csv in its directory (put back there by hand, or left by another program) is another
// run's, and the restart's file starts at its own start.
TEST(MonitorOptions, ARestartFromARunWithoutMonitorsKeepsNoEarlierRows) {
  const std::string dir = test::temp_directory("monitor_not_continued");
  const std::vector<std::string> probe = {"--probe", "0.4,0.5,0.6", "--monitor-every", "4"};
  auto args = insulated_run(dir, probe);
  args.insert(args.end(), {"--steps", "20", "--output-every", "10", "--quiet"});
  ASSERT_EQ(run_heatrk4(args).exit_code, 0);
  const std::string other_runs = test::read_text(dir + "/monitors.csv");
  args = insulated_run(dir, {"--steps", "20", "--output-every", "10", "--init", "randn", "--overwrite", "--quiet"});
  ASSERT_EQ(run_heatrk4(args).exit_code, 0);
  std::ofstream(dir + "/monitors.csv") << other_runs;
  args = {"--restart", dir + "/heat_000010.hdf", "--steps", "8", "--quiet"};
  args.insert(args.end(), probe.begin(), probe.end());
  const auto restart = run_heatrk4(args);
  ASSERT_EQ(restart.exit_code, 0) << restart.output;
  std::vector<std::string> steps;
  for (const std::string& line : lines_of(test::read_text(dir + "/monitors.csv")))
    steps.push_back(line.substr(0, line.find(',')));
  EXPECT_EQ(steps, (std::vector<std::string>{"step", "10", "14", "18"}));
}

TEST(MonitorOptions, ATomlArrayOfProbesIsTheCommandLinesRepeatedProbe) {
  const std::string dir = test::temp_directory("monitor_toml");
  std::ofstream(dir + "/run.toml") << "probe = [\"0.5,0.5,0.5\", \"0.2,0.3,0.4\"]\nmonitor-every = 3\n";
  const auto r = run_heatrk4(insulated_run(dir + "/out", {"--config", dir + "/run.toml", "--steps", "6", "--quiet"}));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto lines = lines_of(test::read_text(dir + "/out/monitors.csv"));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].rfind("step,time,probe(0.5 0.5 0.5),probe(0.2 0.3 0.4),min", 0), 0u) << lines[0];
}

// A PNG: its 8-byte signature, then the IHDR chunk whose width and height are big-endian at 16.
TEST(MonitorOptions, PlotDrawsAPngOfTheDocumentedSizeOrSaysWhatIsMissing) {
  const std::string dir = test::temp_directory("monitor_plot");
  ASSERT_EQ(run_heatrk4(insulated_run(dir, {"--steps", "12", "--probe", "0.5,0.5,0.5", "--bc-x-low", "flux:2",
                                            "--quiet"}))
                .exit_code,
            0);
  const auto missing = run_heatrk4({"plot", dir + "/monitors.csv", "-o", dir + "/none.png"}, "HEATRK4_PYTHON=false");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("python3-matplotlib"), std::string::npos) << missing.output;
  const auto not_monitors = run_heatrk4({"plot", dir + "/heat.hdf.series", "-o", dir + "/series.png"});
  EXPECT_EQ(not_monitors.exit_code, 2) << not_monitors.output;
  const auto r = run_heatrk4({"plot", dir + "/monitors.csv", "-o", dir + "/monitors.png"});
  if (r.output.find("python3-matplotlib") != std::string::npos) GTEST_SKIP() << "no matplotlib here: " << r.output;
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string png = test::read_text(dir + "/monitors.png");
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(0, 8), "\x89PNG\r\n\x1a\n");
  const auto big_endian = [&](std::size_t at) {
    unsigned value = 0;
    for (std::size_t n = 0; n < 4; ++n) value = value << 8 | static_cast<unsigned char>(png[at + n]);
    return value;
  };
  EXPECT_EQ(big_endian(16), 1000u);
  EXPECT_EQ(big_endian(20), 700u);
}

}  // namespace
}  // namespace heat
