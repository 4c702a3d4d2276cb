// Which columns (x, y) of a box a launch writes when the step overlaps its exchange on a rank grid
// that splits x or y (docs/design.md §7). EdgesFirst's split along z (StepPlanes) leaves the faces
// across x and y in its Inside part, since they span every plane. So on such a box the Inside planes
// of a segment's last launch are split again, by the tiles the kernels cover a plane with: the tiles
// clear of the rim (every point at least 2g from each side with ghost points across x or y) stay
// Inside and run while the exchange travels; the rim's strips join Edges and run before it starts.
// The exchange reads the rim's own points (the edges) and writes its ghost points, nothing else, and
// the strips and the clear tiles are the plane's tiles, each once, so the launch's points are
// written as the whole launch writes them, bit for bit.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "core/step_planes.hpp"

namespace heat {

// The columns of a launch: every tile, the tiles clear of the rim, or one of the rim's strips (the
// x strips span every row of tiles; the y strips only the columns of tiles between the x strips).
enum class ColumnPart { All, Clear, LowX, HighX, LowY, HighY };

// A box's sides with ghost points across x and y, and how wide: the rim is the 2g points beside each.
struct ColumnRim {
  std::array<int, 2> points{};  // the box's points along x and y
  int ghost = 0;
  std::array<std::array<bool, 2>, 2> sides{};  // [axis][0: lower, 1: upper]: a neighbour there

  ColumnRim() = default;
  ColumnRim(int nx, int ny, const GhostSides& ghost_sides)
      : points{nx, ny}, ghost(ghost_sides.planes), sides(ghost_sides.across) {}
  bool any() const { return sides[0][0] || sides[0][1] || sides[1][0] || sides[1][1]; }
};

// A launch's share of a part of the step: its planes (StepPlanes::of), its columns, on the box
// whose rim `rim` is. From the planes alone: every column (a whole grid's launches, and slabs').
struct LaunchShare {
  LaunchShare(std::array<PlaneRange, 2> planes_of_share, ColumnPart part = ColumnPart::All,
              const ColumnRim& box_rim = ColumnRim())
      : planes(planes_of_share), columns(part), rim(box_rim) {}
  std::array<PlaneRange, 2> planes;
  ColumnPart columns;
  ColumnRim rim;
};

// The launches of `part` of the launch ending with pass `pass` in `segment`: StepPlanes::of's planes
// over every column where the box has no rim or the part is neither Edges nor Inside; on a box with
// a rim, Inside's planes over the clear tiles, and Edges' planes over every column plus Inside's
// planes over each strip of the rim.
inline std::vector<LaunchShare> launch_shares(const StepPlanes& planes, const ColumnRim& rim, StepPart part, int pass,
                                              int segment) {
  const std::array<PlaneRange, 2> z = planes.of(part, pass, segment);
  if (!rim.any() || (part != StepPart::Edges && part != StepPart::Inside)) return {LaunchShare(z)};
  if (part == StepPart::Inside) return {LaunchShare(z, ColumnPart::Clear, rim)};
  std::vector<LaunchShare> shares{LaunchShare(z)};
  const std::array<PlaneRange, 2> inside = planes.of(StepPart::Inside, pass, segment);
  if (inside[0].empty()) return shares;
  const ColumnPart strips[2][2] = {{ColumnPart::LowX, ColumnPart::HighX}, {ColumnPart::LowY, ColumnPart::HighY}};
  for (int axis = 0; axis < 2; ++axis)
    for (int side = 0; side < 2; ++side)
      if (rim.sides[std::size_t(axis)][std::size_t(side)]) shares.emplace_back(inside, strips[axis][side], rim);
  return shares;
}

// How a kernel's tiles cover one axis of a box: `count` tiles of `size` points, the first from `first`.
struct TileAxis {
  int first = 0, size = 1, count = 0;
};

// Tiles [first, last) along one axis.
struct TileSpan {
  int first = 0, last = 0;
  int size() const { return std::max(0, last - first); }
};

// Along `axis` (0: x, 1: y) the tiles clear of the rim: from the first that starts 2g or more past
// a lower side with ghost points, to the last that ends 2g or more before an upper one.
inline TileSpan clear_tiles(const ColumnRim& rim, int axis, const TileAxis& tiles) {
  const auto a = std::size_t(axis);
  const int rim_width = 2 * rim.ghost;
  TileSpan clear{0, tiles.count};
  if (rim.sides[a][0])
    clear.first = std::min(tiles.count, (std::max(0, rim_width - tiles.first) + tiles.size - 1) / tiles.size);
  if (rim.sides[a][1])
    clear.last =
        std::clamp(std::max(0, rim.points[a] - rim_width - tiles.first) / tiles.size, clear.first, tiles.count);
  return clear;
}

// The tiles (along x, then y) of `share`'s columns.
inline std::array<TileSpan, 2> tiles_of(const LaunchShare& share, const TileAxis& x, const TileAxis& y) {
  const TileSpan all_x{0, x.count}, all_y{0, y.count};
  if (share.columns == ColumnPart::All) return {all_x, all_y};
  const TileSpan cx = clear_tiles(share.rim, 0, x), cy = clear_tiles(share.rim, 1, y);
  switch (share.columns) {
    case ColumnPart::All:
    case ColumnPart::Clear:
      break;
    case ColumnPart::LowX:
      return {TileSpan{0, cx.first}, all_y};
    case ColumnPart::HighX:
      return {TileSpan{cx.last, x.count}, all_y};
    case ColumnPart::LowY:
      return {cx, TileSpan{0, cy.first}};
    case ColumnPart::HighY:
      return {cx, TileSpan{cy.last, y.count}};
  }
  return {cx, cy};
}

}  // namespace heat
