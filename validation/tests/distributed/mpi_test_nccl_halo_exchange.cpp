// NcclHaloExchange under mpirun, one GPU per rank: after one exchange on the stream, every box
// in device memory holds exactly the whole field's planes, its ghost planes (poisoned before)
// filled from the neighbours' own planes. Skipped unless every rank has a GPU of its own.
#include <gtest/gtest.h>

#include <string>

#include "mpi_support.hpp"
#include "solver/device_buffer.cuh"
#include "solver/distributed/nccl_halo_exchange.hpp"
#include "solver/distributed/slab_field.hpp"
#include "solver/gpu_info.hpp"
#include "solver/initial_conditions.hpp"

namespace heat {
namespace {

// The same verdict on every rank, so that no rank waits in NCCL for one that skipped.
bool every_rank_has_a_gpu() {
  return test::sum_over_ranks(test::mpi_session().local_rank() >= gpu_count() ? 1 : 0) == 0;
}

class Stream {
 public:
  Stream() { HEAT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

template <typename T>
void check_exchange(const NcclCommunicator& comm, cudaStream_t stream, int order, int nz) {
  Grid g;
  g.nx = 33;
  g.ny = 7;
  g.nz = nz;
  const int rank = test::world_rank(), ranks = test::world_size();
  const Slab slab = decompose(g, order, ranks, rank);
  const Field<T> whole = field_cast<T>(randn_field(g, 200 + std::uint64_t(nz)));
  const Field<T> expected = box_of(whole, slab);

  // Poison the whole box, then write back all but the ghost planes: only the exchange fills those.
  DeviceBuffer<T> box(expected.size());
  box.poison();
  const std::size_t ghost_values = halo_layout(slab, g).side_values;
  const std::size_t first = slab.has_lower_neighbour() ? ghost_values : 0;
  const std::size_t last = expected.size() - (slab.has_upper_neighbour() ? ghost_values : 0);
  HEAT_CUDA_CHECK(cudaMemcpy(box.get() + first, expected.data() + first, (last - first) * sizeof(T),
                             cudaMemcpyHostToDevice));

  NcclHaloExchange<T> exchange(slab, g, comm, stream);
  exchange.exchange(box.get());
  HEAT_CUDA_CHECK(cudaStreamSynchronize(stream));
  Field<T> result = Field<T>::uninitialized(g.nx, g.ny, slab.box_planes());
  box.copy_to_host(result.data());
  EXPECT_EQ(test::sum_over_ranks(test::bitwise_differences(result, expected)), 0)
      << "order " << order << " nz " << nz;
  if (ranks > 1) EXPECT_EQ(test::sum_over_ranks(exchange.seconds_spent() > 0 ? 0 : 1), 0) << "no time counted";
}

TEST(NcclHaloExchange, FillsGhostPlanesWithTheNeighboursPlanes) {
  if (!every_rank_has_a_gpu()) GTEST_SKIP() << "a rank has no CUDA GPU of its own on this machine";
  select_local_device(test::mpi_session().local_rank(), test::mpi_session().local_size());
  const NcclCommunicator comm(MPI_COMM_WORLD);
  const Stream stream;
  for (int order : {2, 4, 6, 8})
    for (int nz : {order / 2 * 3 * 3 + 1, 40}) {
      check_exchange<float>(comm, stream.get(), order, nz);
      check_exchange<double>(comm, stream.get(), order, nz);
    }
}

}  // namespace
}  // namespace heat
