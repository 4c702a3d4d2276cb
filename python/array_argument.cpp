#include "python/array_argument.hpp"

#include <pybind11/numpy.h>

#include <climits>
#include <string>

#include "python/arguments.hpp"
#include "python/device_arrays.hpp"
#include "core/errors.hpp"

namespace heat::python {
namespace {

void require_3d(std::size_t ndim, const ArrayRole& role) {
  if (ndim != 3)
    throw InputError(role.name + " has " + std::to_string(ndim) +
                     " dimensions: heatrk4.step takes a 3D array indexed [z, y, x] (shape (nz, ny, nx))");
}

Precision precision_of(const std::string& type, const ArrayRole& role) {
  if (type == "float32") return Precision::Float;
  if (type == "float64") return Precision::Double;
  throw InputError(role.name + "'s dtype is " + type + ": heatrk4.step takes float32 or float64" +
                   (role.written ? " (--precision float or double)" : ""));
}

void require_writable(bool read_only, const ArrayRole& role) {
  if (read_only && role.written)
    throw InputError(role.name + " is read-only: heatrk4.step writes the array in place");
}

void set_shape(ArrayArgument& a, const std::int64_t (&shape)[3], const ArrayRole& role) {
  for (const std::int64_t n : shape)
    if (n > INT_MAX)
      throw InputError(role.name + "'s shape has an axis of " + std::to_string(n) + " points, more than " +
                       std::to_string(INT_MAX) + ", the most heatrk4 indexes along one axis");
  a.nz = int(shape[0]);
  a.ny = int(shape[1]);
  a.nx = int(shape[2]);
}

const char* kContiguousFix =
    ": heatrk4.step works in place on the array's memory, x fastest; pass a C-contiguous array "
    "(u.contiguous() in PyTorch, cupy.ascontiguousarray, numpy.ascontiguousarray) and use the result";

ArrayArgument describe_numpy(py::handle u, const ArrayRole& role) {
  auto a = py::reinterpret_borrow<py::array>(u);
  require_3d(std::size_t(a.ndim()), role);
  ArrayArgument out;
  if (py::array_t<float>::check_(a)) out.precision = Precision::Float;
  else if (py::array_t<double>::check_(a)) out.precision = Precision::Double;
  else precision_of(py::str(a.dtype()), role);  // throws, naming the dtype
  if (!(a.flags() & py::array::c_style))
    throw InputError(role.name + " is not C-contiguous" + std::string(kContiguousFix));
  require_writable(!a.writeable(), role);
  set_shape(out, {a.shape(0), a.shape(1), a.shape(2)}, role);
  out.data = const_cast<void*>(a.data());  // written only where role.written, which required it writable
  return out;
}

// __cuda_array_interface__ v2 or v3 (PyTorch, CuPy, Numba): shape, typestr, data, strides, stream.
ArrayArgument describe_cuda_array(const py::dict& cai, const ArrayRole& role) {
  const auto shape = cai["shape"].cast<py::tuple>();
  require_3d(shape.size(), role);
  ArrayArgument out;
  out.on_device = true;
  const std::string typestr = cai["typestr"].cast<std::string>();
  if (typestr == "<f4") out.precision = Precision::Float;
  else if (typestr == "<f8") out.precision = Precision::Double;
  else precision_of("'" + typestr + "'", role);  // throws, naming the type
  if (cai.contains("mask") && !cai["mask"].is_none())
    throw InputError(role.name + " is a masked array: heatrk4.step takes a plain one");
  const std::int64_t dims[3] = {shape[0].cast<std::int64_t>(), shape[1].cast<std::int64_t>(), shape[2].cast<std::int64_t>()};
  set_shape(out, dims, role);
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    const auto strides = cai["strides"].cast<py::tuple>();
    const std::int64_t item = out.precision == Precision::Float ? 4 : 8;
    const std::int64_t contiguous[3] = {dims[1] * dims[2] * item, dims[2] * item, item};
    for (int a = 0; a < 3; ++a)
      if (dims[a] > 1 && strides[a].cast<std::int64_t>() != contiguous[a])
        throw InputError(role.name + " is not C-contiguous (strides " + value_text(strides) + ")" + kContiguousFix);
  }
  const auto data = cai["data"].cast<py::tuple>();
  require_writable(data[1].cast<bool>(), role);
  out.data = reinterpret_cast<void*>(data[0].cast<std::uintptr_t>());
  if (cai.contains("stream") && !cai["stream"].is_none()) {
    out.stream = cai["stream"].cast<std::uintptr_t>();
    if (*out.stream == 0)
      throw InputError(role.name + "'s __cuda_array_interface__ gives stream 0, which the protocol disallows");
  }
  if (out.data) out.device = device_of(out.data, role.name);  // an empty array has no address; the grid check refuses it
  return out;
}

// PyTorch exports version 2 of the interface, without "stream": its current stream on the
// tensor's device is the caller's (handle 0 there is the legacy default stream).
std::optional<std::uintptr_t> torch_current_stream(py::handle u, int device) {
  const py::object torch = py::module_::import("torch");
  if (!py::isinstance(u, torch.attr("Tensor"))) return std::nullopt;
  const auto handle = torch.attr("cuda").attr("current_stream")(device).attr("cuda_stream").cast<std::uintptr_t>();
  return handle == 0 ? 1 : handle;
}

}  // namespace

ArrayArgument describe_array(py::handle u, const ArrayRole& role) {
  py::object cai;
  try {
    cai = u.attr("__cuda_array_interface__");
  } catch (py::error_already_set& e) {
    // A CPU PyTorch tensor raises AttributeError; one that requires grad, RuntimeError: say why.
    if (!e.matches(PyExc_AttributeError)) throw InputError(role.name + "'s __cuda_array_interface__: " + e.what());
  }
  if (cai) {
    ArrayArgument a = describe_cuda_array(cai.cast<py::dict>(), role);
    if (!a.stream && a.data && py::module_::import("sys").attr("modules").contains("torch"))
      a.stream = torch_current_stream(u, a.device);
    return a;
  }
  if (py::isinstance<py::array>(u)) return describe_numpy(u, role);
  throw InputError(role.name + " is a " + std::string(py::str(py::type::handle_of(u).attr("__name__"))) +
                   ": heatrk4.step takes a NumPy array or a CUDA array (PyTorch, CuPy: __cuda_array_interface__); "
                   "for a CPU PyTorch tensor pass u.numpy()");
}


}  // namespace heat::python
