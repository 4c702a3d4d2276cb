#include "apps/stop_signals.hpp"

namespace heat {
namespace {

volatile std::sig_atomic_t received_signal = 0;

void set_action(int signal_number, void (*handler)(int), struct sigaction* previous = nullptr) {
  struct sigaction action = {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  // Restarted, so that the writer's system calls (HDF5's writes) are not cut short by EINTR.
  action.sa_flags = SA_RESTART;
  sigaction(signal_number, &action, previous);
}

// Async-signal-safe: a store to a sig_atomic_t and sigaction (which POSIX lists as safe).
void record_stop_signal(int signal_number) {
  received_signal = signal_number;
  set_action(SIGINT, SIG_DFL);
  set_action(SIGTERM, SIG_DFL);
}

}  // namespace

StopSignalScope::StopSignalScope() {
  received_signal = 0;
  set_action(SIGINT, record_stop_signal, &previous_interrupt_);
  set_action(SIGTERM, record_stop_signal, &previous_terminate_);
}

StopSignalScope::~StopSignalScope() {
  sigaction(SIGINT, &previous_interrupt_, nullptr);
  sigaction(SIGTERM, &previous_terminate_, nullptr);
}

int stop_signal_received() { return received_signal; }

}  // namespace heat
