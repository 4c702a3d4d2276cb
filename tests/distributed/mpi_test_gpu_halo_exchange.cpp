// The exchanges of GPU ranks under mpirun (make_gpu_halo_exchange): after one exchange, every box
// in device memory holds exactly the whole field's planes, its ghost planes (poisoned before)
// filled from the neighbours' own planes, whether connect() and open() paid the start first
// (writing no own plane, counting no time) or the first exchange does. Through host memory and by the copy
// engines wherever the machine has a GPU (ranks share it); through NCCL only where every rank has a
// GPU of its own. Wrapped too (periodic z): the end ranks' outer ghost planes then hold the planes
// one period away, and on 2 ranks each is the other's lower and upper neighbour. On rank grids
// that split x or y (GridHaloExchange), every ghost point a face or z's planes carry, wrapped or
// not, holds what a single process's periodic fill leaves there, by one exchange or axis by axis.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <vector>

#include "mpi_support.hpp"
#include "backends/cpu/boundary_fill.hpp"
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

// The rank grids of the job's rank count that split x or y (none on one rank).
std::vector<RankGrid> grids_splitting_x_or_y() {
  const int n = test::world_size();
  if (n == 1) return {};
  std::vector<RankGrid> grids = {RankGrid{{n, 1, 1}}, RankGrid{{1, n, 1}}};
  if (n == 4) grids.insert(grids.end(), {RankGrid{{2, 2, 1}}, RankGrid{{2, 1, 2}}, RankGrid{{1, 2, 2}}});
  return grids;
}

// Sets every point of each ghost block the exchange fills (each face's and z's ghost planes) to NaN.
template <typename T>
void poison_exchanged_ghosts(Field<T>& box, const Slab& slab, const Grid& global) {
  const std::size_t row = std::size_t(box.nx()), plane = row * std::size_t(box.ny());
  const auto poison = [&](std::size_t at, const std::array<int, 3>& extent) {
    for (int z = 0; z < extent[2]; ++z)
      for (int y = 0; y < extent[1]; ++y)
        for (int x = 0; x < extent[0]; ++x)
          box.data()[at + std::size_t(x) + std::size_t(y) * row + std::size_t(z) * plane] =
              std::numeric_limits<T>::quiet_NaN();
  };
  const AxisSplit* across[2] = {&slab.x, &slab.y};
  for (int axis = 0; axis < 2; ++axis) {
    const FaceBlocks f = face_blocks(slab, global, axis);
    if (across[axis]->has_lower_neighbour()) poison(f.lower_ghost, f.extent);
    if (across[axis]->has_upper_neighbour()) poison(f.upper_ghost, f.extent);
  }
  const std::array<int, 3> planes{box.nx(), box.ny(), slab.ghost};
  const HaloLayout z = halo_layout(slab, global);
  if (slab.has_lower_neighbour()) poison(z.lower_ghost, planes);
  if (slab.has_upper_neighbour()) poison(z.upper_ghost, planes);
}

// On `rank_grid`, every face periodic or layer: after one exchange (or one per axis, x, y, z), the
// box is the single process's filled field's box, ghost blocks (poisoned before) included.
template <typename T>
void check_grid_exchange(GpuHaloRoute route, const RankGrid& rank_grid, int order, GhostScheme scheme, bool periodic,
                         bool axis_by_axis) {
  const int r = order / 2, ghost = ghost_planes(scheme, r);
  Problem whole;
  whole.order = order;
  whole.grid.nx = rank_grid.ranks[0] * ghost + 2 * r + 3;
  whole.grid.ny = rank_grid.ranks[1] * ghost + 2 * r + 2;
  whole.grid.nz = rank_grid.ranks[2] * ghost + 2 * r + 5;
  if (periodic)
    for (BoundaryCondition& face : whole.boundaries) face = BoundaryCondition{BoundaryKind::Periodic};
  Field<T> filled = field_cast<T>(randn_field(whole.grid, 300 + std::uint64_t(order)));
  fill_boundaries(whole, filled.data());
  const Slab slab = decompose(whole.grid, order, rank_grid, test::world_rank(), scheme, 1, 0, whole.boundaries);
  const Field<T> expected = box_of(filled, slab);
  Field<T> start = expected;
  poison_exchanged_ghosts(start, slab, whole.grid);
  DeviceBuffer<T> box = DeviceBuffer<T>::copied_from_host(start.data(), start.size());

  auto exchange = make_gpu_halo_exchange<T>(slab, whole.grid, MPI_COMM_WORLD, route);
  exchange->connect();
  exchange->open({box.get()});
  if (axis_by_axis)
    for (int axis = 0; axis < 3; ++axis) exchange->exchange_across(box.get(), axis);
  else
    exchange->exchange(box.get());
  Field<T> result = Field<T>::uninitialized(expected.nx(), expected.ny(), expected.nz());
  box.copy_to_host(result.data());
  const std::string label = rank_grid.text() + " order " + std::to_string(order) + " " + std::to_string(ghost) +
                            " ghosts" + (periodic ? ", periodic" : "") + (axis_by_axis ? ", axis by axis" : "");
  EXPECT_EQ(test::sum_over_ranks(test::bitwise_differences(result, expected)), 0) << label;
  EXPECT_EQ(test::sum_over_ranks(exchange->seconds_spent() > 0 ? 0 : 1), 0) << label << ": no time counted";
  EXPECT_EQ(exchange->bytes_sent(), halo_bytes_sent(slab, whole.grid, sizeof(T))) << label;
}

void check_every_grid(GpuHaloRoute route) {
  for (const RankGrid& grid : grids_splitting_x_or_y())
    for (bool periodic : {false, true}) {
      check_grid_exchange<float>(route, grid, 2, GhostScheme::PerStep, periodic, !periodic);
      check_grid_exchange<double>(route, grid, 8, GhostScheme::PerHalfStep, periodic, periodic);
      check_grid_exchange<float>(route, grid, 8, GhostScheme::PerHalfStep, periodic, false);
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

TEST(GpuHaloExchangeOnAGrid, ThroughHostMemoryFillsEveryFacesGhostsAsOneProcessFillsThem) {
  if (!on_every_rank(gpu_count() > 0)) GTEST_SKIP() << "no CUDA GPU on this machine";
  select_rank_gpu(test::mpi_session().local_rank(), test::mpi_session().local_size(), GpuHaloRoute::Host);
  check_every_grid(GpuHaloRoute::Host);
}

TEST(GpuHaloExchangeOnAGrid, ThroughPeerCopiesFillsEveryFacesGhostsAsOneProcessFillsThem) {
  if (!on_every_rank(gpu_count() > 0)) GTEST_SKIP() << "no CUDA GPU on this machine";
  select_rank_gpu(test::mpi_session().local_rank(), test::mpi_session().local_size(), GpuHaloRoute::Peer);
  check_every_grid(GpuHaloRoute::Peer);
}

TEST(GpuHaloExchangeOnAGrid, ThroughNcclFillsEveryFacesGhostsAsOneProcessFillsThem) {
  if (!on_every_rank(test::mpi_session().local_rank() < gpu_count()))
    GTEST_SKIP() << "a rank has no CUDA GPU of its own on this machine";
  select_rank_gpu(test::mpi_session().local_rank(), test::mpi_session().local_size(), GpuHaloRoute::Nccl);
  check_every_grid(GpuHaloRoute::Nccl);
}

}  // namespace
}  // namespace heat
