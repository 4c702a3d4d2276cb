// Plane copies by Hopper's tensor memory accelerator (TMA): a field described once to the copy
// engine (a tensor map), so that one thread of a block can ask for a box of a plane, halo
// included, and the block finds it in shared memory when an mbarrier says it has arrived. The
// copy costs the block no registers and no load instructions (one_pass_copy_engine.cuh's kernel).
#pragma once

#include <cuda.h>

#include <cstddef>

#include "core/problem.hpp"

namespace heat {

// Whether the copy engine can read boxes of planes of this grid's fields of `value_bytes` values
// on `device`: a Hopper GPU or later, and rows a multiple of 16 bytes (the map's row pitch must be).
bool plane_copies_possible(const Grid& g, std::size_t value_bytes, int device);

// The map of a field of g (float or double, by value_bytes) that copies boxes of box_x x box_y
// points of one plane. A box reaching beyond the grid is filled with NaN there, so a value read
// from beyond the grid poisons whatever uses it. RunError if the driver refuses.
CUtensorMap plane_box_map(const void* field, std::size_t value_bytes, const Grid& g, int box_x, int box_y);

}  // namespace heat
