// heatrk4.step: one array stepped in place (docs/design.md §11). The array's shape, dtype and the
// keyword arguments become the command line's run options, so make_run_plan and the run's checks
// refuse bad input with the command line's messages before any work; a NumPy array then goes
// through the run's time loop (advance: upload, chunks of steps, download), and a CUDA array
// becomes a CUDA backend's resident field where it lives (advance_in_place).

#include <algorithm>
#include <csignal>
#include <cmath>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>

#include "apps/physics_options.hpp"
#include "apps/run_checks.hpp"
#include "apps/run_options.hpp"
#include "python/arguments.hpp"
#include "python/array_argument.hpp"
#include "python/bindings.hpp"
#include "python/buffer_claims.hpp"
#include "python/device_arrays.hpp"
#include "python/fork_safety.hpp"
#include "python/interrupts.hpp"
#include "python/material_arrays.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "backends/cpu/first_nonfinite.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"

namespace heat::python {
namespace {

// h: one spacing (--h) or three (--hx, --hy, --hz).
void set_spacing(RunOptions& o, const py::object& h) {
  const std::vector<double> spacings = spacing_argument(h, "h");
  if (spacings.size() == 1) {
    o.h = spacings[0];
    o.given.insert("h");
    return;
  }
  o.hx = spacings[0], o.hy = spacings[1], o.hz = spacings[2];
  o.given.insert({"hx", "hy", "hz"});
}

// bc: one condition for every face (--bc), or a dict of conditions by face (--bc-x-low ...).
void set_boundaries(RunOptions& o, const py::object& bc) {
  if (py::isinstance<py::str>(bc)) {
    o.bc = text_argument(bc, "bc");
    o.given.insert("bc");
    return;
  }
  if (!py::isinstance<py::dict>(bc))
    throw py::type_error("bc = " + value_text(bc) + ": give a condition for every face (a str) or a dict of them by face");
  for (const auto& [key, value] : bc.cast<py::dict>()) {
    std::string face = text_argument(py::reinterpret_borrow<py::object>(key), "a key of bc");
    std::replace(face.begin(), face.end(), '_', '-');
    int found = -1;
    for (int f = 0; f < kFaces; ++f)
      if (face == face_name(f)) found = f;
    if (found < 0)
      throw InputError("bc has the key " + value_text(py::reinterpret_borrow<py::object>(key)) +
                       ": the faces are x_low, x_high, y_low, y_high, z_low and z_high");
    face_option(o, found) = text_argument(py::reinterpret_borrow<py::object>(value), "bc[" + face + "]");
    o.given.insert(std::string("bc-") + face_name(found));
  }
}

// K or C: a number (--conductivity, --heat-capacity) or an array of u's grid, a field (as
// --conductivity-file's).
void set_material(RunOptions& o, const py::object& value, const ArrayArgument& a, const std::string& name,
                  double RunOptions::*constant, std::shared_ptr<const Field<double>> RunOptions::*field,
                  const char* option) {
  if (is_array_like(value)) o.*field = material_values(value, name, a);
  else o.*constant = real_argument(value, name), o.given.insert(option);
}

// The command line's options for this call: the array gives the grid and the precision.
RunOptions run_options_for(const ArrayArgument& a, const StepArguments& s) {
  RunOptions o;
  o.nx = a.nx, o.ny = a.ny, o.nz = a.nz;
  o.given.insert({"nx", "ny", "nz"});
  if (!s.h.is_none()) set_spacing(o, s.h);
  if (!s.dt.is_none()) o.dt = real_argument(s.dt, "dt"), o.given.insert("dt");
  if (!s.cfl.is_none()) o.cfl = real_argument(s.cfl, "cfl"), o.given.insert("cfl");
  if (!s.alpha.is_none()) o.alpha = real_argument(s.alpha, "alpha"), o.given.insert("alpha");
  if (!s.conductivity.is_none())
    set_material(o, s.conductivity, a, "conductivity", &RunOptions::conductivity, &RunOptions::conductivity_values,
                 "conductivity");
  if (!s.heat_capacity.is_none())
    set_material(o, s.heat_capacity, a, "heat_capacity", &RunOptions::heat_capacity, &RunOptions::heat_capacity_values,
                 "heat-capacity");
  if (!s.bc.is_none()) set_boundaries(o, s.bc);
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

// The time loop's callbacks for a call: a pending Python signal (Ctrl-C) stops the steps after
// the chunk in progress.
template <typename T>
LoopCallbacks<T> stopping_on(PendingSignals& signals) {
  LoopCallbacks<T> callbacks;
  callbacks.end_chunk = [&signals](ChunkEnd end) {
    if (signals.raised()) end.stop_signal = SIGINT;
    return end;
  };
  return callbacks;
}

// A NaN or Inf in the array given is bad input, as in a file given to --init-file (ValueError),
// not a blow-up of the steps.
template <typename T>
void refuse_non_finite_input(const Field<T>& u) {
  const long long found = first_nonfinite_on_host(u.data(), u.size());
  if (found < 0) return;
  const std::size_t first = std::size_t(found);
  const auto count = std::size_t(std::count_if(u.data() + first, u.data() + u.size(), [](T v) { return !std::isfinite(v); }));
  const std::size_t nx = std::size_t(u.nx()), ny = std::size_t(u.ny());
  throw InputError("u holds " + std::to_string(count) + " non-finite value" + (count > 1 ? "s" : "") +
                   ", the first at (i, j, k) = (" + std::to_string(first % nx) + ", " + std::to_string(first / nx % ny) +
                   ", " + std::to_string(first / (nx * ny)) + "): an initial field must be finite");
}

// Host memory, through the run's time loop: the array is written only once every step is done
// and the result is finite, so a failure or a stop (Ctrl-C) leaves it as it was.
template <typename T>
void step_host_array(const ArrayArgument& a, const RunPlan& plan, const BackendEntry& entry, PendingSignals& signals) {
  Field<T> u = Field<T>::uninitialized(plan.problem.grid);
  std::memcpy(u.data(), a.data, u.size() * sizeof(T));
  refuse_non_finite_input(u);
  std::unique_ptr<Backend<T>> backend = entry.make<T>(plan.problem, plan.backend_options);
  LoopSchedule schedule;
  schedule.snapshot_buffers = 0;
  if (advance(*backend, u, plan.steps, schedule, stopping_on<T>(signals)).stop_signal) return;
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
      << ' ' << p.dt << ' ' << p.order << ' ' << p.conductivity << ' ' << plan.materials.checksum;
  for (const BoundaryCondition& c : p.boundaries) key << ' ' << boundary_condition_text(c);
  return key.str();
}

// Device memory: stepped where it lives, after the caller's queued work, through the run's time
// loop (advance_in_place). Every check that can refuse the call has run before the first kernel,
// so what can fail after it is a blow-up (the array then holds the field of the step whose check
// found the NaN or Inf) or a CUDA error (the device's context is then unusable for the caller's
// library as for heatrk4).
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
    // A stop (Ctrl-C) or a blow-up leaves the array holding the field of the last chunk's end, a
    // whole number of steps.
    advance_in_place(backend, static_cast<T*>(a.data), plan.problem.grid, plan.steps, {}, stopping_on<T>(signals));
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

// A radiation face's stable step grows shorter with the hottest value u starts from (the plan
// bounded it by T_INF alone): InputError where u's makes it shorter than the plan's.
void require_stable_radiation(const ArrayArgument& a, const StepArguments& s, const RunPlan& plan) {
  if (a.on_device || !any_radiation(plan.problem.boundaries)) return;
  const auto largest = [&](auto* values) {
    return double(*std::max_element(values, values + plan.problem.grid.points()));
  };
  const double hottest = a.precision == Precision::Float ? largest(static_cast<const float*>(a.data))
                                                         : largest(static_cast<const double*>(a.data));
  require_stable_at_faces(plan.problem, plan.cfl, bool_argument(s.allow_unstable, "allow_unstable"),
                          "cfl " + number_text(plan.cfl), hottest);
}

void step(py::object u, const StepArguments& s) {
  const ArrayArgument a = describe_array(u);
  const RunPlan plan = make_run_plan(run_options_for(a, s));
  require_usable_derived_values(plan);
  const BackendEntry* entry = default_registry().find(plan.backend);
  require_backend_fits_array(a, s, *entry);
  require_stable_radiation(a, s, plan);
  const Grid& g = plan.problem.grid;
  if (!a.on_device) {
    const Slab whole = decompose(g, plan.problem.order, 1, 0, entry->ghost_scheme(plan.problem));
    require_host_bytes(run_host_bytes_needed(plan, *entry, whole, true), 1, "heatrk4.step", "use a smaller grid");
  }
  PendingSignals signals;
  {
    const py::gil_scoped_release computing;
    const std::size_t value = a.precision == Precision::Float ? sizeof(float) : sizeof(double);
    const BufferClaim one_step_at_a_time(a.data, g.points() * value);
    run_where_openmp_works(
        [&] {
          if (a.precision == Precision::Float) step_array<float>(a, plan, *entry, signals);
          else step_array<double>(a, plan, *entry, signals);
        },
        [&] { signals.raised(); });
  }
  signals.raise_if_any();
}

}  // namespace heat::python
