#include "parallel/host_staged_halo_exchange.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "backends/cuda/cuda_check.cuh"

namespace heat {

template <typename T>
HostStagedHaloExchange<T>::HostStagedHaloExchange(const Slab& slab, const Grid& global, const HaloLine& line,
                                                  MPI_Comm comm, cudaStream_t order)
    : layout_(line.layout),
      lower_(line.has_lower_neighbour()),
      upper_(line.has_upper_neighbour()),
      mpi_(slab, global, line, comm),
      order_(order) {
  if (!lower_ && !upper_) return;
  HEAT_CUDA_CHECK(cudaMallocHost(&staging_, kBlocks * layout_.side_values * sizeof(T)));
  std::fill(staging_, staging_ + kBlocks * layout_.side_values, T(0));  // connect() sends it as it is
}

template <typename T>
HostStagedHaloExchange<T>::~HostStagedHaloExchange() {
  if (staging_) cudaFreeHost(staging_);
}

template <typename T>
void HostStagedHaloExchange<T>::start(T* device_box) {
  box_ = device_box;
  if (!lower_ && !upper_) return;
  // The step before is still running: waiting for it is compute, not exchange.
  HEAT_CUDA_CHECK(cudaStreamSynchronize(order_));
  const std::size_t bytes = layout_.side_values * sizeof(T);
  timed(seconds_, [&] {
    if (lower_) copy(staged(kLowerEdge), device_box + layout_.lower_edge, bytes, cudaMemcpyDeviceToHost);
    if (upper_) copy(staged(kUpperEdge), device_box + layout_.upper_edge, bytes, cudaMemcpyDeviceToHost);
    HEAT_CUDA_CHECK(cudaStreamSynchronize(order_));
    mpi_.start_blocks(staged(kLowerEdge), staged(kUpperEdge), staged(kLowerGhost), staged(kUpperGhost));
  });
}

template <typename T>
void HostStagedHaloExchange<T>::finish() {
  if (!lower_ && !upper_) return;
  const std::size_t bytes = layout_.side_values * sizeof(T);
  timed(seconds_, [&] {
    mpi_.finish();
    // In `order`'s order, before the work that reads the ghosts next.
    if (lower_) copy(box_ + layout_.lower_ghost, staged(kLowerGhost), bytes, cudaMemcpyHostToDevice);
    if (upper_) copy(box_ + layout_.upper_ghost, staged(kUpperGhost), bytes, cudaMemcpyHostToDevice);
    HEAT_CUDA_CHECK(cudaStreamSynchronize(order_));
  });
}

template <typename T>
void HostStagedHaloExchange<T>::copy(T* to, const T* from, std::size_t bytes, cudaMemcpyKind kind) const {
  HEAT_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, kind, order_));
}

template <typename T>
void HostStagedHaloExchange<T>::connect() {
  if (!lower_ && !upper_) return;
  mpi_.start_blocks(staged(kLowerEdge), staged(kUpperEdge), staged(kLowerGhost), staged(kUpperGhost));
  mpi_.finish();
}

template class HostStagedHaloExchange<float>;
template class HostStagedHaloExchange<double>;

}  // namespace heat
