// MpiHaloExchange under mpirun: after one exchange every box holds exactly the whole field's
// planes, its ghost planes (poisoned before) filled from the neighbours' own planes.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

#include "mpi_support.hpp"
#include "solver/distributed/mpi_halo_exchange.hpp"
#include "solver/distributed/slab_field.hpp"
#include "solver/initial_conditions.hpp"

namespace heat {
namespace {

template <typename T>
void check_exchange(int order, int nz, GhostScheme scheme) {
  Grid g;
  g.nx = 9;
  g.ny = 5;
  g.nz = nz;
  const int ranks = test::world_size();
  const auto [slab, expected] = test::random_rank_box<T>(g, order, scheme, 100 + std::uint64_t(nz));

  Field<T> box = expected;
  const std::size_t plane = std::size_t(g.nx) * std::size_t(g.ny);
  const std::size_t ghost_values = std::size_t(slab.ghost) * plane;
  const T poison = std::numeric_limits<T>::quiet_NaN();
  if (slab.has_lower_neighbour()) std::fill(box.data(), box.data() + ghost_values, poison);
  if (slab.has_upper_neighbour()) std::fill(box.data() + box.size() - ghost_values, box.data() + box.size(), poison);

  MpiHaloExchange<T> exchange(slab, g, MPI_COMM_WORLD);
  EXPECT_EQ(test::sum_over_ranks((long long)exchange.bytes_sent()),
            (long long)(2 * (ranks - 1) * ghost_values * sizeof(T)));
  exchange.exchange(box.data());
  const std::string label =
      "order " + std::to_string(order) + " nz " + std::to_string(nz) + " ghost " + std::to_string(slab.ghost);
  EXPECT_EQ(test::sum_over_ranks(test::bitwise_differences(box, expected)), 0) << label;
  // A second exchange finds every plane already right and changes nothing.
  exchange.exchange(box.data());
  EXPECT_EQ(test::sum_over_ranks(test::bitwise_differences(box, expected)), 0) << label << ", second exchange";
  if (ranks > 1)
    EXPECT_EQ(test::sum_over_ranks(exchange.seconds_spent() > 0 ? 0 : 1), 0) << label << ": no time counted";
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

TEST(MpiHaloExchange, FillsGhostPlanesWithTheNeighboursPlanesFloat) { check_every_order<float>(); }
TEST(MpiHaloExchange, FillsGhostPlanesWithTheNeighboursPlanesDouble) { check_every_order<double>(); }

}  // namespace
}  // namespace heat
