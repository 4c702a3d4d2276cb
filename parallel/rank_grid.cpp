#include "parallel/rank_grid.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

#include "core/errors.hpp"

namespace heat {

namespace {

constexpr const char* kAxisNames[3] = {"x", "y", "z"};

std::array<int, 3> points_of(const Grid& g) { return {g.nx, g.ny, g.nz}; }

// Every exchange's points over the grid: each cut between two ranks along an axis (one more where
// the axis wraps) sends a face of the other axes' interior points both ways.
long long exchanged_points(const RankGrid& grid, const Grid& global, int radius, const Boundaries& boundaries) {
  const std::array<int, 3> n = points_of(global);
  long long points = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const int split = grid.ranks[std::size_t(axis)];
    if (split == 1) continue;
    const bool wraps = boundaries[std::size_t(2 * axis)].kind == BoundaryKind::Periodic;
    long long face = 1;
    for (int other = 0; other < 3; ++other)
      if (other != axis) face *= n[std::size_t(other)] - 2 * radius;
    points += (wraps ? split : split - 1) * face;
  }
  return points;
}

// The first of x and y that `grid` splits where it is periodic, for boxes whose ghost points are
// wider than the stencil (ghost > radius, GPU ranks'); -1 where none. Such a box holds the grid's
// own points beyond a periodic face among the points it steps and fills as its neighbour's
// copies, where one process leaves those beside the later axes' faces as they were, so no box can
// hold both: its bits would differ from one process's. z is filled last, its periodic fill spanning
// every other axis's ghosts, and splits alike at any width; boxes of r ghost points (cpu ranks)
// never step nor fill the points beyond a face.
int split_periodic_plane_axis(const RankGrid& grid, int radius, int ghost, const Boundaries& boundaries) {
  if (ghost <= radius) return -1;
  for (int axis = 0; axis < 2; ++axis)
    if (grid.ranks[std::size_t(axis)] > 1 && boundaries[std::size_t(2 * axis)].kind == BoundaryKind::Periodic)
      return axis;
  return -1;
}

bool leaves_ghosts(const RankGrid& grid, const Grid& global, int radius, int ghost) {
  const std::array<int, 3> n = points_of(global);
  for (int axis = 0; axis < 3; ++axis)
    if (grid.ranks[std::size_t(axis)] > max_ranks(n[std::size_t(axis)], radius, ghost)) return false;
  return true;
}

// The fewest exchanged points; of equal ones the most ranks along z, then along y: the slabs'
// contiguous planes where they cost no more.
RankGrid fewest_exchanged_points(int ranks, const Grid& global, int radius, int ghost, const Boundaries& boundaries) {
  RankGrid best = z_slabs(ranks);
  long long least = std::numeric_limits<long long>::max();
  for (int z = ranks; z >= 1; --z) {
    if (ranks % z != 0) continue;
    for (int y = ranks / z; y >= 1; --y) {
      if (ranks / z % y != 0) continue;
      const RankGrid grid{{ranks / z / y, y, z}};
      if (!leaves_ghosts(grid, global, radius, ghost)) continue;
      if (split_periodic_plane_axis(grid, radius, ghost, boundaries) >= 0) continue;
      const long long points = exchanged_points(grid, global, radius, boundaries);
      if (points < least) {
        least = points;
        best = grid;
      }
    }
  }
  return best;
}

int positive_integer(const std::string& text, const std::string& value) {
  const auto bad = [&] {
    return InputError("--ranks-grid " + value + " is not slabs, auto or PxQxR (three positive integers, such as 2x2x1)");
  };
  if (text.empty() || text.size() > 6) throw bad();
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) throw bad();
  const int number = std::stoi(text);
  if (number < 1) throw bad();
  return number;
}

}  // namespace

std::vector<std::pair<int, int>> neighbouring_ranks(const RankGrid& grid, bool wraps) {
  std::vector<std::pair<int, int>> pairs;
  for (int rank = 0; rank < grid.count(); ++rank)
    for (std::size_t axis = 0; axis < 3; ++axis) {
      std::array<int, 3> at = grid.position_of(rank);
      const int along = grid.ranks[axis];
      const bool wrapped = at[axis] + 1 == along;
      if (along == 1 || (wrapped && !(axis == 2 && wraps))) continue;
      at[axis] = (at[axis] + 1) % along;
      const std::pair<int, int> pair{rank, grid.rank_at(at)}, reversed{pair.second, pair.first};
      // Two ranks that wrap are each other's lower and upper neighbour: one pair.
      if (std::find(pairs.begin(), pairs.end(), reversed) == pairs.end()) pairs.push_back(pair);
    }
  return pairs;
}

std::string RankGrid::text() const {
  return std::to_string(ranks[0]) + "x" + std::to_string(ranks[1]) + "x" + std::to_string(ranks[2]);
}

RankGridChoice parse_ranks_grid(const std::string& text) {
  if (text == "slabs") return {RankGridChoice::Kind::Slabs, {}};
  if (text == "auto") return {RankGridChoice::Kind::Auto, {}};
  RankGridChoice choice{RankGridChoice::Kind::Given, {}};
  std::size_t from = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const std::size_t x = axis < 2 ? text.find('x', from) : text.size();
    if (x == std::string::npos) positive_integer("", text);  // throws: fewer than three numbers
    choice.given.ranks[std::size_t(axis)] = positive_integer(text.substr(from, x - from), text);
    from = x + 1;
  }
  return choice;
}

int max_ranks(int n, int radius, int ghost) {
  const int interior = n - 2 * radius;
  return interior / ghost > 1 ? interior / ghost : 1;
}

RankGrid resolve_rank_grid(const RankGridChoice& choice, int ranks, const Grid& global, int radius, int ghost,
                           const Boundaries& boundaries) {
  switch (choice.kind) {
    case RankGridChoice::Kind::Slabs:
      return z_slabs(ranks);
    case RankGridChoice::Kind::Auto:
      return fewest_exchanged_points(ranks, global, radius, ghost, boundaries);
    case RankGridChoice::Kind::Given:
      break;
  }
  const RankGrid& grid = choice.given;
  if (grid.count() != ranks)
    throw InputError("--ranks-grid " + grid.text() + " lays out " + std::to_string(grid.count()) + " ranks, but the run has " +
                     std::to_string(ranks) + " (give P, Q and R whose product is the rank count)");
  const std::array<int, 3> n = points_of(global);
  for (int axis = 0; axis < 3; ++axis) {
    const int split = grid.ranks[std::size_t(axis)], limit = max_ranks(n[std::size_t(axis)], radius, ghost);
    if (split <= limit) continue;
    const std::string name = kAxisNames[axis];
    throw InputError("--ranks-grid " + grid.text() + " splits " + name + " over " + std::to_string(split) +
                     " ranks, but n" + name + " = " + std::to_string(n[std::size_t(axis)]) + " has " +
                     std::to_string(n[std::size_t(axis)] - 2 * radius) + " interior points and each rank needs at least " +
                     std::to_string(ghost) + " of its own at stencil radius " + std::to_string(radius) + ": at most " +
                     std::to_string(limit) + " along " + name + " (split another axis, or give more points: --n" + name + ")");
  }
  const int periodic = split_periodic_plane_axis(grid, radius, ghost, boundaries);
  if (periodic >= 0) {
    const std::string name = kAxisNames[periodic];
    throw InputError("--ranks-grid " + grid.text() + " splits " + name + ", whose faces are periodic (--bc-" + name +
                     "-low periodic), over " + std::to_string(grid.ranks[std::size_t(periodic)]) +
                     " ranks; boxes of " + std::to_string(ghost) + " ghost points a side (GPU ranks') cannot split a "
                     "periodic x or y with one process's bits: split the other axes, or run cpu ranks");
  }
  return grid;
}

}  // namespace heat
