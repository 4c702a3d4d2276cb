// The generated initial fields made in device memory (CUDA builds), so a run uploads nothing:
// randn and sine bitwise the host's, gaussian up to exp's last bit (initial_values.hpp).
#pragma once

#include "core/initial_conditions.hpp"
#include "core/problem.hpp"

namespace heat {

// Writes `box` of the field of grid `g` into `u` (device memory, its points, x fastest) and
// waits for it; InputError for InitKind::File, RunError for a CUDA failure.
template <typename T>
void make_initial_field_on_device(T* u, const Grid& g, const InitSpec& spec, const GridBox& box);

}  // namespace heat
