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
  g.nx = x.box_points();
  g.ny = y.box_points();
  g.nz = box_planes();
  return g;
}

int ring_point(int i, int n, int radius, bool wraps) {
  const int period = n - 2 * radius;
  if (!wraps) return i;
  if (i < radius) return i + period;
  if (i >= n - radius) return i - period;
  return i;
}

int Slab::ring_plane(int z, int nz) const { return ring_point(z, nz, radius, wraps); }

int Slab::neighbour(int axis, int step) const {
  std::array<int, 3> at = position;
  const int along = rank_grid.ranks[std::size_t(axis)];
  at[std::size_t(axis)] = (at[std::size_t(axis)] + step + along) % along;
  return rank_grid.rank_at(at);
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

// Axis `axis` of n points split evenly over `ranks`, the rank at `position`, with `ghost` ghost
// points beside each neighbour; InputError naming the axis and the limit where it is too thin.
AxisSplit split_axis(int axis, int n, int r, int ghost, int ranks, int position, bool periodic) {
  const int limit = max_ranks(n, r, ghost);
  const char* name = axis == 0 ? "x" : "y";
  if (ranks > limit)
    throw InputError(std::to_string(ranks) + " ranks along " + name + " are too many for n" + name + " = " +
                     std::to_string(n) + ": each needs at least " + std::to_string(ghost) + " of the " +
                     std::to_string(n - 2 * r) + " interior points, so at most " + std::to_string(limit) +
                     " (--ranks-grid)");
  AxisSplit a;
  a.position = position;
  a.ranks = ranks;
  a.wraps = periodic && ranks > 1;
  const int interior = n - 2 * r;
  a.owned_begin = owned_begin_of(position, ranks, r, interior, ghost, 1, 0);
  a.owned_end = owned_begin_of(position + 1, ranks, r, interior, ghost, 1, 0);
  a.box_begin = a.has_lower_neighbour() ? a.owned_begin - ghost : 0;
  a.box_end = a.has_upper_neighbour() ? a.owned_end + ghost : n;
  a.part_begin = position > 0 ? a.owned_begin : 0;
  a.part_end = position + 1 < ranks ? a.owned_end : n;
  return a;
}

}  // namespace

Slab decompose(const Grid& global, int order, int ranks, int rank, GhostScheme scheme, int part_alignment,
               int side_planes, const Boundaries& boundaries) {
  return decompose(global, order, z_slabs(ranks), rank, scheme, part_alignment, side_planes, boundaries);
}

Slab decompose(const Grid& global, int order, const RankGrid& rank_grid, int rank, GhostScheme scheme,
               int part_alignment, int side_planes, const Boundaries& boundaries) {
  const int ranks_count = rank_grid.count();
  if (rank < 0 || rank >= ranks_count)
    throw std::invalid_argument("rank " + std::to_string(rank) + " of " + std::to_string(ranks_count) + " does not exist");
  const int ranks = rank_grid.ranks[2];  // along z: the slabs
  const std::array<int, 3> position = rank_grid.position_of(rank);
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
  s.ranks = ranks_count;
  s.rank_grid = rank_grid;
  s.position = position;
  s.radius = r;
  const auto periodic = [&](int axis) { return boundaries[std::size_t(2 * axis)].kind == BoundaryKind::Periodic; };
  s.x = split_axis(0, global.nx, r, ghost, rank_grid.ranks[0], position[0], periodic(0));
  s.y = split_axis(1, global.ny, r, ghost, rank_grid.ranks[1], position[1], periodic(1));
  s.wraps = periodic(2) && ranks > 1;
  s.fills_ghosts = !all_layer(boundaries) || s.wraps || s.x.wraps || s.y.wraps;
  s.radiates = any_radiation(boundaries);
  // Wrapped, every rank has two neighbours: the even split is the balanced one.
  if (s.wraps) side_planes = 0;
  s.scheme = scheme;
  s.ghost = ghost;
  s.part_alignment = part_alignment;
  s.side_planes = side_planes;
  const int z = position[2];
  s.owned_begin = owned_begin_of(z, ranks, r, interior, ghost, part_alignment, side_planes);
  s.owned_end = owned_begin_of(z + 1, ranks, r, interior, ghost, part_alignment, side_planes);
  s.box_begin = s.has_lower_neighbour() ? s.owned_begin - ghost : 0;
  s.box_end = s.has_upper_neighbour() ? s.owned_end + ghost : global.nz;
  // The parts tile [0, nz) in rank order, wrapped or not: the end ranks' hold the planes beyond
  // the faces.
  s.part_begin = z > 0 ? s.owned_begin : 0;
  s.part_end = z + 1 < ranks ? s.owned_end : global.nz;
  return s;
}

Slab slab_of_rank(const Slab& mine, const Grid& global, int rank) {
  return decompose(global, 2 * mine.radius, mine.rank_grid, rank, mine.scheme, mine.part_alignment, mine.side_planes);
}

std::vector<std::pair<int, int>> snapshot_planes_of_ranks(const Slab& mine, const Grid& global) {
  std::vector<std::pair<int, int>> planes;
  for (int rank = 0; rank < mine.ranks; ++rank) {
    if (mine.is_slab()) {
      const Slab s = slab_of_rank(mine, global, rank);
      planes.emplace_back(s.part_begin, s.part_end);
      continue;
    }
    if (global.nz < mine.ranks)
      throw InputError("--ranks-grid " + mine.rank_grid.text() + " writes its snapshots as " +
                       std::to_string(mine.ranks) + " runs of whole planes, one a rank, but nz = " +
                       std::to_string(global.nz) + " has fewer (give at least as many planes as ranks: --nz)");
    const auto begin = [&](int k) { return owned_begin_of(k, mine.ranks, 0, global.nz, 1, mine.part_alignment, 0); };
    planes.emplace_back(begin(rank), begin(rank + 1));
  }
  return planes;
}

Problem box_problem(const Problem& whole, const Slab& slab) {
  Problem box = whole;
  box.grid = slab.box_grid(whole.grid);
  const bool lower[3] = {slab.x.has_lower_neighbour(), slab.y.has_lower_neighbour(), slab.has_lower_neighbour()};
  const bool upper[3] = {slab.x.has_upper_neighbour(), slab.y.has_upper_neighbour(), slab.has_upper_neighbour()};
  for (int axis = 0; axis < 3; ++axis) {
    if (lower[axis]) box.boundaries[std::size_t(2 * axis)] = BoundaryCondition{};
    if (upper[axis]) box.boundaries[std::size_t(2 * axis + 1)] = BoundaryCondition{};
  }
  // The box's points of the whole grid's source (a wrapped box's beyond the interior one period
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
