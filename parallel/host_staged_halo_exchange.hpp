// The halo exchange of GPU ranks through host memory: the edge planes are copied from the device
// box into page-locked buffers, exchanged over MPI (MpiHaloExchange) and the received planes
// copied into the box's ghost planes (of one line: z's, or a packed face's). Slower than NCCL's device-to-device copies, but it needs
// neither NCCL nor a GPU per rank: ranks may share a GPU (a workstation with one GPU, or tests).
#pragma once

#include <cuda_runtime.h>
#include <mpi.h>

#include "parallel/mpi_halo_exchange.hpp"

namespace heat {

template <typename T>
class HostStagedHaloExchange final : public HaloExchange<T> {
 public:
  // The blocks of `line` (z_line's, or packed_face_line's) of `slab`'s exchange, copied in the
  // order of `order`'s work (the legacy default stream, where the kernels run, or a grid
  // exchange's own stream).
  HostStagedHaloExchange(const Slab& slab, const Grid& global, const HaloLine& line, MPI_Comm comm,
                         cudaStream_t order = cudaStreamLegacy);
  ~HostStagedHaloExchange() override;
  HostStagedHaloExchange(const HostStagedHaloExchange&) = delete;
  HostStagedHaloExchange& operator=(const HostStagedHaloExchange&) = delete;

  // start() waits for `order`'s work (the kernels queued before), copies the edges out and starts
  // their sends; finish() completes the receives and copies the ghosts in, before the work queued
  // there afterwards. Kernels queued in between must not touch either.
  void start(T* device_box) override;
  void finish() override;
  // MPI's connections, over the staging buffers.
  void connect() override;
  GhostScheme scheme() const override { return mpi_.scheme(); }
  GhostSides sides() const override { return mpi_.sides(); }
  std::size_t bytes_sent() const override { return mpi_.bytes_sent(); }
  double seconds_spent() override { return seconds_; }

 private:
  // Where each of the four blocks lies in staging_, one after the other.
  enum Block { kLowerEdge, kUpperEdge, kLowerGhost, kUpperGhost, kBlocks };
  T* staged(Block b) const { return staging_ + std::size_t(b) * layout_.side_values; }
  // One block between the box and the staging buffer, on `order_`.
  void copy(T* to, const T* from, std::size_t bytes, cudaMemcpyKind kind) const;

  HaloLayout layout_;
  bool lower_ = false, upper_ = false;  // the neighbours this rank has
  MpiHaloExchange<T> mpi_;
  cudaStream_t order_;
  T* staging_ = nullptr;  // page-locked
  T* box_ = nullptr;      // the box of the exchange in flight
  double seconds_ = 0;
};

}  // namespace heat
