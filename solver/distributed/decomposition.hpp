// How a distributed run splits the grid over its ranks (design section 7): slabs along z.
//
// The interior planes [r, nz - r) are dealt out in contiguous runs, as evenly as possible; each
// rank holds its own planes plus r = order/2 planes on either side (its box). At the two ends of the
// grid those outer planes are the global boundary layer, which never changes; between ranks
// they are ghost planes, copies of the neighbour's planes that the halo exchange refreshes.
//
// A rank's box is a grid of its own (nx, ny, local_nz) whose Dirichlet layer in z is exactly
// its ghost and boundary planes, so a backend steps it as it steps a whole
// problem: it updates the box's planes [r, local_nz - r), which are the rank's own planes.
#pragma once

#include "solver/problem.hpp"

namespace heat {

struct Slab {
  int rank = 0;
  int ranks = 1;
  int ghost = 0;        // planes exchanged with each neighbour (the stencil radius r)
  int owned_begin = 0;  // global z of the first plane this rank computes
  int owned_end = 0;    // one past the last
  int box_begin = 0;    // global z of the first plane this rank holds: owned_begin - ghost
  int box_end = 0;      // owned_end + ghost

  // The planes this rank contributes to the whole field: its own planes, plus the global
  // boundary layer at either end of the grid. The parts of all ranks tile [0, nz) in rank order.
  int part_begin = 0;
  int part_end = 0;

  int owned_planes() const { return owned_end - owned_begin; }
  int box_planes() const { return box_end - box_begin; }
  int part_planes() const { return part_end - part_begin; }
  bool has_lower_neighbour() const { return rank > 0; }
  bool has_upper_neighbour() const { return rank + 1 < ranks; }
  // The box as a grid: the global nx, ny and spacing, box_planes() planes in z.
  Grid box_grid(const Grid& global) const;
};

// The most ranks nz planes can be split over at stencil radius r: every rank needs at least r
// interior planes of its own, since its neighbours' ghost planes are copied from them alone.
// Never less than 1 (one rank has no neighbours).
int max_ranks(int nz, int radius);

// The slab of `rank` out of `ranks`, with ghost width r (the stencil radius of `order`).
// Throws InputError naming the limit when the grid has fewer interior planes than the ranks need.
Slab decompose(const Grid& global, int order, int ranks, int rank);

}  // namespace heat
