// SIGINT and SIGTERM stop a run between chunks of steps (apps/stop_signals.hpp): the snapshots
// taken are finished, the series lists exactly the files there, no temporary file is left, the
// JSON summary names the step, and the process exits 128 + the signal (130, 143), not killed by it.
#include <gtest/gtest.h>

#include "stop_signal_support.hpp"

namespace heat {
namespace {

void expect_a_clean_stop(int signal_number) {
  const std::string label = "signal " + std::to_string(signal_number);
  const std::string dir = test::temp_directory("stop"), out = dir + "/out", json = dir + "/run.json";
  const int steps = 100000, every = 5;
  const pid_t pid =
      test::start_heatrk4({"--backend", "cpu", "--n", "64", "--steps", std::to_string(steps), "--output-every",
                           std::to_string(every), "--init", "randn", "--output", out, "--json", json},
                          dir + "/log");
  // The second snapshot: by then the writer is busy with later ones.
  const bool started = test::wait_for_file(out + "/" + snapshot_name(every, "hdf"), 60);
  kill(pid, signal_number);
  ASSERT_TRUE(started) << label << ": no snapshot within 60 s:\n" << test::read_text(dir + "/log");
  EXPECT_EQ(test::wait_for_end(pid, 60), "exit " + std::to_string(128 + signal_number))
      << label << ":\n"
      << test::read_text(dir + "/log");
  const test::StopRecord stop = test::read_stop_record(json);
  EXPECT_EQ(stop.signal, signal_number) << label;
  EXPECT_NE(test::read_text(dir + "/log")
                .find("stopped   by signal " + std::to_string(signal_number) + " after step " +
                      std::to_string(stop.final_step)),
            std::string::npos)
      << label;
  test::expect_output_of_a_stopped_run(out, stop.final_step, steps, every, 1);
}

TEST(StopSignals, SigintStopsTheRunCleanlyWithExit130) { expect_a_clean_stop(SIGINT); }
TEST(StopSignals, SigtermStopsTheRunCleanlyWithExit143) { expect_a_clean_stop(SIGTERM); }

// A second signal while the run stops (its writer held back 5 s a snapshot) ends it at once,
// by the signal's default action.
TEST(StopSignals, ASecondSignalWhileStoppingEndsTheProcessAtOnce) {
  const std::string dir = test::temp_directory("stop-twice"), out = dir + "/out";
  const pid_t pid = test::start_heatrk4(
      {"--backend", "cpu", "--n", "16", "--steps", "100000", "--output-every", "5", "--init", "randn", "--output", out},
      dir + "/log", "env HEATRK4_TEST_WRITE_DELAY_MS=5000");
  const bool started = test::wait_for_file(out + "/heat.hdf.series", 60);
  kill(pid, SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto second = std::chrono::steady_clock::now();
  kill(pid, SIGINT);
  EXPECT_EQ(test::wait_for_end(pid, 60), "killed by signal 2") << test::read_text(dir + "/log");
  EXPECT_LT(std::chrono::steady_clock::now() - second, std::chrono::seconds(3)) << "it waited for the writer";
  ASSERT_TRUE(started) << test::read_text(dir + "/log");
}

}  // namespace
}  // namespace heat
