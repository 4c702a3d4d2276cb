// heatrk4.step: one array stepped in place (docs/design.md §11). The array's shape, dtype and the
// keyword arguments become the command line's run options, so make_run_plan and the run's checks
// refuse bad input with the command line's messages before any work; a NumPy array then goes
// through a backend's upload, step and download, and a CUDA array becomes a CUDA backend's
// resident field where it lives (Backend::adopt_device_field).
#include <pybind11/numpy.h>

#include <algorithm>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>

#include "apps/rank_backend.hpp"
#include "apps/run_checks.hpp"
#include "apps/run_options.hpp"
#include "python/arguments.hpp"
#include "python/bindings.hpp"
#include "python/buffer_claims.hpp"
#include "python/device_arrays.hpp"
#include "python/fork_safety.hpp"
#include "python/interrupts.hpp"
#include "solver/errors.hpp"
#include "solver/registry.hpp"
#include "solver/time_loop.hpp"

namespace heat::python {
namespace {

// Where the array lives and what it holds; `data` stays valid while the caller's `u` lives.
struct ArrayArgument {
  void* data = nullptr;
  bool on_device = false;
  int device = -1;
  Precision precision = Precision::Float;
  int nx = 0, ny = 0, nz = 0;
  std::optional<std::uintptr_t> stream;  // __cuda_array_interface__'s "stream"; absent: none
};

std::string text_of(py::handle h) { return py::str(py::repr(h)); }

void require_3d(std::size_t ndim) {
  if (ndim != 3)
    throw InputError("u has " + std::to_string(ndim) +
                     " dimensions: heatrk4.step takes a 3D array indexed [z, y, x] (shape (nz, ny, nx))");
}

Precision precision_of(const std::string& type) {
  if (type == "float32") return Precision::Float;
  if (type == "float64") return Precision::Double;
  throw InputError("u's dtype is " + type + ": heatrk4.step takes float32 or float64 (--precision float or double)");
}

void set_shape(ArrayArgument& a, const std::int64_t (&shape)[3]) {
  for (const std::int64_t n : shape)
    if (n > INT_MAX)
      throw InputError("u's shape has an axis of " + std::to_string(n) + " points, more than " +
                       std::to_string(INT_MAX) + ", the most heatrk4 indexes along one axis");
  a.nz = int(shape[0]);
  a.ny = int(shape[1]);
  a.nx = int(shape[2]);
}

const char* kContiguousFix =
    ": heatrk4.step works in place on the array's memory, x fastest; pass a C-contiguous array "
    "(u.contiguous() in PyTorch, cupy.ascontiguousarray, numpy.ascontiguousarray) and use the result";

ArrayArgument describe_numpy(py::handle u) {
  auto a = py::reinterpret_borrow<py::array>(u);
  require_3d(std::size_t(a.ndim()));
  ArrayArgument out;
  if (py::array_t<float>::check_(a)) out.precision = Precision::Float;
  else if (py::array_t<double>::check_(a)) out.precision = Precision::Double;
  else precision_of(py::str(a.dtype()));  // throws, naming the dtype
  if (!(a.flags() & py::array::c_style)) throw InputError("u is not C-contiguous" + std::string(kContiguousFix));
  if (!a.writeable()) throw InputError("u is read-only: heatrk4.step writes the array in place");
  set_shape(out, {a.shape(0), a.shape(1), a.shape(2)});
  out.data = a.mutable_data();
  return out;
}

// __cuda_array_interface__ v2 or v3 (PyTorch, CuPy, Numba): shape, typestr, data, strides, stream.
ArrayArgument describe_cuda_array(const py::dict& cai) {
  const auto shape = cai["shape"].cast<py::tuple>();
  require_3d(shape.size());
  ArrayArgument out;
  out.on_device = true;
  const std::string typestr = cai["typestr"].cast<std::string>();
  if (typestr == "<f4") out.precision = Precision::Float;
  else if (typestr == "<f8") out.precision = Precision::Double;
  else precision_of("'" + typestr + "'");  // throws, naming the type
  if (cai.contains("mask") && !cai["mask"].is_none()) throw InputError("u is a masked array: heatrk4.step takes a plain one");
  const std::int64_t dims[3] = {shape[0].cast<std::int64_t>(), shape[1].cast<std::int64_t>(), shape[2].cast<std::int64_t>()};
  set_shape(out, dims);
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    const auto strides = cai["strides"].cast<py::tuple>();
    const std::int64_t item = out.precision == Precision::Float ? 4 : 8;
    const std::int64_t contiguous[3] = {dims[1] * dims[2] * item, dims[2] * item, item};
    for (int a = 0; a < 3; ++a)
      if (dims[a] > 1 && strides[a].cast<std::int64_t>() != contiguous[a])
        throw InputError("u is not C-contiguous (strides " + text_of(strides) + ")" + kContiguousFix);
  }
  const auto data = cai["data"].cast<py::tuple>();
  if (data[1].cast<bool>()) throw InputError("u is read-only: heatrk4.step writes the array in place");
  out.data = reinterpret_cast<void*>(data[0].cast<std::uintptr_t>());
  if (cai.contains("stream") && !cai["stream"].is_none()) {
    out.stream = cai["stream"].cast<std::uintptr_t>();
    if (*out.stream == 0) throw InputError("u's __cuda_array_interface__ gives stream 0, which the protocol disallows");
  }
  if (out.data) out.device = device_of(out.data);  // an empty array has no address; the grid check refuses it
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

ArrayArgument describe_array(py::handle u) {
  py::object cai;
  try {
    cai = u.attr("__cuda_array_interface__");
  } catch (py::error_already_set& e) {
    // A CPU PyTorch tensor raises AttributeError; one that requires grad, RuntimeError: say why.
    if (!e.matches(PyExc_AttributeError)) throw InputError(std::string("u's __cuda_array_interface__: ") + e.what());
  }
  if (cai) {
    ArrayArgument a = describe_cuda_array(cai.cast<py::dict>());
    if (!a.stream && a.data && py::module_::import("sys").attr("modules").contains("torch"))
      a.stream = torch_current_stream(u, a.device);
    return a;
  }
  if (py::isinstance<py::array>(u)) return describe_numpy(u);
  throw InputError("u is a " + std::string(py::str(py::type::handle_of(u).attr("__name__"))) +
                   ": heatrk4.step takes a NumPy array or a CUDA array (PyTorch, CuPy: __cuda_array_interface__); "
                   "for a CPU PyTorch tensor pass u.numpy()");
}

// h: one spacing or three, (hx, hy, hz).
void set_spacing(RunOptions& o, const py::object& h) {
  const bool sequence = py::isinstance<py::sequence>(h) && !py::isinstance<py::str>(h) && !py::isinstance<py::bytes>(h);
  if (!sequence) {
    o.h = real_argument(h, "h");
    o.h_given = true;
    return;
  }
  const auto spacings = h.cast<py::sequence>();
  if (spacings.size() != 3) throw InputError("h = " + text_of(h) + ": give one spacing or three, (hx, hy, hz)");
  o.hx = real_argument(spacings[0], "h[0]"), o.hy = real_argument(spacings[1], "h[1]");
  o.hz = real_argument(spacings[2], "h[2]");
  o.hx_given = o.hy_given = o.hz_given = true;
}

// The command line's options for this call: the array gives the grid and the precision.
RunOptions run_options_for(const ArrayArgument& a, const StepArguments& s) {
  RunOptions o;
  o.nx = a.nx, o.ny = a.ny, o.nz = a.nz;
  o.nx_given = o.ny_given = o.nz_given = true;
  if (!s.h.is_none()) set_spacing(o, s.h);
  if (!s.dt.is_none()) o.dt = real_argument(s.dt, "dt"), o.dt_given = true;
  if (!s.cfl.is_none()) o.cfl = real_argument(s.cfl, "cfl"), o.cfl_given = true;
  o.alpha = real_argument(s.alpha, "alpha");
  o.order = int_argument(s.order, "order");
  o.steps = int_argument(s.steps, "steps");
  o.allow_unstable = bool_argument(s.allow_unstable, "allow_unstable");
  o.precision = precision_name(a.precision);
  const std::string backend = text_argument(s.backend, "backend");
  // auto: where the array lives (a NumPy array on the cpu backend, a CUDA array on tiled).
  o.backend = backend == "auto" ? (a.on_device ? "tiled" : "cpu") : backend;
  o.device = a.on_device ? a.device : (s.device.is_none() ? 0 : int_argument(s.device, "device"));
  o.format = "none";
  return o;
}

void require_backend_fits_array(const ArrayArgument& a, const StepArguments& s, const BackendEntry& entry) {
  if (a.on_device && !entry.uses_cuda)
    throw InputError("backend '" + entry.name + "' steps host memory but u is a CUDA array on device " +
                     std::to_string(a.device) + ": use backend 'auto', 'tiled', 'reuse' or 'naive', or pass a NumPy array");
  if (!s.device.is_none()) {
    const int device = int_argument(s.device, "device");
    if (!entry.uses_cuda)
      throw InputError("device=" + std::to_string(device) + " picks the GPU of a CUDA backend, but backend '" +
                       entry.name + "' runs on the host: leave device out");
    if (a.on_device && device != a.device)
      throw InputError("device=" + std::to_string(device) + " but u lives on device " + std::to_string(a.device) +
                       ": a CUDA array is stepped where it lives; leave device out");
  }
}

// Host memory, through the run's time loop: the array is written only once every step is done
// and the result is finite, so a failure or a stop (Ctrl-C) leaves it as it was.
template <typename T>
void step_host_array(const ArrayArgument& a, const RunPlan& plan, const BackendEntry& entry, PendingSignals& signals) {
  Field<T> u = Field<T>::uninitialized(plan.problem.grid);
  std::memcpy(u.data(), a.data, u.size() * sizeof(T));
  std::unique_ptr<Backend<T>> backend = entry.make<T>(plan.problem, plan.backend_options);
  LoopSchedule schedule;
  schedule.snapshot_buffers = 0;
  LoopCallbacks<T> callbacks;
  callbacks.end_chunk = [&signals](ChunkEnd end) {
    if (signals.raised()) end.stop_signal = SIGINT;
    return end;
  };
  if (run_time_loop(*backend, u, plan.steps, schedule, callbacks).stop_signal) return;
  std::memcpy(a.data, u.data(), u.size() * sizeof(T));
}

// The last CUDA backend a device-array step made, kept for the next call of the same problem on
// the same device: such a call then costs its steps and a copy of the boundary layer, not the
// allocation and preparation of the backend's fields (about 3 ms at 600^3, 7% of ten steps).
// One at a time: the mutex serialises steps from several Python threads.
class BackendCache {
 public:
  template <typename T>
  Backend<T>& get(const std::string& key, const RunPlan& plan, const BackendEntry& entry) {
    if (key != key_) {
      release();  // the old backend's memory first
      std::get<std::unique_ptr<Backend<T>>>(backends_) = entry.make<T>(plan.problem, plan.backend_options);
      key_ = key;
    }
    return *std::get<std::unique_ptr<Backend<T>>>(backends_);
  }
  void release() {
    key_.clear();
    std::get<0>(backends_).reset();
    std::get<1>(backends_).reset();
  }
  std::mutex& mutex() { return mutex_; }

 private:
  std::mutex mutex_;
  std::string key_;
  std::tuple<std::unique_ptr<Backend<float>>, std::unique_ptr<Backend<double>>> backends_;
};

BackendCache& backend_cache() {
  static BackendCache cache;
  return cache;
}

// Everything a backend is made from: two calls with the same key can share one.
std::string backend_key(const RunPlan& plan, const ArrayArgument& a) {
  const Problem& p = plan.problem;
  std::ostringstream key;
  key << std::hexfloat << plan.backend << ' ' << int(a.precision) << ' ' << a.device << ' ' << p.grid.nx << ' '
      << p.grid.ny << ' ' << p.grid.nz << ' ' << p.grid.hx << ' ' << p.grid.hy << ' ' << p.grid.hz << ' ' << p.alpha
      << ' ' << p.dt << ' ' << p.order;
  return key.str();
}

// Device memory: stepped where it lives, after the caller's queued work. Every check that can
// refuse the call has run before the first kernel, so what can fail after it is a blow-up (the
// array is then fully stepped and holds the NaN or Inf) or a CUDA error (the device's context is
// then unusable for the caller's library as for heatrk4).
template <typename T>
void step_device_array(const ArrayArgument& a, RunPlan plan, const BackendEntry& entry, PendingSignals& signals) {
  const CurrentDevice on(a.device);
  plan.backend_options.device = a.device;
  plan.backend_options.field_in_caller_memory = true;
  BackendCache& cache = backend_cache();
  const std::lock_guard<std::mutex> one_at_a_time(cache.mutex());
  try {
    Backend<T>& backend = cache.get<T>(backend_key(plan, a), plan, entry);
    wait_for_caller_stream(a.stream);
    backend.adopt_device_field(static_cast<T*>(a.data));
    // In chunks, with Python's signal handlers between them: a stop (Ctrl-C) leaves the array
    // holding the field of the last chunk's end, a whole number of steps.
    bool stopped = false;
    for (int done = 0; done < plan.steps && !stopped;) {
      const int chunk = std::min(kStepsBetweenFiniteChecks, plan.steps - done);
      backend.step(chunk);
      done += chunk;
      stopped = done < plan.steps && signals.raised();
    }
    backend.release_device_field();
    if (stopped) return;
    require_finite(backend.first_nonfinite(), plan.problem.grid.nx, plan.problem.grid.ny, 0, 0, 0, plan.steps);
  } catch (...) {
    cache.release();  // a backend that failed is not trusted with the next call
    throw;
  }
}

template <typename T>
void step_array(const ArrayArgument& a, const RunPlan& plan, const BackendEntry& entry, PendingSignals& signals) {
  if (a.on_device) step_device_array<T>(a, plan, entry, signals);
  else step_host_array<T>(a, plan, entry, signals);
}

}  // namespace

void release_cached_backend() {
  // A step that holds the cache takes the GIL between its chunks: wait for it without the GIL.
  const py::gil_scoped_release waiting;
  BackendCache& cache = backend_cache();
  const std::lock_guard<std::mutex> one_at_a_time(cache.mutex());
  cache.release();
}

void step(py::object u, const StepArguments& s) {
  const ArrayArgument a = describe_array(u);
  const RunPlan plan = make_run_plan(run_options_for(a, s));
  require_usable_derived_values(plan);
  const BackendEntry* entry = default_registry().find(plan.backend);
  require_backend_fits_array(a, s, *entry);
  const Grid& g = plan.problem.grid;
  if (!a.on_device) {
    const Slab whole = decompose(g, plan.problem.order, 1, 0, ghost_scheme_of(*entry));
    require_host_bytes(host_bytes_needed(plan, *entry, whole, true), 1, "heatrk4.step", "use a smaller grid");
  }
  PendingSignals signals;
  {
    const py::gil_scoped_release computing;
    const std::size_t value = a.precision == Precision::Float ? sizeof(float) : sizeof(double);
    const BufferClaim one_step_at_a_time(a.data, g.points() * value);
    run_where_openmp_works([&] {
      if (a.precision == Precision::Float) step_array<float>(a, plan, *entry, signals);
      else step_array<double>(a, plan, *entry, signals);
    });
  }
  signals.raise_if_any();
}

}  // namespace heat::python
