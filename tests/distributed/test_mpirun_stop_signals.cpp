// heatrk4 on 2 cpu ranks stopped by SIGTERM: every rank stops after the same step (a rank that was
// not signalled waits in no halo exchange or collective for one that stopped), finishes the
// snapshots taken, and exits 143; the series lists exactly the complete snapshots there.
#include <gtest/gtest.h>

#include <filesystem>

#include "mpirun_support.hpp"
#include "stop_signal_support.hpp"

namespace heat {
namespace {

constexpr int kSteps = 100000;

std::vector<std::string> long_run(int n, int every, const std::string& out, const std::string& json) {
  return {"--backend",
          "cpu",
          "--n",
          std::to_string(n),
          "--steps",
          std::to_string(kSteps),
          "--output-every",
          std::to_string(every),
          "--init",
          "randn",
          "--output",
          out,
          "--json",
          json};
}

// mpirun with its own session directory, and the environment of the other mpirun tests.
std::string mpirun_prefix(int ranks, const std::string& environment, const std::string& launcher) {
  return "env " HEAT_MPI_TEST_ENV " " + environment + " TMPDIR=" + test::temp_directory("mpi-session") + " " +
         HEAT_MPIEXEC + " " + HEAT_MPIEXEC_FLAGS + " -np " + std::to_string(ranks) + " " + launcher;
}

// The rank number OpenMPI's or a PMI launcher's variable gives, inside the launcher's sh.
const std::string kRank = "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-$PMIX_RANK}}";

// What rank 0 said and wrote once the job ended: the summary names the step in the JSON.
void expect_stopped_output(const std::string& dir, const std::string& out, const std::string& json, int every) {
  const test::StopRecord stop = test::read_stop_record(json);
  EXPECT_EQ(stop.signal, SIGTERM) << test::read_text(dir + "/log");
  EXPECT_NE(test::read_text(dir + "/log").find("stopped   by signal 15 after step " + std::to_string(stop.final_step)),
            std::string::npos)
      << test::read_text(dir + "/log");
  test::expect_output_of_a_stopped_run(out, stop.final_step, kSteps, every, 2);
}

// SIGTERM to rank 1 alone: rank 0, never signalled, stops after the same step, and the job
// (whose exit code mpirun takes from its ranks) ends with 143.
TEST(MpirunStopSignals, SigtermToOneRankStopsEveryRankAfterTheSameStep) {
  const std::string dir = test::temp_directory("stop-one-rank"), out = dir + "/out", json = dir + "/run.json";
  const std::string write_pid = "sh -c 'echo $$ > " + dir + "/pid." + kRank + "; exec \"$0\" \"$@\"'";
  const int every = 5;
  const pid_t mpirun =
      test::start_heatrk4(long_run(48, every, out, json), dir + "/log", mpirun_prefix(2, "", write_pid));
  const bool started = test::wait_for_file(out + "/" + snapshot_name(every, "hdf"), test::kHangSeconds);
  const pid_t rank_1 = std::atoi(test::read_text(dir + "/pid.1").c_str());
  if (started && rank_1 > 0) kill(rank_1, SIGTERM);
  const std::string end = test::wait_for_end(mpirun, test::kHangSeconds);
  ASSERT_TRUE(started && rank_1 > 0) << "no snapshot or no rank 1:\n" << test::read_text(dir + "/log");
  EXPECT_EQ(end, "exit 143") << test::read_text(dir + "/log");
  expect_stopped_output(dir, out, json, every);
}

// SIGTERM to mpirun, which passes it on to the ranks. Open MPI 4's mpirun then reports 1 whatever
// the ranks return, so each rank's own exit code is kept by the launcher's sh (which outlives it,
// its own SIGTERM caught). Open MPI sends the ranks SIGTERM one odls_base_sigkill_timeout after
// mpirun got it and SIGKILL one more later, and a rank's MPI_Finalize waits 2 s for an aborting
// mpirun: the timeout is raised (from 1 s) so that the ranks live to exit on their own, and the
// snapshots are small and few, so that a loaded machine's slow flushes finish well within it.
TEST(MpirunStopSignals, SigtermToMpirunStopsEveryRankWithExit143) {
  const std::string dir = test::temp_directory("stop-mpirun"), out = dir + "/out", json = dir + "/run.json";
  const std::string keep_exit_code = "sh -c 'trap : TERM INT; \"$0\" \"$@\"; echo $? > " + dir + "/exit." + kRank + "'";
  const int every = 20;
  const pid_t mpirun = test::start_heatrk4(long_run(32, every, out, json), dir + "/log",
                                           mpirun_prefix(2, "OMPI_MCA_odls_base_sigkill_timeout=10", keep_exit_code));
  const bool started = test::wait_for_file(out + "/" + snapshot_name(every, "hdf"), test::kHangSeconds);
  kill(mpirun, SIGTERM);
  const std::string end = test::wait_for_end(mpirun, test::kHangSeconds);
  ASSERT_TRUE(started) << "no snapshot:\n" << test::read_text(dir + "/log");
  EXPECT_NE(end, "hung") << test::read_text(dir + "/log");
  SCOPED_TRACE("mpirun: " + end);
  for (int rank : {0, 1})
    EXPECT_EQ(test::read_text(dir + "/exit." + std::to_string(rank)), "143\n") << "rank " << rank << ":\n"
                                                                               << test::read_text(dir + "/log");
  expect_stopped_output(dir, out, json, every);
}

}  // namespace
}  // namespace heat
