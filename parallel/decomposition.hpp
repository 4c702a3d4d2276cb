// How a distributed run splits the grid over its ranks (docs/design.md §7): slabs along z, and
// where the rank grid (rank_grid.hpp) says so, x and y split too.
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
//
// x and y split alike (AxisSplit): evenly, with the same number of ghost points as z beside each
// neighbour, wrapping where the axis is periodic across ranks. A box then spans its own columns
// and rows, not the whole plane, and is still stepped as a grid of its own.
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "core/ghost_exchange.hpp"  // GhostScheme
#include "core/problem.hpp"
#include "parallel/rank_grid.hpp"

namespace heat {

// How one of x and y is split: the rank's position along it, and in global indices its own
// points, its box (own points plus ghost points beside each neighbour, or the r points beyond a
// face of the grid) and its part of the whole field, as Slab's z fields say of z.
struct AxisSplit {
  int position = 0;  // along the axis, from 0
  int ranks = 1;     // along the axis
  bool wraps = false;
  int owned_begin = 0, owned_end = 0;
  int box_begin = 0, box_end = 0;
  int part_begin = 0, part_end = 0;

  int box_points() const { return box_end - box_begin; }
  int part_points() const { return part_end - part_begin; }
  bool has_lower_neighbour() const { return position > 0 || wraps; }
  bool has_upper_neighbour() const { return position + 1 < ranks || wraps; }
};

struct Slab {
  int rank = 0;   // in the run
  int ranks = 1;  // in the run
  RankGrid rank_grid;             // the ranks along x, y and z (1x1xN: slabs)
  std::array<int, 3> position{};  // this rank's on the rank grid
  AxisSplit x, y;                 // the whole axis unless the rank grid splits it
  int radius = 0;
  bool wraps = false;  // z is periodic across ranks (never on one rank)
  // The ranks fill ghosts around every pass: a face's condition is not layer, or an axis wraps. The same
  // on every rank, as the exchanges are (GhostSides::fills_ghosts), whatever its box's faces.
  bool fills_ghosts = false;
  bool radiates = false;  // a face radiates: every rank steps the stage form (GhostSides::radiates)
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
  // Along z (these say nothing of x and y).
  bool has_lower_neighbour() const { return position[2] > 0 || wraps; }
  bool has_upper_neighbour() const { return position[2] + 1 < rank_grid.ranks[2] || wraps; }
  int lower_neighbour() const { return neighbour(2, -1); }
  int upper_neighbour() const { return neighbour(2, 1); }
  // The run's rank one step (`step` -1 or 1) along `axis` on the rank grid, wrapping at its ends.
  int neighbour(int axis, int step) const;
  // A neighbour along any axis: the box has ghost points to exchange.
  bool exchanges() const {
    return has_lower_neighbour() || has_upper_neighbour() || x.has_lower_neighbour() || x.has_upper_neighbour() ||
           y.has_lower_neighbour() || y.has_upper_neighbour();
  }
  // Only z is split: each box spans whole planes.
  bool is_slab() const { return rank_grid.is_slabs(); }
  // The plane of the grid whose values global plane `z` of a box holds: z itself, or where the
  // box wraps and z lies beyond the interior, the interior plane one period away.
  int ring_plane(int z, int nz) const;
  // The box as a grid: the global spacing, x.box_points() by y.box_points() by box_planes().
  Grid box_grid(const Grid& global) const;
};

// The point of the grid whose values global index `i` of a box along an axis of n points holds,
// where that axis `wraps` at stencil radius r: i itself, or beyond the interior the point one
// period (n - 2r) away.
int ring_point(int i, int n, int radius, bool wraps);

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
// The same on `rank_grid`: z as above over its R ranks along z (1x1xN is the slabs above), x and y
// evenly over its P and Q, InputError naming the axis and the limit where one is too thin.
Slab decompose(const Grid& global, int order, const RankGrid& rank_grid, int rank, GhostScheme scheme,
               int part_alignment = 1, int side_planes = 0, const Boundaries& boundaries = Boundaries{});

// The slab of `rank` in the run of `mine`, laid out as mine is: its own points, box and part (the
// parts depend on no face: a wrapped z takes no side planes, which mine's side_planes already says).
Slab slab_of_rank(const Slab& mine, const Grid& global, int rank);

// The runs of whole planes each rank writes of a snapshot, in rank order, tiling [0, nz): every
// rank's part where the ranks are z slabs (its planes of its box); on a rank grid that splits x or
// y, an even split of the planes (boundaries at multiples of the slab's part_alignment where every
// run keeps a plane), into which the boxes are regrouped before they are written
// (regroup_into_planes), so that the files are a slab run's. InputError where nz < ranks then.
std::vector<std::pair<int, int>> snapshot_planes_of_ranks(const Slab& mine, const Grid& global);

// The problem a rank's box is stepped as: the box's grid, the whole problem's faces where the box
// ends at the grid's, and layer on a side with a neighbour, whose ghost points the exchange
// fills. A backend made with it fills what its box must and knows no ranks. Its source and
// materials are its box of the whole grid's (set-up computed them there), ghost points included,
// so that nothing of them is exchanged.
Problem box_problem(const Problem& whole, const Slab& slab);

}  // namespace heat
