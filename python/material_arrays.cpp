#include "python/material_arrays.hpp"

#include <pybind11/numpy.h>

#include <cstring>
#include <vector>

#include "core/errors.hpp"
#include "python/device_arrays.hpp"

namespace heat::python {
namespace {

std::string shape_text(int nz, int ny, int nx) {
  return "(" + std::to_string(nz) + ", " + std::to_string(ny) + ", " + std::to_string(nx) + ")";
}

template <typename T>
void widen(const T* from, Field<double>& to) {
  for (std::size_t n = 0; n < to.size(); ++n) to.data()[n] = double(from[n]);
}

}  // namespace

bool is_array_like(const py::handle& value) {
  const bool sequence = py::isinstance<py::sequence>(value) && !py::isinstance<py::str>(value);
  return sequence || py::hasattr(value, "__array_interface__") || py::hasattr(value, "__cuda_array_interface__") ||
         py::hasattr(value, "__array__") || py::hasattr(value, "__dlpack__");
}

std::shared_ptr<const Field<double>> material_values(const py::object& value, const std::string& name,
                                                     const ArrayArgument& u) {
  // A host array that is not NumPy's (a CPU tensor, a list) as NumPy sees it; a CUDA array as it is.
  const py::object array =
      py::hasattr(value, "__cuda_array_interface__") || py::isinstance<py::array>(value)
          ? value
          : py::module_::import("numpy").attr("asarray")(value);
  const ArrayArgument a = describe_array(array, ArrayRole{name, false});
  if (a.nx != u.nx || a.ny != u.ny || a.nz != u.nz)
    throw InputError(name + " has shape " + shape_text(a.nz, a.ny, a.nx) + " and u " + shape_text(u.nz, u.ny, u.nx) +
                     ": give " + name + " at every point of u's grid, indexed [z, y, x] as u is");
  auto values = std::make_shared<Field<double>>(Field<double>::uninitialized(a.nx, a.ny, a.nz));
  const std::size_t value_size = a.precision == Precision::Float ? sizeof(float) : sizeof(double);
  std::vector<unsigned char> host;
  const void* from = a.data;
  if (a.on_device) {
    host.resize(values->size() * value_size);
    const py::gil_scoped_release copying;
    const CurrentDevice on(a.device);  // the caller's stream and its event on the array's device
    copy_to_host(host.data(), a.data, host.size(), a.stream);
    from = host.data();
  }
  if (a.precision == Precision::Float) widen(static_cast<const float*>(from), *values);
  else std::memcpy(values->data(), from, values->size() * sizeof(double));
  return values;
}

}  // namespace heat::python
