// The time loop over long runs with many snapshot intervals: every step taken exactly once,
// every snapshot at its step, and the final field equal to the cpu reference on every backend.
// Runs of a few steps cannot catch a driver that loses count after dozens of chunks.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "io/series_files.hpp"
#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"
#include "test_support.hpp"
#include "check/reference.hpp"

namespace heat {
namespace {

// Counts the steps it is asked for and changes nothing: the driver alone is under test.
// Any use after release_backend() is a failure.
class CountingBackend : public Backend<double>, public ForeignDeviceMemory<double> {
 public:
  void upload(const Field<double>&) override { EXPECT_FALSE(released) << "upload after the release"; }
  void step(int count) override {
    EXPECT_FALSE(released) << "step after the release";
    ASSERT_GT(count, 0);
    steps_taken += count;
  }
  void download(Field<double>& u) override {
    EXPECT_FALSE(released) << "download after the release";
    u(0, 0, 0) = steps_taken;
  }
  long long first_nonfinite() override {
    checked_at.push_back(steps_taken);
    return blows_up_at >= 0 && steps_taken >= blows_up_at ? 7 : -1;
  }
  void set_step_dt(double dt) override { dt_set.push_back({steps_taken, dt}); }
  void adopt_device_field(double* field) override { adopted = field; }
  void release_device_field() override { field_released_at.push_back(steps_taken); }
  long long steps_taken = 0;
  long long blows_up_at = -1;         // the step from which the field is non-finite; -1: never
  std::vector<long long> checked_at;  // the steps taken at each blow-up check
  double* adopted = nullptr;          // the field stepped in place
  std::vector<long long> field_released_at;  // the steps taken at each release of it
  std::vector<std::pair<long long, double>> dt_set;  // the steps taken at each set_step_dt, and its dt
  std::atomic<bool> released{false};
};

std::vector<int> expected_snapshot_steps(int steps, int every) {
  std::vector<int> expected;
  if (every > 0)
    for (int s = 0; s < steps; s += every) expected.push_back(s);
  expected.push_back(steps);
  return expected;
}

TEST(TimeLoop, EveryStepOnceAndEverySnapshotAtItsStep) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (int steps : {1, 7, 40, 200, 5000, 100000})
    for (int every : {0, 1, 2, 3, 7, 50, 4999}) {
      CountingBackend backend;
      Field<double> u(g, 0.0);
      std::vector<int> seen;
      LoopSchedule schedule;
      LoopCallbacks<double> callbacks;
      schedule.output_every = every;
      callbacks.snapshot = [&](const SnapshotSource<double>& snapshot, int done) {
        const Field<double>& field = snapshot.host();
        EXPECT_EQ(field(0, 0, 0), done) << "the snapshot of step " << done << " holds another step's field";
        seen.push_back(done);
      };
      advance(backend, u, steps, schedule, callbacks);
      EXPECT_EQ(backend.steps_taken, steps) << steps << " steps, a snapshot every " << every;
      EXPECT_EQ(seen, expected_snapshot_steps(steps, every)) << steps << " steps, a snapshot every " << every;
    }
}

// Monitors add their steps to the snapshots' (each step once, in order), and a run to an end time
// sets its last step's dt once, after every other step.
TEST(TimeLoop, MonitorStepsJoinTheSnapshotStepsAndOnlyTheLastStepIsShortened) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (int steps : {1, 7, 40, 301})
    for (int every : {0, 3, 10})
      for (int monitor_every : {0, 1, 4, 6}) {
        CountingBackend backend;
        Field<double> u(g, 0.0);
        std::vector<int> seen;
        LoopSchedule schedule;
        schedule.output_every = every;
        schedule.monitor_every = monitor_every;
        schedule.last_step_dt = 0.25;
        LoopCallbacks<double> callbacks;
        callbacks.snapshot = [&](const SnapshotSource<double>&, int done) { seen.push_back(done); };
        advance(backend, u, steps, schedule, callbacks);
        std::vector<int> expected;
        for (int s = 0; s < steps; ++s)
          if ((every && s % every == 0) || (monitor_every && s % monitor_every == 0)) expected.push_back(s);
        expected.push_back(steps);
        EXPECT_EQ(seen, expected) << steps << " steps, every " << every << ", monitors every " << monitor_every;
        EXPECT_EQ(backend.steps_taken, steps);
        ASSERT_EQ(backend.dt_set.size(), 1u);
        EXPECT_EQ(backend.dt_set[0].first, steps - 1);
        EXPECT_EQ(backend.dt_set[0].second, 0.25);
      }
}

// The backend is given back once, while the final snapshot is written, when every earlier one
// is written already; a snapshot still being written keeps it (its copy might still be landing).
TEST(TimeLoop, ReleasesTheBackendWhileTheLastSnapshotIsWrittenOnlyWhenNoOtherIsPending) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (const bool slow_writer : {false, true}) {
    CountingBackend backend;
    Field<double> u(g, 0.0);
    std::vector<int> seen;
    int releases = 0;
    LoopSchedule schedule;
    LoopCallbacks<double> callbacks;
    schedule.output_every = slow_writer ? 5 : 0;
    callbacks.snapshot = [&](const SnapshotSource<double>& snapshot, int done) {
      const Field<double>& field = snapshot.host();
      if (slow_writer) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      EXPECT_EQ(field(0, 0, 0), done);
      seen.push_back(done);
    };
    callbacks.release_backend = [&] {
      ++releases;
      backend.released = true;
    };
    advance(backend, u, 20, schedule, callbacks);
    EXPECT_EQ(seen, expected_snapshot_steps(20, schedule.output_every)) << "slow writer " << slow_writer;
    EXPECT_EQ(releases, slow_writer ? 0 : 1) << "slow writer " << slow_writer;
  }
}

// With no buffers the loop writes every snapshot itself, so none is pending at the end: the
// backend is given back once, after the final download and before the final write. With no
// output at all, once the final field is on the host.
TEST(TimeLoop, ReleasesTheBackendWithNoBuffersAndWithNoOutput) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (const bool with_output : {true, false}) {
    CountingBackend backend;
    Field<double> u(g, 0.0);
    std::vector<int> seen;
    std::vector<std::size_t> written_at_release;
    LoopSchedule schedule;
    schedule.output_every = 5;
    schedule.snapshot_buffers = 0;
    LoopCallbacks<double> callbacks;
    if (with_output)
      callbacks.snapshot = [&](const SnapshotSource<double>& snapshot, int done) {
        const Field<double>& field = snapshot.host();
        EXPECT_EQ(field(0, 0, 0), done);
        seen.push_back(done);
      };
    callbacks.release_backend = [&] {
      EXPECT_EQ(u(0, 0, 0), 20) << "released before the final field was on the host";
      written_at_release.push_back(seen.size());
      backend.released = true;
    };
    advance(backend, u, 20, schedule, callbacks);
    const std::string label = with_output ? "with output" : "no output";
    EXPECT_EQ(written_at_release, std::vector<std::size_t>{with_output ? 4u : 0u}) << label;
    EXPECT_EQ(seen, with_output ? expected_snapshot_steps(20, 5) : std::vector<int>{}) << label;
    EXPECT_EQ(u(0, 0, 0), 20) << label;
  }
}

// On ranks the release waits for every rank's word: the loop asks once, after the final download,
// with this rank's own answer, and releases only on a yes (a neighbour may still read its memory).
TEST(TimeLoop, ReleasesTheBackendOnlyWhenEveryRankAgrees) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (const bool slow_writer : {false, true})
    for (const bool others_agree : {false, true}) {
      CountingBackend backend;
      Field<double> u(g, 0.0);
      std::vector<bool> asked;
      int releases = 0;
      LoopSchedule schedule;
      schedule.output_every = slow_writer ? 5 : 0;
      LoopCallbacks<double> callbacks;
      callbacks.snapshot = [&](const SnapshotSource<double>&, int) {
        if (slow_writer) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      };
      callbacks.release_agreed = [&](bool here) {
        EXPECT_EQ(u(0, 0, 0), 20) << "asked before the final field was on the host";
        asked.push_back(here);
        return here && others_agree;
      };
      callbacks.release_backend = [&] {
        ++releases;
        backend.released = true;
      };
      advance(backend, u, 20, schedule, callbacks);
      const std::string label = std::string(slow_writer ? "slow writer" : "fast writer") +
                                (others_agree ? ", the others agree" : ", another rank does not");
      EXPECT_EQ(asked, std::vector<bool>{!slow_writer}) << label;
      EXPECT_EQ(releases, !slow_writer && others_agree ? 1 : 0) << label;
      EXPECT_EQ(u(0, 0, 0), 20) << label;
    }
}

// A release that fails is reported, after the final snapshot it overlapped is written.
TEST(TimeLoop, AFailedReleaseStillWritesTheFinalSnapshot) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (int buffers : {0, 2}) {
    CountingBackend backend;
    Field<double> u(g, 0.0);
    std::vector<int> seen;
    LoopSchedule schedule;
    schedule.snapshot_buffers = buffers;
    LoopCallbacks<double> callbacks;
    callbacks.snapshot = [&](const SnapshotSource<double>& snapshot, int done) {
      const Field<double>& field = snapshot.host();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      EXPECT_EQ(field(0, 0, 0), done);
      seen.push_back(done);
    };
    callbacks.release_backend = [] { throw RunError("the device would not let go"); };
    EXPECT_THROW(advance(backend, u, 20, schedule, callbacks), RunError) << buffers << " buffers";
    EXPECT_EQ(seen, std::vector<int>{20}) << buffers << " buffers";
  }
}

// A stop request at the end of a chunk ends the run there: every snapshot taken before it is
// written (a slow writer still busy with them), none is added at the stop, u holds the field of
// the step it stopped at, and the outcome names the step and the signal.
TEST(TimeLoop, AStopRequestEndsTheRunAfterItsChunkWithTheSnapshotsTakenWritten) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (int buffers : {0, 2})
    for (int stop_after_chunk : {1, 3, 9}) {
      const std::string label =
          std::to_string(buffers) + " buffers, stop after chunk " + std::to_string(stop_after_chunk);
      CountingBackend backend;
      Field<double> u(g, 0.0);
      std::vector<int> seen;
      std::vector<int> chunk_ends;
      LoopSchedule schedule;
      LoopCallbacks<double> callbacks;
      schedule.output_every = 4;
      schedule.snapshot_buffers = buffers;
      callbacks.snapshot = [&](const SnapshotSource<double>& snapshot, int done) {
        const Field<double>& field = snapshot.host();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        EXPECT_EQ(field(0, 0, 0), done) << label;
        seen.push_back(done);
      };
      callbacks.end_chunk = [&](ChunkEnd end) {
        chunk_ends.push_back(int(backend.steps_taken));
        return ChunkEnd{end.seconds, int(chunk_ends.size()) == stop_after_chunk ? 15 : 0};
      };
      const LoopOutcome outcome = advance(backend, u, 1000, schedule, callbacks);
      const int stop = chunk_ends.at(std::size_t(stop_after_chunk - 1));
      EXPECT_EQ(outcome.stop_signal, 15) << label;
      EXPECT_EQ(outcome.steps_done, stop) << label;
      EXPECT_EQ(backend.steps_taken, stop) << label;
      EXPECT_EQ(int(chunk_ends.size()), stop_after_chunk) << label << ": stepped on after the stop";
      EXPECT_EQ(u(0, 0, 0), stop) << label << ": u must hold the field of the stop";
      std::vector<int> expected;
      for (int step = 0; step < stop; step += schedule.output_every) expected.push_back(step);
      EXPECT_EQ(seen, expected) << label;
    }
}

// On several ranks the chunks are sized by what end_chunk returns (every rank's slowest), not by
// the rank's own time: a chunk said to be slow does not grow the next one.
TEST(TimeLoop, ChunksGrowOnlyWhenEndChunkSaysTheyWereShort) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (const bool slow : {false, true}) {
    CountingBackend backend;
    Field<double> u(g, 0.0);
    std::vector<long long> chunk_ends;
    LoopSchedule schedule;
    LoopCallbacks<double> callbacks;
    callbacks.end_chunk = [&](ChunkEnd end) {
      chunk_ends.push_back(backend.steps_taken);
      return ChunkEnd{slow ? 1.0 : end.seconds, 0};
    };
    advance(backend, u, 40, schedule, callbacks);
    // Doubling, ending every kStepsBetweenFiniteChecks steps for the blow-up check.
    std::vector<long long> expected{1, 3, 7, 15, 16, 32, 40};
    if (slow) {
      expected.clear();
      for (int step = 1; step <= 40; ++step) expected.push_back(step);
    }
    EXPECT_EQ(chunk_ends, expected) << (slow ? "slow" : "fast");
  }
}

// A check reads the whole field, so the loop runs one only every kStepsBetweenFiniteChecks
// steps, before each snapshot (no blown-up field is written) and at its end, not at every chunk's.
TEST(TimeLoop, ChecksForBlowUpEverySixteenStepsBeforeEachSnapshotAndAtTheEnd) {
  const Grid g{4, 4, 4, 1, 1, 1};
  const struct {
    int steps, every;
    std::vector<long long> checked_at;
  } cases[] = {
      {10, 0, {10}}, {40, 0, {16, 32, 40}}, {40, 10, {10, 20, 30, 40}}, {60, 25, {16, 25, 41, 50, 60}}, {1, 0, {1}}};
  for (const auto& c : cases) {
    CountingBackend backend;
    Field<double> u(g, 0.0);
    LoopSchedule schedule;
    schedule.output_every = c.every;
    LoopCallbacks<double> callbacks;
    callbacks.snapshot = [](const SnapshotSource<double>&, int) {};
    advance(backend, u, c.steps, schedule, callbacks);
    EXPECT_EQ(backend.checked_at, c.checked_at) << c.steps << " steps, every " << c.every;
  }
}

// Where nothing reads the final field, the loop downloads nothing: u keeps what it held, and the
// last check reads the field where it lives and still finds a blow-up in the last chunk.
TEST(TimeLoop, WithoutAReaderTheFinalFieldStaysOnTheBackendAndIsStillChecked) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (long long blows_up_at : {-1LL, 38LL}) {
    CountingBackend backend;
    backend.blows_up_at = blows_up_at;
    Field<double> u(g, -5.0);
    LoopSchedule schedule;
    schedule.final_field_read = false;
    const std::string label = blows_up_at < 0 ? "finite" : "blowing up at step 38";
    try {
      advance(backend, u, 40, schedule);
      EXPECT_LT(blows_up_at, 0) << "a field that blew up in the last chunk was not reported";
    } catch (const RunError& e) {
      EXPECT_NE(std::string(e.what()).find("after step 40, finite after step 32"), std::string::npos) << e.what();
    }
    EXPECT_EQ(u(0, 0, 0), -5.0) << label << ": the final field was downloaded";
    EXPECT_EQ(backend.checked_at, (std::vector<long long>{16, 32, 40})) << label;
  }
  // A snapshot reads it, whatever the schedule says.
  CountingBackend backend;
  Field<double> u(g, -5.0);
  LoopSchedule schedule;
  schedule.final_field_read = false;
  LoopCallbacks<double> callbacks;
  callbacks.snapshot = [](const SnapshotSource<double>&, int) {};
  advance(backend, u, 40, schedule, callbacks);
  EXPECT_EQ(u(0, 0, 0), 40.0) << "the final snapshot's field was not downloaded";
}

// A field stepped in place goes through the same chunks and checks as an uploaded one, and is
// left in the caller's memory once, after the last step and before the final check.
TEST(TimeLoop, InPlaceStepsTheSameChunksWithTheSameChecks) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (int steps : {1, 10, 40, 100}) {
    std::vector<long long> chunk_ends[2];
    std::vector<long long> checked_at[2];
    for (int in_place : {0, 1}) {
      CountingBackend backend;
      LoopCallbacks<double> callbacks;
      callbacks.end_chunk = [&](ChunkEnd end) {
        chunk_ends[in_place].push_back(backend.steps_taken);
        return end;
      };
      Field<double> u(g, 0.0);
      const LoopOutcome outcome = in_place ? advance_in_place(backend, u.data(), g, steps, {}, callbacks)
                                           : advance(backend, u, steps, {}, callbacks);
      EXPECT_EQ(outcome.steps_done, steps);
      checked_at[in_place] = backend.checked_at;
      if (in_place) {
        EXPECT_EQ(backend.adopted, u.data());
        EXPECT_EQ(backend.field_released_at, (std::vector<long long>{steps})) << steps << " steps";
      }
    }
    EXPECT_EQ(chunk_ends[1], chunk_ends[0]) << steps << " steps";
    EXPECT_EQ(checked_at[1], checked_at[0]) << steps << " steps";
  }
}

// In place, a blow-up is reported at the check after it, and the field is left in the caller's
// memory as that step made it; a stop leaves the field of the step it stopped at.
TEST(TimeLoop, InPlaceStopsAtTheCheckAfterABlowUpAndLeavesThatField) {
  const Grid g{4, 4, 4, 1, 1, 1};
  std::vector<double> field(g.points());
  CountingBackend backend;
  backend.blows_up_at = 20;
  try {
    advance_in_place(backend, field.data(), g, 1000);
    FAIL() << "a field that blew up ran to the end";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("after step 32, finite after step 16"), std::string::npos) << e.what();
  }
  EXPECT_EQ(backend.steps_taken, 32);
  EXPECT_EQ(backend.field_released_at, (std::vector<long long>{32}));

  CountingBackend stopped;
  LoopCallbacks<double> callbacks;
  callbacks.end_chunk = [&](ChunkEnd end) { return ChunkEnd{end.seconds, stopped.steps_taken >= 5 ? 2 : 0}; };
  const LoopOutcome outcome = advance_in_place(stopped, field.data(), g, 1000, {}, callbacks);
  EXPECT_EQ(outcome.stop_signal, 2);
  EXPECT_EQ(outcome.steps_done, 7);  // chunks of 1, 2 and 4 steps
  EXPECT_EQ(stopped.field_released_at, (std::vector<long long>{7}));
}

// A backend without ForeignDeviceMemory (the cpu ones) is refused a field to step in place, before
// any step.
TEST(TimeLoop, InPlaceRefusesABackendThatCannotStepDeviceMemory) {
  struct HostOnlyBackend final : Backend<double> {
    void upload(const Field<double>&) override {}
    void step(int count) override { steps_taken += count; }
    void download(Field<double>&) override {}
    long long first_nonfinite() override { return -1; }
    void set_step_dt(double) override {}
    long long steps_taken = 0;
  };
  const Grid g{4, 4, 4, 1, 1, 1};
  std::vector<double> field(g.points());
  HostOnlyBackend backend;
  EXPECT_EQ(capability<ForeignDeviceMemory<double>>(backend), nullptr);
  EXPECT_THROW(advance_in_place(backend, field.data(), g, 10), InputError);
  EXPECT_EQ(backend.steps_taken, 0);
}

// The last check runs with the final download: a field that blows up in the last chunk is
// reported, and its snapshot is not written, while the ones before it are.
TEST(TimeLoop, AFieldThatBlowsUpInTheLastChunkIsReportedAndNotWritten) {
  const Grid g{4, 4, 4, 1, 1, 1};
  for (int buffers : {0, 2}) {
    CountingBackend backend;
    backend.blows_up_at = 10;
    Field<double> u(g, 0.0);
    std::vector<int> seen;
    LoopSchedule schedule;
    schedule.output_every = 4;
    schedule.snapshot_buffers = buffers;
    LoopCallbacks<double> callbacks;
    callbacks.snapshot = [&](const SnapshotSource<double>&, int done) { seen.push_back(done); };
    try {
      advance(backend, u, 10, schedule, callbacks);
      FAIL() << "a field that blew up at the last step was not reported";
    } catch (const RunError& e) {
      EXPECT_NE(std::string(e.what()).find("after step 10, finite after step 8"), std::string::npos) << e.what();
    }
    EXPECT_EQ(seen, (std::vector<int>{0, 4, 8})) << buffers << " buffers";
    EXPECT_EQ(backend.checked_at, (std::vector<long long>{4, 8, 10})) << buffers << " buffers";
  }
}

// A field that still changes at the last step (cfl 0.05: the grid's slowest mode keeps about 4%
// of its amplitude), so a driver that stopped early or ran on misses the reference by far more
// than the tolerance.
template <typename T>
void expect_long_run_matches_reference(const BackendEntry& entry) {
  const Grid g{21, 19, 17, 1, 1, 1};
  const int steps = 2000, every = 3;
  for (int order : {2, 8}) {
    Problem p = test::gpu_test_problem(g, order);
    p.dt = dt_from_cfl(g, p.alpha, 0.05);
    const Field<double> start = randn_field(g, 31 + order);
    auto backend = entry.make<T>(p, BackendOptions{});
    Field<T> u = field_cast<T>(start);
    int snapshots = 0;
    LoopSchedule schedule;
    LoopCallbacks<T> callbacks;
    schedule.output_every = every;
    callbacks.snapshot = [&](const SnapshotSource<T>&, int) { ++snapshots; };
    advance(*backend, u, steps, schedule, callbacks);
    EXPECT_EQ(snapshots, static_cast<int>(expected_snapshot_steps(steps, every).size()));

    const Field<double> reference = cpu_reference(p, field_cast<double>(field_cast<T>(start)), steps);
    const double tol = default_tolerance<T>();
    const FieldDifference d = compare_fields(u, reference, tol, tol);
    EXPECT_TRUE(d.pass()) << entry.name << " order " << order << ": " << describe(d);
  }
}

class LongRun : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (entry().uses_cuda) HEAT_REQUIRE_GPU();
  }
  const BackendEntry& entry() const { return *default_registry().find(GetParam()); }
};

TEST_P(LongRun, ThousandsOfStepsHundredsOfSnapshotsMatchReferenceFloat) {
  expect_long_run_matches_reference<float>(entry());
}
TEST_P(LongRun, ThousandsOfStepsHundredsOfSnapshotsMatchReferenceDouble) {
  expect_long_run_matches_reference<double>(entry());
}

INSTANTIATE_TEST_SUITE_P(Registry, LongRun, ::testing::ValuesIn(default_registry().names()),
                         [](const auto& info) { return info.param; });

// The command line end to end: 40 snapshot intervals, checked, and the last file is step 40.
TEST(LongRun, CommandLineWithFortySnapshotIntervalsPassesItsCheck) {
  const std::string dir = test::temp_directory("long-run");
  const auto result = test::run_heatrk4({"--n", "16", "--order", "2", "--steps", "40", "--output-every", "1", "--init",
                                         "randn", "--backend", "cpu", "--check", "--quiet", "--output", dir + "/out",
                                         "--json", dir + "/run.json"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/out/heat_000040.hdf"));
  EXPECT_EQ(read_hdf_series_entries(dir + "/out/heat.hdf.series").size(), 41u);
}

}  // namespace
}  // namespace heat
