// The rank grid (parallel/rank_grid.hpp), the boxes it gives (parallel/decomposition.hpp), the
// faces their exchanges move (parallel/halo_exchange.hpp) and what a box's set field holds once
// filled (core/ghost_exchange.hpp, exchanges_when_set): no MPI needed, the boxes of every rank in
// one process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "backends/cpu/boundary_fill.hpp"
#include "core/errors.hpp"
#include "core/initial_conditions.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/rank_grid.hpp"
#include "parallel/slab_field.hpp"

namespace heat {
namespace {

Grid grid_of(int nx, int ny, int nz) {
  Grid g;
  g.nx = nx;
  g.ny = ny;
  g.nz = nz;
  return g;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RankGrid, ParsesSlabsAutoAndThreeCounts) {
  EXPECT_EQ(parse_ranks_grid("slabs").kind, RankGridChoice::Kind::Slabs);
  EXPECT_EQ(parse_ranks_grid("auto").kind, RankGridChoice::Kind::Auto);
  const RankGridChoice given = parse_ranks_grid("2x3x4");
  EXPECT_EQ(given.kind, RankGridChoice::Kind::Given);
  EXPECT_EQ(given.given.text(), "2x3x4");
  for (const char* bad : {"", "2x2", "2x2x2x2", "0x1x1", "2xx2", "ax1x1", "2x2x-1", " 2x2x2"}) {
    const std::string message = message_of([&] { parse_ranks_grid(bad); });
    EXPECT_NE(message.find("--ranks-grid"), std::string::npos) << "'" << bad << "': " << message;
  }
}

TEST(RankGrid, PositionsNumberXFastestSoSlabsKeepTheirRanks) {
  const RankGrid grid{{2, 3, 4}};
  for (int rank = 0; rank < grid.count(); ++rank) EXPECT_EQ(grid.rank_at(grid.position_of(rank)), rank);
  const RankGrid slabs = z_slabs(5);
  for (int rank = 0; rank < 5; ++rank) EXPECT_EQ(slabs.position_of(rank)[2], rank);
}

// The peers the route is chosen by (Ranks::gpu_route): each pair of ranks one step apart along one
// axis split over several ranks, z's last and first where z wraps, and no other pair, each once.
TEST(RankGrid, NeighbouringRanksAreEachPairOneStepApartAlongOneAxis) {
  for (const RankGrid& grid : {RankGrid{{1, 1, 4}}, RankGrid{{2, 1, 1}}, RankGrid{{1, 3, 1}}, RankGrid{{2, 2, 1}},
                               RankGrid{{2, 2, 2}}, RankGrid{{3, 2, 3}}, RankGrid{{1, 1, 2}}})
    for (bool wraps : {false, true}) {
      const std::vector<std::pair<int, int>> pairs = neighbouring_ranks(grid, wraps);
      std::size_t expected = 0;
      for (int a = 0; a < grid.count(); ++a)
        for (int b = a + 1; b < grid.count(); ++b) {
          const auto pa = grid.position_of(a), pb = grid.position_of(b);
          int axes_apart = 0, steps = 0;
          for (std::size_t axis = 0; axis < 3; ++axis) {
            if (pa[axis] == pb[axis]) continue;
            ++axes_apart;
            const int d = std::abs(pa[axis] - pb[axis]);
            steps = d == 1 || (axis == 2 && wraps && d == grid.ranks[axis] - 1) ? 1 : 2;
          }
          const bool neighbours = axes_apart == 1 && steps == 1;
          const auto found = std::count_if(pairs.begin(), pairs.end(), [&](const std::pair<int, int>& p) {
            return (p.first == a && p.second == b) || (p.first == b && p.second == a);
          });
          EXPECT_EQ(found, neighbours ? 1 : 0) << grid.text() << (wraps ? " wrapping" : "") << ": " << a << ", " << b;
          expected += neighbours ? 1 : 0;
        }
      EXPECT_EQ(pairs.size(), expected) << grid.text();
    }
}

TEST(RankGrid, GivenGridsAreCheckedAgainstTheRanksAndTheAxes) {
  const Grid g = grid_of(20, 20, 20);  // order 8: 12 interior points an axis, at most 3 ranks along each
  const RankGridChoice two_by_two = parse_ranks_grid("2x2x1");
  EXPECT_EQ(resolve_rank_grid(two_by_two, 4, g, 4, 4, Boundaries{}).text(), "2x2x1");
  const std::string count = message_of([&] { resolve_rank_grid(two_by_two, 8, g, 4, 4, Boundaries{}); });
  EXPECT_NE(count.find("lays out 4 ranks, but the run has 8"), std::string::npos) << count;
  const std::string thin = message_of([&] { resolve_rank_grid(parse_ranks_grid("1x4x1"), 4, g, 4, 4, Boundaries{}); });
  EXPECT_NE(thin.find("splits y over 4"), std::string::npos) << thin;
  EXPECT_NE(thin.find("at most 3 along y"), std::string::npos) << thin;
}

// auto: the fewest points exchanged; slabs where a tall grid makes them cheapest, x and y split
// where the planes are wide, and no axis split thinner than its ghosts.
TEST(RankGrid, AutoExchangesTheFewestPoints) {
  const RankGridChoice automatic = parse_ranks_grid("auto");
  EXPECT_EQ(resolve_rank_grid(automatic, 4, grid_of(20, 20, 400), 1, 1, Boundaries{}).text(), "1x1x4");
  EXPECT_EQ(resolve_rank_grid(automatic, 4, grid_of(400, 400, 20), 1, 1, Boundaries{}).text(), "2x2x1");
  EXPECT_EQ(resolve_rank_grid(automatic, 8, grid_of(100, 100, 100), 1, 1, Boundaries{}).text(), "2x2x2");
  // A cube: every axis alike, and z first where the faces tie.
  EXPECT_EQ(resolve_rank_grid(automatic, 2, grid_of(100, 100, 100), 1, 1, Boundaries{}).text(), "1x1x2");
  // Too thin along z for 4: x and y take them.
  EXPECT_EQ(resolve_rank_grid(automatic, 4, grid_of(100, 100, 12), 4, 4, Boundaries{}).ranks[2], 1);
  // A periodic x: r ghost points (cpu ranks) split it, wider ones (GPU ranks') pass it by.
  Boundaries periodic_x;
  periodic_x[0] = periodic_x[1] = BoundaryCondition{BoundaryKind::Periodic};
  EXPECT_EQ(resolve_rank_grid(automatic, 4, grid_of(400, 12, 12), 1, 1, periodic_x).text(), "4x1x1");
  EXPECT_EQ(resolve_rank_grid(automatic, 4, grid_of(400, 12, 12), 1, 4, periodic_x).text(), "1x2x2");
}

// Each axis's own points tile its interior, the boxes hold ghosts beside each neighbour, and the
// parts tile the grid: every point of it in exactly one rank's part.
TEST(RankGrid, BoxesAndPartsTileTheGrid) {
  const Grid g = grid_of(23, 19, 21);
  Boundaries periodic_x;
  periodic_x[0] = periodic_x[1] = BoundaryCondition{BoundaryKind::Periodic};
  for (const Boundaries& faces : {Boundaries{}, periodic_x}) {
    const RankGrid grid{{3, 2, 2}};
    std::vector<int> covered(g.points(), 0);
    for (int rank = 0; rank < grid.count(); ++rank) {
      const Slab s = decompose(g, 4, grid, rank, GhostScheme::PerStage, 1, 0, faces);
      EXPECT_EQ(s.x.wraps, faces[0].kind == BoundaryKind::Periodic);
      EXPECT_EQ(s.fills_ghosts, s.x.wraps);
      for (const AxisSplit* a : {&s.x, &s.y}) {
        EXPECT_EQ(a->box_begin, a->has_lower_neighbour() ? a->owned_begin - s.ghost : 0);
        EXPECT_EQ(a->box_end, a->has_upper_neighbour() ? a->owned_end + s.ghost : (a == &s.x ? g.nx : g.ny));
      }
      EXPECT_EQ(s.box_grid(g).nx, s.x.box_points());
      EXPECT_GE(s.x.owned_end - s.x.owned_begin, s.ghost);
      EXPECT_GE(s.y.owned_end - s.y.owned_begin, s.ghost);
      EXPECT_TRUE(s.exchanges());
      for (int k = s.part_begin; k < s.part_end; ++k)
        for (int j = s.y.part_begin; j < s.y.part_end; ++j)
          for (int i = s.x.part_begin; i < s.x.part_end; ++i) ++covered[g.index(i, j, k)];
      // The neighbours along each axis are the ranks one step away on the grid.
      EXPECT_EQ(grid.position_of(s.neighbour(0, 1))[0], (s.position[0] + 1) % 3);
      EXPECT_EQ(grid.position_of(s.neighbour(1, -1))[1], (s.position[1] + 1) % 2);
    }
    for (std::size_t n = 0; n < covered.size(); ++n) ASSERT_EQ(covered[n], 1) << "point " << n;
  }
}

// A box with faces inside the grid steps them as layer, its faces at the grid's ends as given.
TEST(RankGrid, BoxProblemsKeepOnlyTheGridsFaces) {
  Problem whole;
  whole.grid = grid_of(23, 19, 21);
  whole.order = 4;
  for (BoundaryCondition& face : whole.boundaries) face = BoundaryCondition{BoundaryKind::Insulated};
  const RankGrid grid{{2, 2, 1}};
  for (int rank = 0; rank < 4; ++rank) {
    const Slab s = decompose(whole.grid, 4, grid, rank, GhostScheme::PerStage, 1, 0, whole.boundaries);
    const Problem box = box_problem(whole, s);
    EXPECT_EQ(box.grid.nx, s.x.box_points());
    EXPECT_EQ(box.boundaries[0].kind == BoundaryKind::Layer, s.position[0] == 1) << rank;
    EXPECT_EQ(box.boundaries[1].kind == BoundaryKind::Layer, s.position[0] == 0) << rank;
    EXPECT_EQ(box.boundaries[2].kind == BoundaryKind::Layer, s.position[1] == 1) << rank;
    EXPECT_EQ(box.boundaries[4].kind, BoundaryKind::Insulated);
  }
}

// The planes a grid's ranks write: runs tiling [0, nz), one a rank, and refused where nz is short.
TEST(RankGrid, SnapshotPlanesTileTheGridOneRunARank) {
  const Grid g = grid_of(23, 19, 21);
  const Slab s = decompose(g, 4, RankGrid{{2, 2, 2}}, 3, GhostScheme::PerStage);
  const auto planes = snapshot_planes_of_ranks(s, g);
  ASSERT_EQ(planes.size(), 8u);
  EXPECT_EQ(planes.front().first, 0);
  EXPECT_EQ(planes.back().second, 21);
  for (std::size_t k = 0; k + 1 < planes.size(); ++k) {
    EXPECT_LT(planes[k].first, planes[k].second);
    EXPECT_EQ(planes[k].second, planes[k + 1].first);
  }
  const Grid short_z = grid_of(40, 40, 7);
  const Slab thin = decompose(short_z, 2, RankGrid{{2, 2, 2}}, 0, GhostScheme::PerStage);
  const std::string message = message_of([&] { snapshot_planes_of_ranks(thin, short_z); });
  EXPECT_NE(message.find("nz = 7"), std::string::npos) << message;
}

// Where point (x, y, z) of a face's block from `at` lies in `box`.
std::size_t face_point(const Field<double>& box, std::size_t at, int x, int y, int z) {
  return at + std::size_t(x) + std::size_t(box.nx()) * (std::size_t(y) + std::size_t(box.ny()) * std::size_t(z));
}
std::size_t last_point(const Field<double>& box, const FaceBlocks& f, std::size_t at) {
  return face_point(box, at, f.extent[0] - 1, f.extent[1] - 1, f.extent[2] - 1);
}

// A face's block from `at` in `box`, in the order the packed block holds it.
std::vector<double> face_values(const Field<double>& box, const FaceBlocks& f, std::size_t at) {
  std::vector<double> values;
  for (int z = 0; z < f.extent[2]; ++z)
    for (int y = 0; y < f.extent[1]; ++y)
      for (int x = 0; x < f.extent[0]; ++x) values.push_back(box.data()[face_point(box, at, x, y, z)]);
  return values;
}

// Every face a box sends across x or y is, point for point, the ghost block its neighbour fills
// with it: the same points of the grid, one period away where the axis wraps (each point's value
// is the code of the grid point it stands for). The packed line names the same neighbours and
// lays out the four blocks one after the other.
TEST(RankGrid, FaceBlocksAreTheNeighboursGhostBlocks) {
  const Grid g = grid_of(45, 43, 41);
  Boundaries periodic;
  for (BoundaryCondition& face : periodic) face = BoundaryCondition{BoundaryKind::Periodic};
  struct Scheme {
    int order;
    GhostScheme scheme;
  };
  for (const RankGrid& grid : {RankGrid{{2, 2, 1}}, RankGrid{{3, 1, 2}}, RankGrid{{1, 2, 1}}})
    for (const Boundaries& faces : {Boundaries{}, periodic})
      for (const Scheme& scheme : {Scheme{2, GhostScheme::PerStep}, Scheme{8, GhostScheme::PerHalfStep}}) {
        const int r = scheme.order / 2;
        const bool wraps = faces[0].kind == BoundaryKind::Periodic;
        Field<double> whole(g.nx, g.ny, g.nz);
        for (int k = 0; k < g.nz; ++k)
          for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i)
              whole(i, j, k) = double(g.index(ring_point(i, g.nx, r, wraps), ring_point(j, g.ny, r, wraps),
                                              ring_point(k, g.nz, r, wraps)));
        std::vector<Slab> slabs;
        std::vector<Field<double>> boxes;
        for (int rank = 0; rank < grid.count(); ++rank) {
          slabs.push_back(decompose(g, scheme.order, grid, rank, scheme.scheme, 1, 0, faces));
          boxes.push_back(box_of(whole, slabs.back()));
        }
        for (int rank = 0; rank < grid.count(); ++rank)
          for (int axis = 0; axis < 2; ++axis) {
            const Slab& s = slabs[std::size_t(rank)];
            const std::string label = grid.text() + (wraps ? " periodic" : " layer") + " order " +
                                      std::to_string(scheme.order) + " rank " + std::to_string(rank) + " axis " +
                                      std::to_string(axis);
            const FaceBlocks mine = face_blocks(s, g, axis);
            const HaloLine line = packed_face_line(s, g, axis);
            EXPECT_EQ(line.plane_values * std::size_t(line.planes), mine.values()) << label;
            EXPECT_EQ(line.layout.upper_ghost, 3 * mine.values()) << label;
            ASSERT_LT(last_point(boxes[std::size_t(rank)], mine, mine.upper_ghost), boxes[std::size_t(rank)].size())
                << label;
            const AxisSplit& along = axis == 0 ? s.x : s.y;
            EXPECT_EQ(line.has_upper_neighbour(), along.has_upper_neighbour()) << label;
            if (!along.has_upper_neighbour()) continue;
            const int upper = s.neighbour(axis, 1);
            EXPECT_EQ(line.upper, upper) << label;
            const FaceBlocks theirs = face_blocks(slabs[std::size_t(upper)], g, axis);
            EXPECT_EQ(theirs.extent, mine.extent) << label;
            EXPECT_EQ(face_values(boxes[std::size_t(rank)], mine, mine.upper_edge),
                      face_values(boxes[std::size_t(upper)], theirs, theirs.lower_ghost))
                << label << ": the upper edge";
            EXPECT_EQ(face_values(boxes[std::size_t(upper)], theirs, theirs.lower_edge),
                      face_values(boxes[std::size_t(rank)], mine, mine.upper_ghost))
                << label << ": the upper neighbour's lower edge";
          }
      }
}

// Boundaries from a condition a face, x low first.
Boundaries faces_of(const std::array<BoundaryCondition, kFaces>& faces) { return faces; }

// A rank's box is cut from the set field (box_of) and filled by its own faces (box_problem) alone,
// as GPU ranks set theirs (CudaBackend::field_set). On the grids resolve_rank_grid gives boxes of
// GPU ranks' ghost widths, each rank's part then holds, point for point, what one process's filled
// field holds, ghost points included, as the snapshot of step 0 writes them. The grids it refuses
// (a periodic x or y split) hold the grid's points beyond a periodic face among the points the
// boxes fill, where one process fills only some: there the parts differ, which is why they are
// refused. Layer faces, all periodic and the GPU ranks' test's mixed sets (tests/distributed/
// test_mpirun_gpu_ranks_grid.cpp), at the ghost widths of tiled and naive.
TEST(RankGrid, GpuWideBoxesHoldTheOneProcessFilledFieldOnTheGridsTheyAreGiven) {
  const Grid g = grid_of(45, 43, 41);
  using K = BoundaryKind;
  const BoundaryCondition periodic{K::Periodic}, insulated{K::Insulated};
  const std::vector<Boundaries> face_sets = {
      Boundaries{},
      faces_of({periodic, periodic, periodic, periodic, periodic, periodic}),
      faces_of({periodic, periodic, BoundaryCondition{K::Flux, 2}, insulated, BoundaryCondition{K::Temperature, 0.75},
                BoundaryCondition{K::Convective, 3, -0.5}}),
      faces_of({insulated, insulated, periodic, periodic, BoundaryCondition{K::Flux, 1}, insulated}),
  };
  struct Scheme {
    int order;
    GhostScheme scheme;
  };
  const Field<double> set = randn_field<double>(g, 7);
  for (const RankGrid& grid : {RankGrid{{2, 1, 1}}, RankGrid{{1, 2, 1}}, RankGrid{{2, 2, 1}}, RankGrid{{1, 1, 2}},
                               RankGrid{{2, 1, 2}}})
    for (std::size_t set_index = 0; set_index < face_sets.size(); ++set_index)
      for (const Scheme& scheme : {Scheme{2, GhostScheme::PerStep}, Scheme{8, GhostScheme::PerHalfStep},
                                   Scheme{8, GhostScheme::PerStep}}) {
        const int r = scheme.order / 2, ghost = ghost_planes(scheme.scheme, r);
        const std::string label = grid.text() + " faces " + std::to_string(set_index) + " order " +
                                  std::to_string(scheme.order) + " ghost " + std::to_string(ghost);
        Problem whole;
        whole.grid = g;
        whole.order = scheme.order;
        whole.boundaries = face_sets[set_index];
        Field<double> filled = set;
        fill_boundaries(whole, filled.data());
        const std::string refusal = message_of([&] {
          resolve_rank_grid(parse_ranks_grid(grid.text()), grid.count(), g, r, ghost, whole.boundaries);
        });
        long long differing = 0;
        for (int rank = 0; rank < grid.count(); ++rank) {
          const Slab s = decompose(g, scheme.order, grid, rank, scheme.scheme, 1, 0, whole.boundaries);
          Field<double> box = box_of(set, s);
          fill_boundaries(box_problem(whole, s), box.data());
          for (int k = s.part_begin; k < s.part_end; ++k)
            for (int j = s.y.part_begin; j < s.y.part_end; ++j)
              for (int i = s.x.part_begin; i < s.x.part_end; ++i)
                differing += box(i - s.x.box_begin, j - s.y.box_begin, k - s.box_begin) != filled(i, j, k);
        }
        if (refusal.empty()) {
          EXPECT_EQ(differing, 0) << label;
          continue;
        }
        EXPECT_GT(differing, 0) << label << ": refused, but its boxes hold one process's field";
        const bool splits_periodic_x = grid.ranks[0] > 1 && whole.boundaries[0].kind == K::Periodic;
        EXPECT_NE(refusal.find("--ranks-grid " + grid.text() + " splits " + (splits_periodic_x ? "x" : "y")),
                  std::string::npos)
            << label << ": " << refusal;
        EXPECT_NE(refusal.find("periodic"), std::string::npos) << label << ": " << refusal;
      }
}

}  // namespace
}  // namespace heat
