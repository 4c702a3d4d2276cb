// MpiHaloExchange under mpirun: after one exchange every box holds exactly the whole field's
// planes, its ghost planes (poisoned before) filled from the neighbours' own planes; started and
// finished apart, with the planes it neither sends nor receives rewritten in between (as a backend
// computes its interior while the planes travel), and after a connect() that touches no box.
// Wrapped (periodic z), the end ranks' outer ghost planes hold the planes one period away.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

#include "mpi_support.hpp"
#include "parallel/mpi_halo_exchange.hpp"
#include "parallel/slab_field.hpp"
#include "core/initial_conditions.hpp"

namespace heat {
namespace {

// This rank's box of a random field on nx x ny x nz, as it should be and with its ghost planes
// poisoned.
template <typename T>
struct PoisonedBox {
  Grid grid;
  Slab slab;
  Field<T> expected, box;
  std::size_t ghost_values = 0;  // values in the ghost planes of one side
  std::string label;
};

template <typename T>
PoisonedBox<T> poisoned_box(int nx, int ny, int nz, int order, GhostScheme scheme, std::uint64_t seed,
                            bool wraps = false) {
  PoisonedBox<T> c;
  c.grid.nx = nx;
  c.grid.ny = ny;
  c.grid.nz = nz;
  auto [slab, expected] = test::random_rank_box<T>(c.grid, order, scheme, seed, wraps);
  c.slab = slab;
  c.expected = expected;
  c.box = expected;
  c.ghost_values = std::size_t(slab.ghost) * std::size_t(nx) * std::size_t(ny);
  const T poison = std::numeric_limits<T>::quiet_NaN();
  T* box = c.box.data();
  if (slab.has_lower_neighbour()) std::fill(box, box + c.ghost_values, poison);
  if (slab.has_upper_neighbour()) std::fill(box + c.box.size() - c.ghost_values, box + c.box.size(), poison);
  c.label = "order " + std::to_string(order) + " nz " + std::to_string(nz) + " ghost " + std::to_string(slab.ghost) +
            (slab.wraps ? ", wrapped" : "");
  return c;
}

template <typename T>
void check_exchange(int order, int nz, GhostScheme scheme, bool wraps = false) {
  const int ranks = test::world_size();
  PoisonedBox<T> c = poisoned_box<T>(9, 5, nz, order, scheme, 100 + std::uint64_t(nz), wraps);
  const Field<T>& expected = c.expected;
  Field<T>& box = c.box;
  const std::string& label = c.label;

  MpiHaloExchange<T> exchange(c.slab, c.grid, MPI_COMM_WORLD);
  const int pairs = c.slab.wraps ? ranks : ranks - 1;  // of neighbours
  EXPECT_EQ(test::sum_over_ranks((long long)exchange.bytes_sent()), (long long)(2 * pairs * c.ghost_values * sizeof(T)));
  exchange.exchange(box.data());
  EXPECT_EQ(test::sum_over_ranks(test::bitwise_differences(box, expected)), 0) << label;
  // A second exchange finds every plane already right and changes nothing.
  exchange.exchange(box.data());
  EXPECT_EQ(test::sum_over_ranks(test::bitwise_differences(box, expected)), 0) << label << ", second exchange";
  if (ranks > 1)
    EXPECT_EQ(test::sum_over_ranks(exchange.seconds_spent() > 0 ? 0 : 1), 0) << label << ": no time counted";
}

template <typename T>
void check_start_and_finish_apart(int order, int nz, GhostScheme scheme) {
  PoisonedBox<T> c = poisoned_box<T>(7, 6, nz, order, scheme, 300 + std::uint64_t(nz));
  const Slab& slab = c.slab;
  Field<T>& box = c.box;
  Field<T>& expected = c.expected;
  const std::size_t ghost_values = c.ghost_values;
  const Field<T> poisoned = box;
  const std::string& label = c.label;

  MpiHaloExchange<T> exchange(slab, c.grid, MPI_COMM_WORLD);
  exchange.connect();
  EXPECT_EQ(test::sum_over_ranks(test::bitwise_differences(box, poisoned)), 0) << label << ": connect() wrote the box";
  EXPECT_EQ(test::sum_over_ranks(exchange.seconds_spent() == 0 ? 0 : 1), 0) << label << ": connect() counted as time";

  exchange.start(box.data());
  // The planes between the edges: neither sent nor received.
  const std::size_t inner_begin = slab.has_lower_neighbour() ? 2 * ghost_values : 0;
  const std::size_t inner_end = slab.has_upper_neighbour() ? box.size() - 2 * ghost_values : box.size();
  for (std::size_t i = inner_begin; i < inner_end; ++i) box.data()[i] = expected.data()[i] = T(i % 7) - T(3);
  exchange.finish();
  EXPECT_EQ(test::sum_over_ranks(test::bitwise_differences(box, expected)), 0)
      << label << ", started and finished apart";
}

// Plane counts that fit 3 ranks (or the job's ranks, where more), one uneven and one larger, for r
// and for 4r ghost planes.
template <typename T>
void check_every_order() {
  const int ranks = std::max(3, test::world_size());
  for (int order : {2, 4, 6, 8}) {
    const int r = order / 2;
    for (int nz : {3 * ranks * r + 1, 40 * ranks / 3}) check_exchange<T>(order, nz, GhostScheme::PerStage);
    for (int nz : {(4 * ranks + 2) * r + 1, 70 * ranks / 3}) check_exchange<T>(order, nz, GhostScheme::PerStep);
  }
}

// Periodic z: rank 0 and the last rank exchange too (on 2 ranks, each is the other's lower and
// upper neighbour), with slabs as thin as the ghosts allow and thicker ones.
template <typename T>
void check_wrapped_exchanges() {
  const int ranks = std::max(3, test::world_size());
  for (int order : {2, 8}) {
    const int r = order / 2;
    for (int nz : {(ranks + 2) * r, 3 * ranks * r + 1}) check_exchange<T>(order, nz, GhostScheme::PerStage, true);
    for (int nz : {(4 * ranks + 2) * r, (4 * ranks + 2) * r + 3}) check_exchange<T>(order, nz, GhostScheme::PerStep, true);
  }
}

TEST(MpiHaloExchange, WrappedFillsTheEndRanksGhostPlanesAcrossThePeriodFloat) { check_wrapped_exchanges<float>(); }
TEST(MpiHaloExchange, WrappedFillsTheEndRanksGhostPlanesAcrossThePeriodDouble) { check_wrapped_exchanges<double>(); }

TEST(MpiHaloExchange, FillsGhostPlanesWithTheNeighboursPlanesFloat) { check_every_order<float>(); }
TEST(MpiHaloExchange, FillsGhostPlanesWithTheNeighboursPlanesDouble) { check_every_order<double>(); }

TEST(MpiHaloExchange, StartedAndFinishedApartAroundOtherWork) {
  const int ranks = std::max(3, test::world_size());
  for (int order : {2, 8}) {
    const int r = order / 2;
    check_start_and_finish_apart<float>(order, 3 * ranks * r + 1, GhostScheme::PerStage);
    check_start_and_finish_apart<double>(order, (4 * ranks + 2) * r + 1, GhostScheme::PerStep);
  }
}

}  // namespace
}  // namespace heat
