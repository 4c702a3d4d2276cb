// The halo exchange of GPU ranks: ncclSend/ncclRecv of whole planes between device buffers,
// enqueued on the backend's stream. NCCL moves the data (NVLink, PCIe or the network); MPI only
// carries NCCL's unique id at start-up and never sees a device pointer.
#pragma once

#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <exception>
#include <thread>

#include "parallel/device_exchange_times.hpp"
#include "parallel/halo_exchange.hpp"

namespace heat {

// An NCCL communicator over the ranks of an MPI communicator, each on its current CUDA device.
// Collective: every rank of `comm` constructs one at the same point. The constructor only
// broadcasts NCCL's id; the communicator is made on a thread of its own (ncclCommInitRank takes
// tenths of a second), so the caller allocates and fills its field meanwhile, and get() waits.
class NcclCommunicator {
 public:
  explicit NcclCommunicator(MPI_Comm comm);
  ~NcclCommunicator();
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  // Waits for the communicator; RunError where making it failed.
  ncclComm_t get();
  // Ends outstanding NCCL work at once (ncclCommAbort) instead of waiting for peers that may be
  // gone: for a rank that failed, before abort_job().
  void abort();

 private:
  void wait_until_made();
  ncclComm_t comm_ = nullptr;
  std::thread maker_;
  std::exception_ptr failure_;
};

template <typename T>
class NcclHaloExchange final : public SlabHaloExchange<T> {
 public:
  // Rank i of `comm`'s ranks holds slab i; the exchange moves the blocks of `line` (z_line's, or
  // packed_face_line's) of `slab`'s. Exchanges run on `stream` (a non-blocking one), ordered
  // with the work of `order` (the legacy default stream, where the kernels run, or a grid
  // exchange's own stream) by events: each starts once the work enqueued there before start() is
  // done, and work enqueued there after finish() waits for it; kernels enqueued elsewhere between
  // the two run beside it. `comm` must outlive the exchange; it is waited for at the first
  // exchange or connect().
  NcclHaloExchange(const Slab& slab, const Grid& global, const HaloLine& line, NcclCommunicator& comm,
                   cudaStream_t stream, cudaStream_t order = cudaStreamLegacy);
  ~NcclHaloExchange() override;
  NcclHaloExchange(const NcclHaloExchange&) = delete;
  NcclHaloExchange& operator=(const NcclHaloExchange&) = delete;

  void start(T* device_box) override;
  void finish() override;
  // Waits for the communicator and runs one exchange between scratch buffers of the blocks' size
  // (NCCL connects to a peer at its first send), then waits for it.
  void connect() override;
  double seconds_spent() override;

 private:
  // One group: the edges sent, the ghosts received (each layout_.side_values long).
  void enqueue(const T* lower_edge, const T* upper_edge, T* lower_ghost, T* upper_ghost);

  DeviceExchangeTimes times_;
  cudaEvent_t ended_ = nullptr;  // the end of the exchange finish() waits for, or null
  cudaEvent_t ready_ = nullptr;  // `order_`'s work before start()
  using SlabHaloExchange<T>::layout_;
  NcclCommunicator& comm_;
  cudaStream_t stream_, order_;
  int lower_ = -1, upper_ = -1;  // -1: no neighbour on that side
};

}  // namespace heat
