// How the ranks of a distributed run lie over the grid's axes (docs/design.md §7, --ranks-grid):
// P x Q x R ranks along x, y and z. Rank k sits at position (k % P, k / P % Q, k / (P Q)), so
// that 1x1xN, the z slabs every run took before the split over x and y, numbers its slabs as
// before.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "core/boundary_conditions.hpp"
#include "core/problem.hpp"

namespace heat {

struct RankGrid {
  std::array<int, 3> ranks{1, 1, 1};  // along x, y and z

  int count() const { return ranks[0] * ranks[1] * ranks[2]; }
  // Only z is split: the slabs, whose z faces are whole planes.
  bool is_slabs() const { return ranks[0] == 1 && ranks[1] == 1; }
  std::array<int, 3> position_of(int rank) const {
    return {rank % ranks[0], rank / ranks[0] % ranks[1], rank / (ranks[0] * ranks[1])};
  }
  int rank_at(const std::array<int, 3>& position) const {
    return position[0] + ranks[0] * (position[1] + ranks[1] * position[2]);
  }
  // "PxQxR".
  std::string text() const;
};

// The pairs of ranks (lower, upper) that are neighbours along an axis of `grid`, each once: along
// every axis split over several ranks, and where z `wraps`, the last rank along z and the first.
// x and y never wrap here: GPU ranks, whose peers these are, never split a periodic x or y.
std::vector<std::pair<int, int>> neighbouring_ranks(const RankGrid& grid, bool wraps);

// N ranks as z slabs: 1x1xN.
inline RankGrid z_slabs(int ranks) { return RankGrid{{1, 1, ranks}}; }

// --ranks-grid's value: "slabs" (1x1xN, the default), "auto", or PxQxR.
struct RankGridChoice {
  enum class Kind { Slabs, Auto, Given };
  Kind kind = Kind::Slabs;
  RankGrid given;  // Kind::Given's
};

// InputError naming the value for anything but slabs, auto or three positive integers joined by x.
RankGridChoice parse_ranks_grid(const std::string& text);

// The most ranks an axis of n points can be split over at stencil radius r with `ghost` ghost
// points a side: each rank needs at least `ghost` interior points of its own, since its
// neighbours' ghost points are copied from them alone. Never less than 1.
int max_ranks(int n, int radius, int ghost);

// The grid `choice` gives `ranks` ranks on `global` at stencil radius r with `ghost` ghost points a
// side, for faces `boundaries` (a periodic axis split over several ranks exchanges one face more):
// Slabs 1x1xN; Auto the split whose boxes exchange the fewest points with their neighbours, of
// those that leave every box its ghost points (1x1xN where none does, whose decomposition then
// names the limit); Given as given, InputError naming --ranks-grid where its product is not
// `ranks` or it splits an axis over more ranks than max_ranks (the axis and the limit named). With
// ghost points wider than r (GPU ranks'), no grid that splits a periodic x or y: Auto passes them
// by, Given is refused (InputError naming --ranks-grid, the axis and its periodic faces), since such
// boxes step the grid's points beyond a periodic face, which one process leaves in part as they
// were (rank_grid.cpp says why).
RankGrid resolve_rank_grid(const RankGridChoice& choice, int ranks, const Grid& global, int radius, int ghost,
                           const Boundaries& boundaries);

}  // namespace heat
