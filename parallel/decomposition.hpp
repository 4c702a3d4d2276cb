// How a distributed run splits the grid over its ranks (docs/design.md §7): slabs along z.
//
// The interior planes [r, nz - r) are dealt out in contiguous runs, as evenly as possible. Each
// rank holds its own planes plus ghost planes on each side that has a neighbour: copies of the
// neighbour's planes that the halo exchange refreshes. At the two ends of the grid a box ends with
// the r planes beyond the global face: the layer, or the ghosts of the face's condition, which
// the box's own fill sets (box_problem). Where z is periodic across ranks the ends wrap instead:
// rank 0's lower neighbour is the last rank, whose last own planes are one period (nz - 2r) below
// rank 0's first, and every side has a neighbour. One rank alone never wraps: its box is the
// grid, and the fill wraps it as it wraps a single process's.
//
// A rank's box is a grid of its own (nx, ny, box_planes) that a backend steps as it steps a whole
// problem: it updates the box's planes [r, box_planes - r) and leaves the outer r planes alone.
// With r ghost planes that is exactly the rank's own planes; with wider ghosts it also recomputes
// the inner ghost planes, which is what lets one exchange serve a whole step.
#pragma once

#include "core/ghost_exchange.hpp"  // GhostScheme
#include "core/problem.hpp"

namespace heat {

struct Slab {
  int rank = 0;
  int ranks = 1;
  int radius = 0;
  bool wraps = false;  // z is periodic across ranks (never on one rank)
  // The ranks fill ghosts around every pass: a face's condition is not layer, or z wraps. The same
  // on every rank, as the exchanges are (GhostSides::fills_ghosts), whatever its box's faces.
  bool fills_ghosts = false;
  GhostScheme scheme = GhostScheme::PerStage;  // the scheme the ghost planes are laid out for
  int ghost = 0;        // ghost planes on each side that has a neighbour, exchanged with it
  int owned_begin = 0;  // global z of the first plane this rank computes
  int owned_end = 0;    // one past the last
  // Global z of the first plane this rank holds, and one past the last. Where the box wraps with
  // more than r ghost planes, rank 0's begins below 0 and the last rank's ends past nz: those
  // planes stand for the planes one period away (ring_plane).
  int box_begin = 0;
  int box_end = 0;

  // The planes this rank contributes to the whole field: its own planes, plus the global
  // boundary layer at either end of the grid. The parts of all ranks tile [0, nz) in rank order.
  int part_begin = 0;
  int part_end = 0;
  int part_alignment = 1;  // the parts' boundaries are multiples of it where the grid allows (decompose)
  int side_planes = 0;     // the work decompose counted for a side with a neighbour, in own planes

  int owned_planes() const { return owned_end - owned_begin; }
  int box_planes() const { return box_end - box_begin; }
  int part_planes() const { return part_end - part_begin; }
  bool has_lower_neighbour() const { return rank > 0 || wraps; }
  bool has_upper_neighbour() const { return rank + 1 < ranks || wraps; }
  int lower_neighbour() const { return (rank + ranks - 1) % ranks; }
  int upper_neighbour() const { return (rank + 1) % ranks; }
  // The plane of the grid whose values global plane `z` of a box holds: z itself, or where the
  // box wraps and z lies beyond the interior, the interior plane one period away.
  int ring_plane(int z, int nz) const;
  // The box as a grid: the global nx, ny and spacing, box_planes() planes in z.
  Grid box_grid(const Grid& global) const;
};

// The most ranks nz planes can be split over at stencil radius r with `ghost` ghost planes: every
// rank needs at least `ghost` interior planes of its own, since its neighbours' ghost planes are
// copied from them alone. Never less than 1 (one rank has no neighbours).
int max_ranks(int nz, int radius, int ghost);

// The slab of `rank` out of `ranks` at the stencil radius of `order`, for a problem with
// `boundaries` (several ranks wrap where z is periodic). Throws InputError naming
// the limit when the grid has fewer interior planes than the ranks need. `part_alignment` > 1:
// each boundary between two ranks' parts moves to the nearest multiple of it, as long as every
// rank keeps the planes it needs (else the parts stay as even as they can be): what makes a
// lossy ZFP snapshot the same for any rank count, whose 4-plane blocks then fall alike.
// `side_planes` > 0: a side with a neighbour counts as that many own planes of work, and each
// rank's own planes plus its sides' are split as evenly as they can be (a middle rank owns about
// side_planes fewer than an end one).
Slab decompose(const Grid& global, int order, int ranks, int rank, GhostScheme scheme = GhostScheme::PerStage,
               int part_alignment = 1, int side_planes = 0, const Boundaries& boundaries = Boundaries{});

// The problem a rank's box is stepped as: the box's grid, the whole problem's x and y faces (every
// box spans x and y), its z faces at the grid's ends, and layer on a side with a neighbour, whose
// ghost planes the exchange fills. A backend made with it fills what its box must and knows no
// ranks. Its source and materials are its planes of the whole grid's (set-up computed them there),
// ghost planes included, so that nothing of them is exchanged.
Problem box_problem(const Problem& whole, const Slab& slab);

}  // namespace heat
