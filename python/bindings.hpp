// The functions of the Python module heatrk4 (module.cpp binds them; docs/design.md §11).
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace heat::python {

namespace py = pybind11;

// heatrk4.step(u, *, dt, cfl, alpha, h, steps, order, backend, device, allow_unstable): the
// Python values as given, converted (and their types checked) by step.
struct StepArguments {
  py::object dt, cfl, alpha, h, steps, order, backend, device, allow_unstable;  // dt, cfl, h, device: None when not given
  py::object bc, conductivity, heat_capacity;                                    // None when not given
};
void step(py::object u, const StepArguments& arguments);
// heatrk4.release(): gives back the device memory step() keeps for its next call of the same
// problem (also done when the interpreter exits, before CUDA's own teardown).
void release_cached_backend();

// heatrk4.run(**options): the command line's run; returns its report as the --json summary's dict.
py::object run(const py::kwargs& options);
// heatrk4.read(path, array="u"): a snapshot's field as a NumPy array, with its step, time and settings.
py::dict read(py::object path, py::object array);
// heatrk4.write(path, values, *, h, array="u"): a 3D array as a VTKHDF file's point array, the kind
// of file a run reads K, C, labels or a source from.
void write(py::object path, py::object values, py::object h, py::object array);
// heatrk4.compare(a, b, rtol=None, atol=None): what `heatrk4 compare` prints, as a dict.
py::dict compare(py::object file_a, py::object file_b, py::object rtol, py::object atol);

}  // namespace heat::python
