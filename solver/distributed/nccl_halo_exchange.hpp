// The halo exchange of GPU ranks: ncclSend/ncclRecv of whole planes between device buffers,
// enqueued on the backend's stream. NCCL moves the data (NVLink, PCIe or the network); MPI only
// carries NCCL's unique id at start-up and never sees a device pointer.
#pragma once

#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <array>
#include <string>

#include "solver/distributed/halo_exchange.hpp"

namespace heat {

// An NCCL communicator over the ranks of an MPI communicator, each on its current CUDA device.
// Collective: every rank of `comm` constructs one at the same point.
class NcclCommunicator {
 public:
  explicit NcclCommunicator(MPI_Comm comm);
  ~NcclCommunicator();
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  ncclComm_t get() const { return comm_; }
  // Ends outstanding NCCL work at once (ncclCommAbort) instead of waiting for peers that may be
  // gone: for a rank that failed, before abort_job().
  void abort();

 private:
  ncclComm_t comm_ = nullptr;
};

template <typename T>
class NcclHaloExchange final : public HaloExchange<T> {
 public:
  // Rank i of `comm` holds slab i. Exchanges are enqueued on `stream`.
  NcclHaloExchange(const Slab& slab, const Grid& global, const NcclCommunicator& comm, cudaStream_t stream);
  ~NcclHaloExchange() override;
  NcclHaloExchange(const NcclHaloExchange&) = delete;
  NcclHaloExchange& operator=(const NcclHaloExchange&) = delete;

  void exchange(T* device_box) override;
  std::size_t bytes_sent() const override { return bytes_sent_; }
  double seconds_spent() override;

 private:
  // Each exchange is timed by a pair of events on the stream. The pairs are reused in turn, and
  // a pair's time is read before its reuse: by then it is long finished, so the host rarely
  // waits, and never runs more than kTimedExchanges exchanges ahead of the device.
  static constexpr int kTimedExchanges = 32;
  struct TimedExchange {
    cudaEvent_t start = nullptr, stop = nullptr;
    bool pending = false;
  };
  void collect(TimedExchange& t);

  std::array<TimedExchange, kTimedExchanges> timers_{};
  int next_timer_ = 0;
  double seconds_ = 0;
  HaloLayout layout_;
  ncclComm_t comm_;
  cudaStream_t stream_;
  int lower_ = -1, upper_ = -1;  // -1: no neighbour on that side
  std::size_t bytes_sent_ = 0;
};

}  // namespace heat
