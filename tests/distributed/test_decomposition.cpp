// The z-slab decomposition (parallel/decomposition.hpp): no MPI needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/slab_field.hpp"
#include "core/errors.hpp"
#include "core/initial_conditions.hpp"

namespace heat {
namespace {

Boundaries periodic_z() {
  Boundaries b;
  b[4] = b[5] = BoundaryCondition{BoundaryKind::Periodic};
  return b;
}

Grid grid_with_nz(int nz) {
  Grid g;
  g.nx = 7;
  g.ny = 6;
  g.nz = nz;
  return g;
}

// Every valid (order, nz, ranks, scheme): own planes tile the interior evenly, boxes are own
// planes plus the ghost planes towards each neighbour and the boundary layer at either end,
// parts tile the whole grid.
TEST(Decomposition, SlabsTileTheGridEvenly) {
  for (GhostScheme scheme : {GhostScheme::PerStage, GhostScheme::PerHalfStep, GhostScheme::PerStep})
    for (int order : {2, 4, 6, 8}) {
      const int r = order / 2;
      const int ghost = ghost_planes(scheme, r);
      for (int nz = 2 * r + 1; nz <= 80; ++nz) {
        const Grid g = grid_with_nz(nz);
        for (int ranks = 1; ranks <= max_ranks(nz, r, ghost); ++ranks) {
          const std::string label = "order " + std::to_string(order) + " nz " + std::to_string(nz) + " ranks " +
                                    std::to_string(ranks) + " ghost " + std::to_string(ghost);
          int next_owned = r, next_part = 0, fewest = nz, most = 0;
          for (int rank = 0; rank < ranks; ++rank) {
            const Slab s = decompose(g, order, ranks, rank, scheme);
            EXPECT_EQ(s.ghost, ghost) << label;
            EXPECT_EQ(s.owned_begin, next_owned) << label;
            EXPECT_EQ(s.part_begin, next_part) << label;
            EXPECT_EQ(s.box_begin, rank > 0 ? s.owned_begin - ghost : 0) << label;
            EXPECT_EQ(s.box_end, rank + 1 < ranks ? s.owned_end + ghost : nz) << label;
            EXPECT_EQ(s.box_grid(g).nz, s.box_planes()) << label;
            if (ranks > 1) EXPECT_GE(s.owned_planes(), ghost) << label << ": a neighbour's ghosts come from own planes";
            EXPECT_GE(s.owned_planes(), 1) << label;
            fewest = std::min(fewest, s.owned_planes());
            most = std::max(most, s.owned_planes());
            next_owned = s.owned_end;
            next_part = s.part_end;
          }
          EXPECT_EQ(next_owned, nz - r) << label;
          EXPECT_EQ(next_part, nz) << label;
          EXPECT_LE(most - fewest, 1) << label;
        }
      }
    }
}

// Aligned parts (lossy ZFP's 4-plane blocks): every boundary between two ranks is a multiple of 4
// when each rank can still own its ghost planes, else the parts are the even ones; either way
// they tile the grid and each rank owns at least its ghost planes.
TEST(Decomposition, AlignedPartsBeginAtMultiplesOfTheAlignmentWhereTheGridAllows) {
  int aligned_layouts = 0;
  for (GhostScheme scheme : {GhostScheme::PerStage, GhostScheme::PerStep})
    for (int order : {2, 4, 6, 8}) {
      const int r = order / 2;
      const int ghost = ghost_planes(scheme, r);
      for (int nz = 2 * r + 1; nz <= 120; ++nz)
        for (int ranks = 2; ranks <= max_ranks(nz, r, ghost); ++ranks) {
          const std::string label = "order " + std::to_string(order) + " nz " + std::to_string(nz) + " ranks " +
                                    std::to_string(ranks) + " ghost " + std::to_string(ghost);
          bool all_aligned = true, all_even = true;
          int next_owned = r;
          for (int rank = 0; rank < ranks; ++rank) {
            const Slab s = decompose(grid_with_nz(nz), order, ranks, rank, scheme, 4);
            const Slab even = decompose(grid_with_nz(nz), order, ranks, rank, scheme);
            EXPECT_EQ(s.owned_begin, next_owned) << label;
            EXPECT_GE(s.owned_planes(), ghost) << label;
            EXPECT_EQ(s.part_alignment, 4) << label;
            next_owned = s.owned_end;
            if (rank > 0) all_aligned = all_aligned && s.part_begin % 4 == 0;
            all_even = all_even && s.owned_begin == even.owned_begin && s.owned_end == even.owned_end;
          }
          EXPECT_EQ(next_owned, nz - r) << label;
          EXPECT_TRUE(all_aligned || all_even) << label << ": neither aligned nor the even parts";
          aligned_layouts += all_aligned;
        }
    }
  EXPECT_GT(aligned_layouts, 1000);
}

// Side planes (BackendEntry::side_planes): each rank's own planes plus side_planes for each
// neighbour are within a plane of the others', so middle ranks own fewer planes than end ones,
// where every rank can still own its ghost planes; else the even split. Either way the slabs and
// the aligned parts tile the grid.
TEST(Decomposition, SidePlanesEvenTheWorkOfEndAndMiddleRanks) {
  int balanced_layouts = 0;
  for (GhostScheme scheme : {GhostScheme::PerHalfStep, GhostScheme::PerStep})
    for (int order : {2, 8})
      for (int side_planes : {1, 4, 9})
        for (int alignment : {1, 4}) {
          const int r = order / 2, ghost = ghost_planes(scheme, r);
          for (int nz = 2 * r + 1; nz <= 160; nz += 3)
            for (int ranks = 2; ranks <= std::min(5, max_ranks(nz, r, ghost)); ++ranks) {
              const std::string label = "order " + std::to_string(order) + " nz " + std::to_string(nz) + " ranks " +
                                        std::to_string(ranks) + " side planes " + std::to_string(side_planes) +
                                        " alignment " + std::to_string(alignment);
              int next_owned = r, next_part = 0, least_work = 1 << 30, most_work = 0;
              bool all_even = true;
              for (int rank = 0; rank < ranks; ++rank) {
                const Slab s = decompose(grid_with_nz(nz), order, ranks, rank, scheme, alignment, side_planes);
                const Slab even = decompose(grid_with_nz(nz), order, ranks, rank, scheme, alignment);
                EXPECT_EQ(s.owned_begin, next_owned) << label;
                EXPECT_EQ(s.part_begin, next_part) << label;
                EXPECT_GE(s.owned_planes(), ghost) << label;
                EXPECT_EQ(s.side_planes, side_planes) << label;
                const int work = s.owned_planes() + side_planes * (int(s.has_lower_neighbour()) + s.has_upper_neighbour());
                least_work = std::min(least_work, work);
                most_work = std::max(most_work, work);
                all_even = all_even && s.owned_begin == even.owned_begin && s.owned_end == even.owned_end;
                next_owned = s.owned_end;
                next_part = s.part_end;
              }
              EXPECT_EQ(next_owned, nz - r) << label;
              EXPECT_EQ(next_part, nz) << label;
              if (alignment == 1 && !all_even) {
                EXPECT_LE(most_work - least_work, 1) << label;
                ++balanced_layouts;
              }
            }
        }
  EXPECT_GT(balanced_layouts, 500);
}

// Periodic z on several ranks: every rank has both neighbours, rank 0's lower one the last rank,
// and each box holds `ghost` planes past its own on either side, standing for the planes one
// period (nz - 2r) away where they lie beyond the interior; the parts still tile [0, nz). One
// rank never wraps (the fill wraps its grid), nor does a problem whose z is not periodic.
TEST(Decomposition, PeriodicZWrapsEveryRankBetweenTwoNeighbours) {
  for (GhostScheme scheme : {GhostScheme::PerStage, GhostScheme::PerHalfStep, GhostScheme::PerStep})
    for (int order : {2, 8}) {
      const int r = order / 2, ghost = ghost_planes(scheme, r);
      for (int nz = 2 * r + 1; nz <= 80; nz += 3) {
        const Grid g = grid_with_nz(nz);
        const int period = nz - 2 * r;
        EXPECT_FALSE(decompose(g, order, 1, 0, scheme, 1, 0, periodic_z()).wraps);
        for (int ranks = 2; ranks <= max_ranks(nz, r, ghost); ++ranks) {
          const std::string label = "order " + std::to_string(order) + " nz " + std::to_string(nz) + " ranks " +
                                    std::to_string(ranks) + " ghost " + std::to_string(ghost);
          int next_part = 0;
          for (int rank = 0; rank < ranks; ++rank) {
            const Slab s = decompose(g, order, ranks, rank, scheme, 1, 4, periodic_z());
            const Slab plain = decompose(g, order, ranks, rank, scheme);
            EXPECT_TRUE(s.wraps) << label;
            EXPECT_EQ(s.owned_begin, plain.owned_begin) << label << ": the even split";
            EXPECT_EQ(s.owned_end, plain.owned_end) << label;
            EXPECT_EQ(s.lower_neighbour(), (rank + ranks - 1) % ranks) << label;
            EXPECT_EQ(s.upper_neighbour(), (rank + 1) % ranks) << label;
            EXPECT_EQ(s.box_begin, s.owned_begin - ghost) << label;
            EXPECT_EQ(s.box_end, s.owned_end + ghost) << label;
            EXPECT_EQ(s.part_begin, next_part) << label;
            next_part = s.part_end;
            for (int z = s.box_begin; z < s.box_end; ++z) {
              const int source = s.ring_plane(z, nz);
              EXPECT_TRUE(source >= r && source < nz - r) << label << ": plane " << z;
              EXPECT_EQ((source - z) % period, 0) << label << ": plane " << z;
            }
            EXPECT_FALSE(plain.wraps);
            EXPECT_EQ(plain.ring_plane(0, nz), 0);
          }
          EXPECT_EQ(next_part, nz) << label;
        }
      }
    }
}

// A rank's box problem: the x and y faces as the whole problem's, a z face the whole problem's
// at the grid's end and layer towards a neighbour.
TEST(Decomposition, ABoxKeepsTheFacesAtTheGridsEndsAndLayerTowardsNeighbours) {
  Problem whole;
  whole.grid = grid_with_nz(30);
  whole.order = 4;
  for (int face = 0; face < kFaces; ++face) whole.boundaries[face] = {BoundaryKind::Temperature, double(face)};
  for (int rank = 0; rank < 3; ++rank) {
    const Slab s = decompose(whole.grid, whole.order, 3, rank, GhostScheme::PerStage, 1, 0, whole.boundaries);
    EXPECT_TRUE(s.fills_ghosts) << "every rank, its box's faces layer or not";
    const Problem box = box_problem(whole, s);
    EXPECT_EQ(box.grid.nz, s.box_planes());
    for (int face = 0; face < 4; ++face) EXPECT_EQ(box.boundaries[face], whole.boundaries[face]) << face;
    EXPECT_EQ(box.boundaries[4].kind, rank == 0 ? BoundaryKind::Temperature : BoundaryKind::Layer) << rank;
    EXPECT_EQ(box.boundaries[5].kind, rank == 2 ? BoundaryKind::Temperature : BoundaryKind::Layer) << rank;
  }
  whole.boundaries[4] = whole.boundaries[5] = {BoundaryKind::Periodic};
  const Problem wrapped = box_problem(whole, decompose(whole.grid, whole.order, 2, 0, GhostScheme::PerStage, 1, 0, whole.boundaries));
  EXPECT_TRUE(wrapped.boundaries[4].kind == BoundaryKind::Layer && wrapped.boundaries[5].kind == BoundaryKind::Layer);
  const Problem alone = box_problem(whole, decompose(whole.grid, whole.order, 1, 0, GhostScheme::PerStage, 1, 0, whole.boundaries));
  EXPECT_EQ(alone.boundaries, whole.boundaries) << "one rank's box is the grid, which its fill wraps";
}

TEST(Decomposition, OddPlaneCountsGiveTheExtraPlanesToTheFirstRanks) {
  // order 2: 23 - 2 = 21 interior planes over 4 ranks: 6, 5, 5, 5.
  const Grid g = grid_with_nz(23);
  const int expected[4] = {6, 5, 5, 5};
  for (int rank = 0; rank < 4; ++rank) EXPECT_EQ(decompose(g, 2, 4, rank).owned_planes(), expected[rank]);
  const Slab last = decompose(g, 2, 4, 3);
  EXPECT_EQ(last.owned_end, 22);
  EXPECT_EQ(last.box_end, 23);
  EXPECT_EQ(last.part_begin, last.owned_begin);
  EXPECT_EQ(last.part_end, 23);
}

// The edge of the rule: ranks that own exactly their ghost planes' count each are a valid split,
// with the sides balanced (a run's side_planes) and aligned (a ZFP run's part alignment) too.
TEST(Decomposition, RanksOwningExactlyTheirGhostPlanesAreAValidSplit) {
  // order 8 on nz = 20: 12 interior planes, 4 for each of 3 ranks.
  const Grid g = grid_with_nz(20);
  EXPECT_EQ(max_ranks(20, 4, 4), 3);
  for (const auto& [alignment, side_planes] : {std::pair{1, 0}, std::pair{1, 2}, std::pair{4, 2}})
    for (int rank = 0; rank < 3; ++rank) {
      const Slab s = decompose(g, 8, 3, rank, GhostScheme::PerStage, alignment, side_planes);
      EXPECT_EQ(s.owned_planes(), 4) << "rank " << rank << ", alignment " << alignment << ", sides " << side_planes;
    }
  EXPECT_THROW(decompose(grid_with_nz(19), 8, 3, 0), InputError);
}

TEST(Decomposition, TooManyRanksIsRefusedNamingTheLimit) {
  // order 8 on nz = 21: 13 interior planes, at least 4 per rank: at most 3 ranks.
  const Grid g = grid_with_nz(21);
  EXPECT_EQ(max_ranks(21, 4, 4), 3);
  EXPECT_NO_THROW(decompose(g, 8, 3, 2));
  try {
    decompose(g, 8, 4, 0);
    FAIL() << "4 ranks over 13 interior planes at order 8 were accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("4 ranks"), std::string::npos) << message;
    EXPECT_NE(message.find("at most 3 ranks"), std::string::npos) << message;
    EXPECT_NE(message.find("nz = 21"), std::string::npos) << message;
  }
  // One rank never needs neighbours, however thin the grid.
  EXPECT_EQ(max_ranks(9, 4, 4), 1);
  EXPECT_NO_THROW(decompose(grid_with_nz(9), 8, 1, 0));
  EXPECT_THROW(decompose(grid_with_nz(9), 8, 2, 0), InputError);
  // Ghosts exchanged once per step are 4r wide, and so is the least a rank may own.
  EXPECT_EQ(max_ranks(21, 4, 16), 1);
  EXPECT_NO_THROW(decompose(grid_with_nz(40), 8, 2, 1, GhostScheme::PerStep));
  EXPECT_THROW(decompose(grid_with_nz(39), 8, 2, 1, GhostScheme::PerStep), InputError);
}

TEST(Decomposition, HaloLayoutPointsAtTheEdgeAndGhostPlanes) {
  const Grid g = grid_with_nz(30);
  const std::size_t plane = std::size_t(g.nx) * std::size_t(g.ny);
  const Slab middle = decompose(g, 6, 3, 1);  // 24 interior planes: 8 each, box of 14 planes
  ASSERT_EQ(middle.box_planes(), 14);
  const HaloLayout l = halo_layout(middle, g);
  EXPECT_EQ(l.side_values, 3 * plane);
  EXPECT_EQ(l.lower_ghost, 0u);
  EXPECT_EQ(l.lower_edge, 3 * plane);
  EXPECT_EQ(l.upper_edge, 8 * plane);
  EXPECT_EQ(l.upper_ghost, 11 * plane);
  EXPECT_EQ(halo_bytes_sent(middle, g, sizeof(float)), 2 * 3 * plane * sizeof(float));
  EXPECT_EQ(halo_bytes_sent(decompose(g, 6, 3, 0), g, sizeof(double)), 3 * plane * sizeof(double));
  EXPECT_EQ(halo_bytes_sent(decompose(g, 6, 1, 0), g, sizeof(double)), 0u);

  // Once per step at order 2: 4 ghost planes; 28 interior planes over 2 ranks, 14 each.
  const Slab upper = decompose(g, 2, 2, 1, GhostScheme::PerStep);
  ASSERT_EQ(upper.box_planes(), 4 + 14 + 1);
  const HaloLayout w = halo_layout(upper, g);
  EXPECT_EQ(w.side_values, 4 * plane);
  EXPECT_EQ(w.lower_edge, 4 * plane);
  EXPECT_EQ(w.upper_edge, 0u) << "no upper neighbour";
}

// A box that wraps with 4r ghost planes reaches past the grid: box_of fills those planes, and
// those beyond the interior, from the planes one period away.
TEST(Decomposition, BoxOfAWrappedBoxTakesThePlanesOnePeriodAway) {
  const Grid g = grid_with_nz(29);
  const Field<double> whole = randn_field(g, 9);
  const int r = 2, period = g.nz - 2 * r;
  for (int rank : {0, 1}) {
    const Slab s = decompose(g, 2 * r, 2, rank, GhostScheme::PerStep, 1, 0, periodic_z());
    const Field<double> box = box_of(whole, s);
    ASSERT_EQ(box.nz(), s.box_planes());
    EXPECT_EQ(box_sources(s, g).size(), 2u) << "rank " << rank << ": its own run and the wrapped one";
    for (int k = 0; k < box.nz(); ++k) {
      int z = s.box_begin + k;
      if (z < r) z += period;
      if (z >= g.nz - r) z -= period;
      for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) ASSERT_EQ(box(i, j, k), whole(i, j, z)) << "rank " << rank << " plane " << k;
    }
  }
}

TEST(Decomposition, BoxOfCopiesTheBoxPlanes) {
  const Grid g = grid_with_nz(17);
  const Field<double> whole = randn_field(g, 5);
  const Slab s = decompose(g, 4, 2, 1);
  const Field<double> box = box_of(whole, s);
  ASSERT_EQ(box.nz(), s.box_planes());
  for (int k = 0; k < box.nz(); ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) ASSERT_EQ(box(i, j, k), whole(i, j, k + s.box_begin));
}

}  // namespace
}  // namespace heat
