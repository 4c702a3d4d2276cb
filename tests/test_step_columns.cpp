// The columns of a step's parts on a box whose rank grid splits x or y (core/step_columns.hpp): for
// every side set, ghost width and tiling the kernels use, the shares of a segment's last launch
// write each of its points once between them, as the whole launch does, and its Inside part (what
// runs while the exchange travels) writes no point that the exchange reads or writes: none within
// 2g of a side with ghost points, along x, y or z.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/step_columns.hpp"

namespace heat {
namespace {

struct Tiling {
  int first_x, tile_x, tile_y;  // the kernels': ColumnPairTile's first column 0, FourPassTile's -4
};

// How many of `shares` write each point (x, y, z) of an nx x ny x nz box at radius r, tiled as the
// kernels tile it (tile_launcher.cuh's PlaneLaunch): tiles along x from first_x, along y from r.
std::vector<int> writes(const std::vector<LaunchShare>& shares, int nx, int ny, int nz, int r, const Tiling& t) {
  const TileAxis x{t.first_x, t.tile_x, (nx - r - t.first_x + t.tile_x - 1) / t.tile_x};
  const TileAxis y{r, t.tile_y, (ny - 2 * r + t.tile_y - 1) / t.tile_y};
  std::vector<int> count(std::size_t(nx) * std::size_t(ny) * std::size_t(nz), 0);
  for (const LaunchShare& share : shares) {
    const std::array<TileSpan, 2> tiles = tiles_of(share, x, y);
    for (const PlaneRange& planes : share.planes)
      for (int z = planes.first; z < planes.last; ++z)
        for (int ty = tiles[1].first; ty < tiles[1].last; ++ty)
          for (int tx = tiles[0].first; tx < tiles[0].last; ++tx)
            // A tile may write any point of the box it covers (pairs that straddle the boundary layer).
            for (int j = std::max(0, y.first + ty * y.size); j < std::min(ny, y.first + (ty + 1) * y.size); ++j)
              for (int i = std::max(0, x.first + tx * x.size); i < std::min(nx, x.first + (tx + 1) * x.size); ++i)
                ++count[(std::size_t(z) * std::size_t(ny) + std::size_t(j)) * std::size_t(nx) + std::size_t(i)];
  }
  return count;
}

// Whether point i of an axis of n points lies within 2g of a side with ghost points.
bool in_rim(int i, int n, int g, const std::array<bool, 2>& sides) {
  return (sides[0] && i < 2 * g) || (sides[1] && i >= n - 2 * g);
}

TEST(StepColumns, InsideWritesNothingTheExchangeTouchesAndThePartsWriteTheWholeLaunchOnce) {
  const int r = 4;
  const int nx = 150, ny = 90;
  for (int every : {1, 2, 4})  // ghost widths r, 2r and 4r: exchanges every pass, two a step, one
    for (const Tiling& tiling : {Tiling{0, 32, 16}, Tiling{-4, 24, 8}})
      for (int sides = 1; sides < 16; ++sides)  // x low, x high, y low, y high
        for (bool z_sides : {false, true}) {
          const int g = every * r, nz = 6 * g;
          GhostSides ghost{z_sides, z_sides, g};
          ghost.across = {{{(sides & 1) != 0, (sides & 2) != 0}, {(sides & 4) != 0, (sides & 8) != 0}}};
          const std::string label = "x and y sides " + std::to_string(sides) + (z_sides ? ", z sides" : "") + ", g " +
                                    std::to_string(g) + ", tile " + std::to_string(tiling.tile_x);
          const StepPlanes planes(nz, r, ghost);
          const ColumnRim rim(nx, ny, ghost);
          const int last = planes.last_pass_of(0);
          const std::vector<int> whole =
              writes(launch_shares(planes, rim, StepPart::Whole, last, 0), nx, ny, nz, r, tiling);
          std::vector<LaunchShare> parts = launch_shares(planes, rim, StepPart::Edges, last, 0);
          const std::vector<LaunchShare> inside = launch_shares(planes, rim, StepPart::Inside, last, 0);
          parts.insert(parts.end(), inside.begin(), inside.end());
          EXPECT_EQ(writes(parts, nx, ny, nz, r, tiling), whole) << label;
          const std::vector<int> during = writes(inside, nx, ny, nz, r, tiling);
          long long inside_points = 0, touched = 0;
          for (int z = 0; z < nz; ++z)
            for (int j = 0; j < ny; ++j)
              for (int i = 0; i < nx; ++i) {
                const int n =
                    during[(std::size_t(z) * std::size_t(ny) + std::size_t(j)) * std::size_t(nx) + std::size_t(i)];
                inside_points += n;
                if (n > 0 && (in_rim(i, nx, g, ghost.across[0]) || in_rim(j, ny, g, ghost.across[1]) ||
                              in_rim(z, nz, g, {ghost.lower, ghost.upper})))
                  ++touched;
              }
          EXPECT_EQ(touched, 0) << label;
          EXPECT_GT(inside_points, 0) << label << ": nothing left to run beside the exchange";
        }
}

// Without ghost points across x and y (z slabs, a whole grid) every part is StepPlanes' planes
// over every column: the launches slabs always made.
TEST(StepColumns, SlabsLaunchTheirPlanesOverEveryColumn) {
  const int r = 2;
  const GhostSides ghost{true, true, 2 * r};
  const StepPlanes planes(40, r, ghost);
  for (StepPart part : {StepPart::Whole, StepPart::LeadingLaunches, StepPart::Edges, StepPart::Inside})
    for (int pass = 1; pass <= 4; ++pass)
      for (int segment = 0; segment < planes.segments(); ++segment) {
        const std::vector<LaunchShare> shares = launch_shares(planes, ColumnRim(30, 30, ghost), part, pass, segment);
        ASSERT_EQ(shares.size(), 1u);
        EXPECT_EQ(shares[0].columns, ColumnPart::All);
        const std::array<PlaneRange, 2> expected = planes.of(part, pass, segment);
        for (std::size_t i = 0; i < 2; ++i) {
          EXPECT_EQ(shares[0].planes[i].first, expected[i].first);
          EXPECT_EQ(shares[0].planes[i].last, expected[i].last);
        }
      }
}

}  // namespace
}  // namespace heat
