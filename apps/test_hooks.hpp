// Switches that the tests set through the environment to make a run misbehave on purpose; a run
// without them is unchanged. They wrap the loop's callbacks, so the run itself reads no variable.
#pragma once

#include <chrono>
#include <string>
#include <thread>

#include "core/errors.hpp"
#include "core/time_loop.hpp"

namespace heat {

struct TestHooks {
  // HEATRK4_TEST_WRITE_DELAY_MS=N: every snapshot write takes N ms longer, so a test can show that
  // a writer slower than the loop holds the loop back without losing or reordering snapshots.
  std::chrono::milliseconds write_delay{0};
  // HEATRK4_TEST_FAIL_RANK=R: rank R fails after its first chunk of steps, as a CUDA or I/O error
  // on one rank would, so a test can show that the whole job then ends.
  int fail_rank = -1;
  // HEATRK4_TEST_LATE_RANK=R and HEATRK4_TEST_LATE_MS=N: rank R reaches the halo exchange's start
  // N ms after the others, as a slow communicator start would, so a test can show that the other
  // ranks' wait for it lands in the set-up (setup_phases.halo_connect_s), not in compute_s.
  int late_rank = -1;
  std::chrono::milliseconds late_by{0};
};

TestHooks test_hooks_from_environment();

// Sleeps here on the late rank of the test hooks (none without them).
inline void start_late_if_asked(int rank) {
  const TestHooks hooks = test_hooks_from_environment();
  if (hooks.late_rank == rank) std::this_thread::sleep_for(hooks.late_by);
}

// Wraps `callbacks` with the switches set in the environment, for the process's rank `rank`.
template <typename T>
void add_test_hooks(LoopCallbacks<T>& callbacks, int rank) {
  const TestHooks hooks = test_hooks_from_environment();
  if (hooks.write_delay.count() > 0 && callbacks.snapshot)
    callbacks.snapshot = [write = callbacks.snapshot, delay = hooks.write_delay](const SnapshotSource<T>& snapshot,
                                                                                 int done) {
      std::this_thread::sleep_for(delay);
      write(snapshot, done);
    };
  if (hooks.fail_rank == rank)
    callbacks.progress = [](int done, int, double, int) {
      throw RunError("test hook HEATRK4_TEST_FAIL_RANK: failing after step " + std::to_string(done));
    };
}

}  // namespace heat
