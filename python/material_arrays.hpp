// heatrk4.step's conductivity= and heat_capacity= as arrays (docs/design.md §11): K or C at every
// point of u's grid, from a NumPy array, a CUDA array (PyTorch, CuPy: __cuda_array_interface__) or
// anything NumPy takes as one (a CPU PyTorch tensor, nested sequences).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "core/field.hpp"
#include "python/array_argument.hpp"

namespace heat::python {

// Whether `value` is given as an array rather than a number.
bool is_array_like(const py::handle& value);

// `value`'s values in double on u's grid, read where they live (a CUDA array copied to the host
// after the work queued on its stream); the caller has found it array-like. InputError naming
// `name` for a dtype other than float32 and float64, a layout that is not C-contiguous, or a shape
// other than u's. Its values are checked where the run is planned (resolve_material_fields).
std::shared_ptr<const Field<double>> material_values(const py::object& value, const std::string& name,
                                                     const ArrayArgument& u);

}  // namespace heat::python
