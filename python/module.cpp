// The Python module heatrk4 (docs/design.md §11): bad input is ValueError with the message the
// command line gives for exit 2 (InputError), a failure while running is RuntimeError (RunError).
#include <pybind11/pybind11.h>

#include "python/arguments.hpp"
#include "python/bindings.hpp"
#include "python/fork_safety.hpp"
#include "backends/cuda/gpu_info.hpp"
#include "core/errors.hpp"

namespace py = pybind11;
using heat::python::StepArguments;

namespace {

constexpr const char* kStepDoc = R"(step(u, *, dt=None, cfl=None, alpha=None, h=None, steps=1, order=8, backend="auto", device=None, allow_unstable=False, bc=None, conductivity=None, heat_capacity=None)

Advances u in place by `steps` classical RK4 steps of u_t = alpha * Lap(u), the outer order/2
planes of each face held fixed (Dirichlet data, as on the command line) unless bc says otherwise:
bc is one condition for every face ("insulated", "temperature:T", "flux:Q", "convective:H,T_INF",
"radiation:EPS,T_INF" (cpu backends), "periodic", "layer") or a dict of them by face ("x_low" ... "z_high", "-" or "_"; faces left out
are layer); alpha (default 1), conductivity K and heat_capacity C (alpha = K/C: give two at
most) as --alpha, --conductivity and --heat-capacity, K for flux, convective and radiation faces. K and C
may be fields: arrays of u's shape (NumPy, PyTorch, CuPy, float32 or float64), stepped as
--conductivity-file and --heat-capacity-file with the same values (K or C zero, negative or not
finite at a point is a ValueError naming the first such point).

u: a 3D C-contiguous float32 or float64 array indexed [z, y, x]: a NumPy array, or a CUDA
array (PyTorch tensor, CuPy array: __cuda_array_interface__), which is stepped where it lives,
without a copy, after the work queued on the stream it names (the caller's current stream).
h: one spacing or (hx, hy, hz); default 1/(n-1) per axis, a unit cube. dt or cfl (default cfl
0.05, dt = cfl / (alpha * (1/hx^2 + 1/hy^2 + 1/hz^2))). backend: "auto" (cpu for a NumPy array,
tiled for a CUDA array), cpu, cpu_reference, naive, reuse or tiled; a NumPy array on a CUDA
backend is uploaded to device `device` (default 0) and downloaded.

Raises TypeError for an argument of the wrong type (naming it, its value and what is accepted),
ValueError for bad input (before any work: the command line's message, a grid larger than the
host's memory included) and RuntimeError for a failure while running. Ctrl-C stops it between
chunks of steps with KeyboardInterrupt. A NumPy array is written only when every step is done and
the field is finite, so a failed or interrupted call leaves it as it was (an interrupted CUDA
array holds the field after the last whole chunk, up to 16 steps); steps of the same array from
several threads take turns. A CUDA array is stepped in place: a blow-up (RuntimeError, found at the
first 16-step check after it) leaves it holding the field of that step, NaN or Inf included; after a CUDA error the device is unusable for every library.
The GIL is released while it computes. For a CUDA array the backend (its scratch fields on the
device) is kept for the next call of the same problem; release() gives that memory back.)";

constexpr const char* kGpuDoc = R"(What heatrk4.gpu(device) found: true where the CUDA backends can run on
that device (`if heatrk4.gpu():` picks a GPU backend only where one works); .available, .device,
.name, .free_bytes, and .reason, why they cannot where they cannot.)";

constexpr const char* kRunDoc = R"(run(**options) -> dict

The command line's run: each keyword is a run option with '_' for '-' (n=64, init_file="a.hdf",
output_every=5, check=True, modes=(1, 2, 1)), checked as the command line checks it, snapshots
and all; paths may be str, bytes or os.PathLike, a flag takes True or False, None leaves an
option out. Returns the run's report as a dict, the --json summary's contents (a failed --check
is reported in it, not raised). TypeError: a value of the wrong type for its option; ValueError:
an unknown keyword, help= (`heatrk4 --help` lists the options), or what the command line refuses
with exit 2; RuntimeError: a failure while running (exit 3). KeyboardInterrupt: a Ctrl-C stopped
the run after a chunk of steps.)";

constexpr const char* kReadDoc = R"(read(path, array="u") -> dict

A VTKHDF snapshot's point array (path: str, bytes or os.PathLike) as a NumPy array of its stored
precision, shape (nz, ny, nx), under the array's name, with "step" and "time" (None for a file
that is not heatrk4's), "h" (hx, hy, hz) and "settings" (order, precision, alpha, dt, cfl,
command_line: those the file records). A distributed run's snapshot is checked for its slab
files, as a restart checks it.)";

constexpr const char* kWriteDoc = R"(write(path, values, *, h, array="u")

Writes a 3D array indexed [z, y, x] (NumPy or anything numpy.asarray takes; stored in float64) as
the point array `array` of a VTKHDF ImageData file at path (str, bytes or os.PathLike), replacing
it, on the grid of its shape with spacing h (one number or (hx, hy, hz); point (i, j, k) at
(i*hx, j*hy, k*hz)): the file --material-labels F.hdf:ARRAY, --conductivity-file,
--heat-capacity-file, --source file:F.hdf:ARRAY and --init-file read, and ParaView opens.
ValueError: an array that is not 3D or not finite, a spacing that is not positive; RuntimeError:
the file cannot be written.)";

constexpr const char* kCompareDoc = R"(compare(a, b, rtol=None, atol=None) -> dict

What `heatrk4 compare A B` prints: every point array of two VTKHDF files (str, bytes or
os.PathLike) point by point, b the reference, |a - b| <= atol + rtol*|b| (defaults 1e-6 when
either file is float, else 1e-12). Returns {"agree", "grid", "a", "b", "arrays": {name: norms,
failures, first_failures...}, "only_in_a", "only_in_b"}. ValueError: unreadable files or
different grids.)";

}  // namespace

PYBIND11_MODULE(heatrk4, m) {
  m.doc() = "heatrk4: the 3D heat equation, RK4 in time, on NumPy arrays and CUDA arrays (docs/design.md §11)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const heat::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const heat::RunError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const py::cast_error& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    }
  });
  m.def(
      "step",
      [](py::object u, py::object dt, py::object cfl, py::object alpha, py::object h, py::object steps, py::object order,
         py::object backend, py::object device, py::object allow_unstable, py::object bc, py::object conductivity,
         py::object heat_capacity) {
        StepArguments s{dt, cfl, alpha, h, steps, order, backend, device, allow_unstable, bc, conductivity, heat_capacity};
        heat::python::step(std::move(u), s);
      },
      py::arg("u"), py::kw_only(), py::arg("dt") = py::none(), py::arg("cfl") = py::none(), py::arg("alpha") = py::none(),
      py::arg("h") = py::none(), py::arg("steps") = 1, py::arg("order") = 8, py::arg("backend") = "auto",
      py::arg("device") = py::none(), py::arg("allow_unstable") = false, py::arg("bc") = py::none(),
      py::arg("conductivity") = py::none(), py::arg("heat_capacity") = py::none(), kStepDoc);
  m.attr("__version__") = HEATRK4_VERSION;  // project()'s VERSION, as `heatrk4 --version` prints it
  heat::python::note_forks();
  py::class_<heat::GpuInfo>(m, "Gpu", kGpuDoc)
      .def("__bool__", [](const heat::GpuInfo& g) { return g.available; })
      .def_readonly("available", &heat::GpuInfo::available)
      .def_readonly("device", &heat::GpuInfo::device)
      .def_readonly("name", &heat::GpuInfo::name)
      .def_readonly("reason", &heat::GpuInfo::reason)
      .def_readonly("free_bytes", &heat::GpuInfo::free_bytes)
      .def("__repr__", [](const heat::GpuInfo& g) {
        return g.available ? "heatrk4.Gpu(device " + std::to_string(g.device) + ": " + g.name + ")"
                           : "heatrk4.Gpu(none: " + g.reason + ")";
      });
  m.def(
      "gpu", [](py::object device) { return heat::query_gpu(heat::python::int_argument(device, "device")); },
      py::arg("device") = 0,
      "gpu(device=0) -> Gpu: true where the CUDA backends can run on that device (as `heatrk4 backends` says); "
      "its .name, .free_bytes, or the .reason they cannot");
  m.def("release", &heat::python::release_cached_backend,
        "release(): gives back the GPU memory that step() keeps between calls of the same problem "
        "(a CUDA backend's scratch fields); the next step() makes them again");
  // Before the interpreter's finalisation, while the CUDA runtime still has its context.
  py::module_::import("atexit").attr("register")(py::cpp_function(&heat::python::release_cached_backend));
  m.def("run", &heat::python::run, kRunDoc);
  m.def("read", &heat::python::read, py::arg("path"), py::arg("array") = py::str("u"), kReadDoc);
  m.def("write", &heat::python::write, py::arg("path"), py::arg("values"), py::kw_only(), py::arg("h"),
        py::arg("array") = py::str("u"), kWriteDoc);
  m.def("compare", &heat::python::compare, py::arg("a"), py::arg("b"), py::arg("rtol") = py::none(),
        py::arg("atol") = py::none(), kCompareDoc);
}
