#include "python/interrupts.hpp"

#include <pybind11/pybind11.h>

namespace heat::python {

namespace py = pybind11;

PendingSignals::~PendingSignals() {
  if (!type_) return;
  const py::gil_scoped_acquire python;  // an exception not raised (the call failed otherwise)
  Py_XDECREF(type_);
  Py_XDECREF(value_);
  Py_XDECREF(traceback_);
}

bool PendingSignals::raised() {
  if (raised_.load()) return true;
  const py::gil_scoped_acquire python;
  if (type_) return true;
  if (PyErr_CheckSignals() == 0) return false;
  PyErr_Fetch(&type_, &value_, &traceback_);
  raised_.store(true);
  return true;
}

void PendingSignals::raise_if_any() {
  if (!type_) return;
  PyErr_Restore(type_, value_, traceback_);
  type_ = value_ = traceback_ = nullptr;
  throw py::error_already_set();
}

}  // namespace heat::python
