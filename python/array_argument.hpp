// What heatrk4.step is given as u (or as an array of K or C): a NumPy array or a CUDA array
// (__cuda_array_interface__), described by where it lives, its precision and its shape; anything
// else is InputError.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>

#include "core/problem.hpp"

namespace heat::python {

namespace py = pybind11;

// Where the array lives and what it holds; `data` stays valid while the caller's `u` lives.
struct ArrayArgument {
  void* data = nullptr;
  bool on_device = false;
  int device = -1;
  Precision precision = Precision::Float;
  int nx = 0, ny = 0, nz = 0;
  std::optional<std::uintptr_t> stream;  // __cuda_array_interface__'s "stream"; absent: none
};

// What an array argument is to heatrk4.step: its name in messages, and whether it is written (u,
// stepped in place) or only read (K or C).
struct ArrayRole {
  std::string name = "u";
  bool written = true;
};

// The array's description; InputError for what heatrk4.step cannot take (dtype, layout,
// dimensions, read-only where written, not an array), naming the array and the fix.
ArrayArgument describe_array(py::handle u, const ArrayRole& role = {});

}  // namespace heat::python
