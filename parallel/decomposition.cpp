#include "parallel/decomposition.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "core/heat_source.hpp"
#include "core/materials.hpp"
#include "parallel/slab_field.hpp"

namespace heat {

Grid Slab::box_grid(const Grid& global) const {
  Grid g = global;
  g.nz = box_planes();
  return g;
}

int Slab::ring_plane(int z, int nz) const {
  const int period = nz - 2 * radius;
  if (!wraps) return z;
  if (z < radius) return z + period;
  if (z >= nz - radius) return z - period;
  return z;
}

int max_ranks(int nz, int radius, int ghost) {
  const int interior = nz - 2 * radius;
  return interior / ghost > 1 ? interior / ghost : 1;
}

namespace {

// Where rank k's own planes begin (k = ranks: where the last one's end). Each rank takes the same
// share of the interior planes plus `side_planes` for each neighbour it has, counted against its own
// planes: a side with a neighbour costs its rank that much work (ghost planes stepped, the parts
// around the exchange), so a middle rank, with two, owns fewer planes than an end one. Where that
// leaves some rank fewer than `ghost` planes, the split is even. With `alignment` > 1 each boundary
// inside the grid then moves to the nearest multiple of it when every rank still owns at least
// `ghost` planes.
int owned_begin_of(int k, int ranks, int r, int interior, int ghost, int alignment, int side_planes) {
  const auto even = [&](int k) { return r + k * (interior / ranks) + std::min(k, interior % ranks); };
  // The sides with a neighbour of the ranks before k: 2 each, less rank 0's lower one.
  const auto sides_before = [&](int k) { return k == 0 ? 0 : 2 * k - 1 - (k == ranks ? 1 : 0); };
  const long long work = (long long)interior + (long long)side_planes * sides_before(ranks);
  const auto balanced = [&](int k) {
    return r + int((k * work + ranks / 2) / ranks) - side_planes * sides_before(k);
  };
  const auto split_leaves_ghosts = [&](const auto& begin) {
    for (int j = 0; j < ranks; ++j)
      if (begin(j + 1) - begin(j) < ghost) return false;
    return true;
  };
  // Asked once: per boundary it would make the aligned check below quadratic in the ranks.
  const bool balance = side_planes > 0 && split_leaves_ghosts(balanced);
  const auto base = [&](int k) { return balance ? balanced(k) : even(k); };
  if (alignment <= 1 || k == 0 || k == ranks) return base(k);
  const auto aligned = [&](int k) {
    if (k == 0 || k == ranks) return base(k);
    return (base(k) + alignment / 2) / alignment * alignment;
  };
  return split_leaves_ghosts(aligned) ? aligned(k) : base(k);
}

}  // namespace

Slab decompose(const Grid& global, int order, int ranks, int rank, GhostScheme scheme, int part_alignment,
               int side_planes, const Boundaries& boundaries) {
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
  s.radius = r;
  const int z_low = 2 * 2;  // face 2a is axis a's low face
  s.wraps = boundaries[z_low].kind == BoundaryKind::Periodic && ranks > 1;
  s.fills_ghosts = !all_layer(boundaries) || s.wraps;
  // Wrapped, every rank has two neighbours: the even split is the balanced one.
  if (s.wraps) side_planes = 0;
  s.scheme = scheme;
  s.ghost = ghost;
  s.part_alignment = part_alignment;
  s.side_planes = side_planes;
  s.owned_begin = owned_begin_of(rank, ranks, r, interior, ghost, part_alignment, side_planes);
  s.owned_end = owned_begin_of(rank + 1, ranks, r, interior, ghost, part_alignment, side_planes);
  s.box_begin = s.has_lower_neighbour() ? s.owned_begin - ghost : 0;
  s.box_end = s.has_upper_neighbour() ? s.owned_end + ghost : global.nz;
  // The parts tile [0, nz) in rank order, wrapped or not: the end ranks' hold the planes beyond
  // the faces.
  s.part_begin = rank > 0 ? s.owned_begin : 0;
  s.part_end = rank + 1 < ranks ? s.owned_end : global.nz;
  return s;
}

Problem box_problem(const Problem& whole, const Slab& slab) {
  Problem box = whole;
  box.grid = slab.box_grid(whole.grid);
  const int z_low = 2 * 2, z_high = z_low + 1;
  if (slab.has_lower_neighbour()) box.boundaries[z_low] = BoundaryCondition{};
  if (slab.has_upper_neighbour()) box.boundaries[z_high] = BoundaryCondition{};
  // The box's planes of the whole grid's source (a wrapped box's beyond the interior one period
  // away, as its field's): its step increment then needs no neighbour's.
  if (whole.source)
    box.source = std::make_shared<const HeatSource>(
        whole.source->cut([&](const Field<double>& f) { return box_of(f, slab); }));
  // So too its planes of the materials, whose ghost planes then hold the neighbours' K and C (or
  // the faces' mirrored ones) from set-up on, with no exchange; the convective weights follow the
  // box's rows.
  if (whole.materials) {
    auto materials = std::make_shared<Materials>();
    materials->conductivity = box_of(whole.materials->conductivity, slab);
    materials->heat_capacity = box_of(whole.materials->heat_capacity, slab);
    set_convective_weights(box, *materials);
    box.materials = std::move(materials);
  }
  return box;
}

}  // namespace heat
