// The functions of the Python module heatrk4 (module.cpp binds them; docs/design.md §11).
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace heat::python {

namespace py = pybind11;

// heatrk4.step(u, *, dt, cfl, alpha, h, steps, order, backend, device, allow_unstable)
struct StepArguments {
  py::object dt, cfl, h, device;  // None: not given
  double alpha = 1.0;
  int steps = 1;
  int order = 8;
  std::string backend = "auto";
  bool allow_unstable = false;
};
void step(py::object u, const StepArguments& arguments);
// heatrk4.release(): gives back the device memory step() keeps for its next call of the same
// problem (also done when the interpreter exits, before CUDA's own teardown).
void release_cached_backend();

// heatrk4.run(**options): the command line's run; returns its JSON summary as a dict.
py::dict run(const py::kwargs& options);
// heatrk4.read(path, array="u"): a snapshot's field as a NumPy array, with its step, time and settings.
py::dict read(const std::string& path, const std::string& array);
// heatrk4.compare(a, b, rtol=None, atol=None): what `heatrk4 compare` prints, as a dict.
py::dict compare(const std::string& file_a, const std::string& file_b, py::object rtol, py::object atol);

}  // namespace heat::python
