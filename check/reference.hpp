// The ground truth for verify and the tests: the cpu reference backend (cpu_reference) in double;
// and what --check compares a run with.
#pragma once

#include <functional>
#include <string>

#include "core/backend.hpp"
#include "core/field.hpp"
#include "core/problem.hpp"
#include "check/norms.hpp"

namespace heat {

// Runs `steps` steps of the cpu reference backend in double from `initial`.
Field<double> cpu_reference(const Problem& problem, const Field<double>& initial, int steps);

// A result of `problem` against a reference of it: compare_fields, or where a face is not layer
// compare_interiors, since that face's ghosts multiply the rounding of the points they are made from.
template <typename T>
FieldDifference compare_with_reference(const Field<T>& result, const Field<double>& reference, const Problem& problem,
                                       double rtol, double atol) {
  if (all_layer(problem.boundaries)) return compare_fields(result, reference, rtol, atol);
  return compare_interiors(result, reference, problem.radius(), rtol, atol);
}

// What --check compares a run of backend `run_backend` with: the fast cpu backend in double, ten
// times quicker than the reference and held to it at every order on random fields
// (test_cpu_fast_backend), or the reference itself where the run is the fast cpu's, so that no
// backend is checked against itself. `backend` names the one used.
struct CheckReference {
  Field<double> field;
  std::string backend;
};
// `progress(done)`, where given, is called with the steps done between the time loop's chunks
// (--check's progress line); `last_step_dt` > 0: the last step's dt (LoopSchedule::last_step_dt).
CheckReference check_reference(const std::string& run_backend, const Problem& problem, const Field<double>& initial,
                               int steps, const std::function<void(int done)>& progress = {},
                               double last_step_dt = 0);

// Runs backend `name` in precision T from `initial` rounded to T, and the double cpu reference
// from the same rounded field, and compares them under atol + rtol*|ref| (compare_with_reference).
template <typename T>
FieldDifference check_against_reference(const BackendEntry& backend, const Problem& problem,
                                        const Field<double>& initial, int steps, double rtol, double atol,
                                        int device = 0);
// The same for a backend of the registry, by name.
template <typename T>
FieldDifference check_against_reference(const std::string& name, const Problem& problem,
                                        const Field<double>& initial, int steps, double rtol, double atol,
                                        int device = 0);

}  // namespace heat
