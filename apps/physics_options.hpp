// The physics a run's options give beyond the grid and order (docs/design.md §1): the material
// (alpha, conductivity, heat capacity) and the condition on each face.
#pragma once

#include "apps/run_options.hpp"
#include "core/problem.hpp"

namespace heat {

// Sets p.alpha, p.conductivity and p.heat_capacity from --alpha, --conductivity and
// --heat-capacity; InputError for one that is not a positive number or for all three given.
void resolve_material(const RunOptions& o, Problem& p);

// The member of `o` that --bc-FACE fills for face `face` (core/boundary_conditions.hpp's order).
std::string& face_option(RunOptions& o, int face);
const std::string& face_option(const RunOptions& o, int face);

// The condition of each face: its --bc-FACE where given, else --bc; InputError naming the option
// for a condition that cannot be read, a lone periodic face or an axis too short to reflect.
Boundaries resolve_boundaries(const RunOptions& o, const Grid& g, int order);

}  // namespace heat
