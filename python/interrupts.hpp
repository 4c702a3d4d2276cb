// Ctrl-C during a long call that computes without the GIL: between chunks of steps the call takes
// the GIL back and lets Python run its pending signal handlers (PyErr_CheckSignals: on the main
// thread only, as Python runs them nowhere else). A handler's exception (KeyboardInterrupt from
// the default SIGINT handler) stops the call after the chunk, and is raised when the call ends.
#pragma once

#include <Python.h>

#include <atomic>

namespace heat::python {

class PendingSignals {
 public:
  PendingSignals() = default;
  ~PendingSignals();
  PendingSignals(const PendingSignals&) = delete;
  PendingSignals& operator=(const PendingSignals&) = delete;

  // Without the GIL, from any thread: runs Python's pending signal handlers (where this is the
  // main thread); true once one has raised, on whichever thread ran it.
  bool raised();
  // With the GIL: raises that exception (py::error_already_set), if there is one.
  void raise_if_any();

 private:
  std::atomic<bool> raised_{false};
  PyObject *type_ = nullptr, *value_ = nullptr, *traceback_ = nullptr;  // read and written with the GIL
};

}  // namespace heat::python
