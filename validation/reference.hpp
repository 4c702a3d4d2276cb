// The ground truth for --check and verify: the cpu reference backend (cpu_reference) in double.
#pragma once

#include "solver/backend.hpp"
#include "solver/field.hpp"
#include "solver/problem.hpp"
#include "validation/norms.hpp"

namespace heat {

// Runs `steps` steps of the cpu reference backend in double from `initial`.
Field<double> cpu_reference(const Problem& problem, const Field<double>& initial, int steps);

// Runs backend `name` in precision T from `initial` rounded to T, and the double cpu reference
// from the same rounded field, and compares them under atol + rtol*|ref|.
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
