// How large a generated initial field's values are, found without making the field: what a run
// checks before any work where its snapshots cannot hold values past some magnitude (a ZFP bound,
// docs/design.md §4). By the maximum principle no later field of the run is larger.
#pragma once

#include "core/initial_conditions.hpp"

namespace heat {

// The largest |value| of the generated field `spec` over `planes` of `whole`, each value rounded
// to T as the generators round it, where it is `from` or more; where it is less, some magnitude
// below `from`. gaussian and sine: exactly, from their largest factor along each axis; randn: only
// the draws whose polar s is small enough to reach `from` (|draw| <= sqrt(-2 log s)) take their
// logarithm, so a large `from` costs a hash per point.
template <typename T>
double largest_initial_magnitude(const Grid& whole, const InitSpec& spec, Planes planes, double from);

}  // namespace heat
