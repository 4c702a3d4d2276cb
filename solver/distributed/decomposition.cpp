#include "solver/distributed/decomposition.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "solver/errors.hpp"

namespace heat {

Grid Slab::box_grid(const Grid& global) const {
  Grid g = global;
  g.nz = box_planes();
  return g;
}

int max_ranks(int nz, int radius, int ghost) {
  const int interior = nz - 2 * radius;
  return interior / ghost > 1 ? interior / ghost : 1;
}

namespace {

// Where rank k's own planes begin (k = ranks: where the last one's end): the first `extra` ranks
// take one plane more than the rest, and with `alignment` > 1 each boundary inside the grid moves
// to the nearest multiple of it when every rank still owns at least `ghost` planes.
int owned_begin_of(int k, int ranks, int r, int interior, int ghost, int alignment) {
  const auto even = [&](int k) { return r + k * (interior / ranks) + std::min(k, interior % ranks); };
  if (alignment <= 1 || k == 0 || k == ranks) return even(k);
  const auto aligned = [&](int k) {
    if (k == 0 || k == ranks) return even(k);
    return (even(k) + alignment / 2) / alignment * alignment;
  };
  for (int j = 0; j < ranks; ++j)
    if (aligned(j + 1) - aligned(j) < ghost) return even(k);
  return aligned(k);
}

}  // namespace

Slab decompose(const Grid& global, int order, int ranks, int rank, GhostScheme scheme, int part_alignment) {
  if (ranks < 1 || rank < 0 || rank >= ranks)
    throw std::invalid_argument("rank " + std::to_string(rank) + " of " + std::to_string(ranks) + " does not exist");
  const int r = order / 2;
  const int ghost = ghost_planes(scheme, r);
  const int interior = global.nz - 2 * r;
  const int limit = max_ranks(global.nz, r, ghost);
  if (ranks > limit)
    throw InputError(std::to_string(ranks) + " ranks are too many for nz = " + std::to_string(global.nz) +
                     " at order " + std::to_string(order) + ": each rank needs at least " + std::to_string(ghost) +
                     " of the " + std::to_string(interior) + " interior planes, so at most " + std::to_string(limit) +
                     (limit == 1 ? " rank" : " ranks") + " (use fewer ranks or more planes along z: --nz, or --n)");

  Slab s;
  s.rank = rank;
  s.ranks = ranks;
  s.scheme = scheme;
  s.ghost = ghost;
  s.part_alignment = part_alignment;
  s.owned_begin = owned_begin_of(rank, ranks, r, interior, ghost, part_alignment);
  s.owned_end = owned_begin_of(rank + 1, ranks, r, interior, ghost, part_alignment);
  s.box_begin = s.has_lower_neighbour() ? s.owned_begin - ghost : 0;
  s.box_end = s.has_upper_neighbour() ? s.owned_end + ghost : global.nz;
  s.part_begin = s.has_lower_neighbour() ? s.owned_begin : 0;
  s.part_end = s.has_upper_neighbour() ? s.owned_end : global.nz;
  return s;
}

}  // namespace heat
