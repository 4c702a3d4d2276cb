#include "check/reference.hpp"

#include "core/errors.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"

namespace heat {

namespace {
const BackendEntry& registry_entry(const std::string& name) {
  const BackendEntry* entry = default_registry().find(name);
  if (!entry) throw InputError("unknown backend " + name);
  return *entry;
}

// `progress(done)`, where given, is called between the loop's chunks of steps.
template <typename T>
Field<T> run_backend(const BackendEntry& entry, const Problem& problem, Field<T> u, int steps, int device,
                     const std::function<void(int done)>& progress = {}, double last_step_dt = 0) {
  BackendOptions options;
  options.device = device;
  auto backend = entry.make<T>(problem, options);
  LoopCallbacks<T> callbacks;
  if (progress) callbacks.progress = [&progress](int done, int, double, int) { progress(done); };
  LoopSchedule schedule;
  schedule.last_step_dt = last_step_dt;
  advance(*backend, u, steps, schedule, callbacks);
  return u;
}

Field<double> run_backend_steps(const std::string& name, const Problem& problem, const Field<double>& initial,
                                int steps, const std::function<void(int done)>& progress = {}, double last_step_dt = 0) {
  return run_backend<double>(registry_entry(name), problem, initial, steps, 0, progress, last_step_dt);
}
}  // namespace

Field<double> cpu_reference(const Problem& problem, const Field<double>& initial, int steps) {
  return run_backend_steps(kCpuReferenceName, problem, initial, steps);
}

CheckReference check_reference(const std::string& run_backend, const Problem& problem, const Field<double>& initial,
                               int steps, const std::function<void(int done)>& progress, double last_step_dt) {
  const std::string name = run_backend == "cpu" ? kCpuReferenceName : "cpu";
  return {run_backend_steps(name, problem, initial, steps, progress, last_step_dt), name};
}

template <typename T>
FieldDifference check_against_reference(const BackendEntry& backend, const Problem& problem,
                                        const Field<double>& initial, int steps, double rtol, double atol,
                                        int device) {
  const Field<T> start = field_cast<T>(initial);
  const Field<T> result = run_backend<T>(backend, problem, start, steps, device);
  const Field<double> reference = cpu_reference(problem, field_cast<double>(start), steps);
  return compare_with_reference(result, reference, problem, rtol, atol);
}

template <typename T>
FieldDifference check_against_reference(const std::string& name, const Problem& problem,
                                        const Field<double>& initial, int steps, double rtol, double atol,
                                        int device) {
  return check_against_reference<T>(registry_entry(name), problem, initial, steps, rtol, atol, device);
}

template FieldDifference check_against_reference<float>(const BackendEntry&, const Problem&, const Field<double>&,
                                                        int, double, double, int);
template FieldDifference check_against_reference<double>(const BackendEntry&, const Problem&, const Field<double>&,
                                                         int, double, double, int);
template FieldDifference check_against_reference<float>(const std::string&, const Problem&, const Field<double>&,
                                                        int, double, double, int);
template FieldDifference check_against_reference<double>(const std::string&, const Problem&, const Field<double>&,
                                                         int, double, double, int);

}  // namespace heat
