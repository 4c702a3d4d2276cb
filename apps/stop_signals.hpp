// SIGINT and SIGTERM ask a run to stop, as PETSc's and AMReX's time loops take them: the handler
// only records the signal, and the time loop, between chunks of steps, sees it, finishes the
// snapshots already taken and returns; the process then exits 128 + the signal's number. The
// first signal also restores both signals' default action, so a second one ends the process at
// once (a second Ctrl-C when the user will not wait).
#pragma once

#include <csignal>

namespace heat {

// Takes SIGINT and SIGTERM for its lifetime (a run's), forgetting any signal an earlier one
// recorded; gives back the actions it found (a test's process drives the command line too).
class StopSignalScope {
 public:
  StopSignalScope();
  ~StopSignalScope();
  StopSignalScope(const StopSignalScope&) = delete;
  StopSignalScope& operator=(const StopSignalScope&) = delete;

 private:
  struct sigaction previous_interrupt_ = {}, previous_terminate_ = {};
};

// The signal that asked the run to stop, or 0.
int stop_signal_received();

// The exit code of a run that a signal stopped, as a shell reports a process the signal killed.
constexpr int exit_code_for_signal(int signal_number) { return 128 + signal_number; }

}  // namespace heat
