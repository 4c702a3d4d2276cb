#include "solver/distributed/host_staged_halo_exchange.hpp"

#include <cuda_runtime.h>

#include <chrono>

#include "solver/cuda/cuda_check.cuh"

namespace heat {

template <typename T>
HostStagedHaloExchange<T>::HostStagedHaloExchange(const Slab& slab, const Grid& global, MPI_Comm comm)
    : layout_(halo_layout(slab, global)),
      lower_(slab.has_lower_neighbour()),
      upper_(slab.has_upper_neighbour()),
      mpi_(slab, global, comm) {
  if (lower_ || upper_) HEAT_CUDA_CHECK(cudaMallocHost(&staging_, kBlocks * layout_.side_values * sizeof(T)));
}

template <typename T>
HostStagedHaloExchange<T>::~HostStagedHaloExchange() {
  if (staging_) cudaFreeHost(staging_);
}

template <typename T>
void HostStagedHaloExchange<T>::exchange(T* device_box) {
  if (!lower_ && !upper_) return;
  // The step before is still running: waiting for it is compute, not exchange.
  HEAT_CUDA_CHECK(cudaStreamSynchronize(0));
  const auto start = std::chrono::steady_clock::now();
  const std::size_t bytes = layout_.side_values * sizeof(T);
  auto copy = [bytes](T* to, const T* from, cudaMemcpyKind kind) { HEAT_CUDA_CHECK(cudaMemcpy(to, from, bytes, kind)); };
  if (lower_) copy(staged(kLowerEdge), device_box + layout_.lower_edge, cudaMemcpyDeviceToHost);
  if (upper_) copy(staged(kUpperEdge), device_box + layout_.upper_edge, cudaMemcpyDeviceToHost);
  mpi_.exchange_blocks(staged(kLowerEdge), staged(kUpperEdge), staged(kLowerGhost), staged(kUpperGhost));
  if (lower_) copy(device_box + layout_.lower_ghost, staged(kLowerGhost), cudaMemcpyHostToDevice);
  if (upper_) copy(device_box + layout_.upper_ghost, staged(kUpperGhost), cudaMemcpyHostToDevice);
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template class HostStagedHaloExchange<float>;
template class HostStagedHaloExchange<double>;

}  // namespace heat
