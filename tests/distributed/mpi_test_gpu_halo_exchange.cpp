// The exchanges of GPU ranks under mpirun (make_gpu_halo_exchange): after one exchange, every box
// in device memory holds exactly the whole field's planes, its ghost planes (poisoned before)
// filled from the neighbours' own planes, whether connect() and open() paid the start first
// (writing no own plane, counting no time) or the first exchange does. Through host memory and by the copy
// engines wherever the machine has a GPU (ranks share it); through NCCL only where every rank has a
// GPU of its own. Wrapped too (periodic z): the end ranks' outer ghost planes then hold the planes
// one period away, and on 2 ranks each is the other's lower and upper neighbour.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "mpi_support.hpp"
#include "backends/cuda/device_buffer.cuh"
#include "parallel/gpu_halo_exchange.hpp"
#include "parallel/slab_field.hpp"
#include "backends/cuda/gpu_info.hpp"
#include "core/initial_conditions.hpp"

namespace heat {
namespace {

// The same verdict on every rank, so that no rank waits in a collective for one that skipped.
bool on_every_rank(bool value) { return test::sum_over_ranks(value ? 0 : 1) == 0; }

template <typename T>
void check_exchange(GpuHaloRoute route, GhostScheme scheme, int order, int nz, bool connect_first, bool wraps) {
  Grid g;
  g.nx = 33;
  g.ny = 7;
  g.nz = nz;
  const int ranks = test::world_size();
  const auto [slab, expected] = test::random_rank_box<T>(g, order, scheme, 200 + std::uint64_t(nz), wraps);

  // Poison the whole box, then write back all but the ghost planes: only the exchange fills those.
  DeviceBuffer<T> box(expected.size());
  box.poison();
  const std::size_t ghost_values = halo_layout(slab, g).side_values;
  const std::size_t first = slab.has_lower_neighbour() ? ghost_values : 0;
  const std::size_t last = expected.size() - (slab.has_upper_neighbour() ? ghost_values : 0);
  HEAT_CUDA_CHECK(
      cudaMemcpy(box.get() + first, expected.data() + first, (last - first) * sizeof(T), cudaMemcpyHostToDevice));

  auto exchange = make_gpu_halo_exchange<T>(slab, g, MPI_COMM_WORLD, route);
  const std::string label = "order " + std::to_string(order) + " nz " + std::to_string(nz) +
                            (connect_first ? ", connected first" : ", connected by the first exchange") +
                            (slab.wraps ? ", wrapped" : "");
  Field<T> result = Field<T>::uninitialized(g.nx, g.ny, slab.box_planes());
  if (connect_first) {
    // The start as a run pays it in set-up, before the box holds the field: on buffers of its own
    // and the box's first exchange, not counted as exchange time.
    exchange->connect();
    exchange->open({box.get()});
    box.copy_to_host(result.data());
    // Apart from its ghost planes the box is as it was.
    std::copy_n(expected.data(), first, result.data());
    std::copy(expected.data() + last, expected.data() + expected.size(), result.data() + last);
    EXPECT_EQ(test::sum_over_ranks(test::bitwise_differences(result, expected)), 0)
        << label << ": connect() or open() wrote an own plane";
    EXPECT_EQ(test::sum_over_ranks(exchange->seconds_spent() == 0 ? 0 : 1), 0) << label << ": connect() counted";
  }
  exchange->exchange(box.get());
  // A copy on the legacy default stream follows the exchange, as the next step's kernels do.
  box.copy_to_host(result.data());
  EXPECT_EQ(test::sum_over_ranks(test::bitwise_differences(result, expected)), 0) << label;
  if (ranks > 1) EXPECT_EQ(test::sum_over_ranks(exchange->seconds_spent() > 0 ? 0 : 1), 0) << "no time counted";
  EXPECT_EQ(exchange->bytes_sent(), halo_bytes_sent(slab, g, sizeof(T))) << label;
}

void check_every_order(GpuHaloRoute route) {
  for (GhostScheme scheme : {GhostScheme::PerStage, GhostScheme::PerStep})
    for (int order : {2, 4, 6, 8}) {
      const int ghost = ghost_planes(scheme, order / 2);
      for (int nz : {order + 3 * ghost + 1, 3 * ghost + 40})
        for (bool wraps : {false, true}) {
          const bool connect_first = nz % 2 == 1;
          check_exchange<float>(route, scheme, order, nz, connect_first, wraps);
          check_exchange<double>(route, scheme, order, nz, !connect_first, wraps);
        }
    }
}

TEST(GpuHaloExchange, ThroughHostMemoryFillsGhostPlanesWithTheNeighboursPlanes) {
  if (!on_every_rank(gpu_count() > 0)) GTEST_SKIP() << "no CUDA GPU on this machine";
  select_rank_gpu(test::mpi_session().local_rank(), test::mpi_session().local_size(), GpuHaloRoute::Host);
  check_every_order(GpuHaloRoute::Host);
}

TEST(GpuHaloExchange, ThroughPeerCopiesFillsGhostPlanesWithTheNeighboursPlanes) {
  if (!on_every_rank(gpu_count() > 0)) GTEST_SKIP() << "no CUDA GPU on this machine";
  select_rank_gpu(test::mpi_session().local_rank(), test::mpi_session().local_size(), GpuHaloRoute::Peer);
  check_every_order(GpuHaloRoute::Peer);
}

TEST(GpuHaloExchange, ThroughNcclFillsGhostPlanesWithTheNeighboursPlanes) {
  if (!on_every_rank(test::mpi_session().local_rank() < gpu_count()))
    GTEST_SKIP() << "a rank has no CUDA GPU of its own on this machine";
  select_rank_gpu(test::mpi_session().local_rank(), test::mpi_session().local_size(), GpuHaloRoute::Nccl);
  check_every_order(GpuHaloRoute::Nccl);
}

}  // namespace
}  // namespace heat
