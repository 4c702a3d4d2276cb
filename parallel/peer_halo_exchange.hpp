// The halo exchange of GPU ranks on one node by the copy engines: each rank copies its
// neighbours' edge planes straight from their device boxes into its ghost planes
// (cudaMemcpyAsync between devices, over NVLink or PCIe), through CUDA IPC handles. No kernel
// moves the data, so the copies take no SM from the kernels that run beside them, where NCCL's
// kernels wait for SMs the interior's blocks hold until they end.
//
// The order across processes comes from interprocess events, and MPI messages tell a rank when
// its neighbour has recorded one (an event is waited on as last recorded when the wait is
// enqueued). Per exchange and neighbour:
//   start():  record `edges_written` after this rank's queued kernels; tell the neighbour
//             (message "edges", with which box they are in); on its message, copy its edges into
//             the ghost planes once its `edges_written` has passed; record `ghosts_filled`;
//             tell it (message "filled").
//   finish(): on the neighbour's "filled", the kernels queued next wait for this rank's own
//             `ghosts_filled` (the ghosts arrived) and the neighbour's (this rank's edges were
//             read: they may be written again).
// Neither side can record an event again before the other has enqueued its wait on it: the next
// start() of each follows its finish(), which waits for the other's message sent after that wait.
// Where z wraps, 2 ranks are each other's lower and upper neighbour: each message's tag says which
// way it travels, and the neighbour's events and boxes are opened once for both sides.
#pragma once

#include <cuda_runtime.h>
#include <mpi.h>

#include <array>
#include <vector>

#include "parallel/device_exchange_times.hpp"
#include "parallel/halo_exchange.hpp"

namespace heat {

template <typename T>
class PeerHaloExchange final : public SlabHaloExchange<T> {
 public:
  // Collective over `comm`, whose rank i holds slab i, every rank on this node: the blocks of
  // `line` (z_line's, or packed_face_line's) of `slab`'s exchange, in the order of `order`'s work
  // (the legacy default stream, where the kernels run, or a grid exchange's own stream): the
  // edges are copied once the work enqueued there before start() is done, and work enqueued there
  // after finish() waits for the copies both ways.
  PeerHaloExchange(const Slab& slab, const Grid& global, const HaloLine& line, MPI_Comm comm,
                   cudaStream_t order = cudaStreamLegacy);
  ~PeerHaloExchange() override;
  PeerHaloExchange(const PeerHaloExchange&) = delete;
  PeerHaloExchange& operator=(const PeerHaloExchange&) = delete;

  // `device_box` must be the start of a device allocation or lie inside one (its IPC handle is
  // the allocation's); a box that open() was not given is opened by the neighbours the first time
  // it comes.
  void start(T* device_box) override;
  void finish() override;
  // Exchanges the events' handles and checks that the neighbours' GPUs can be reached (the first
  // exchange does, where connect() was not called).
  void connect() override;
  // Runs each box's first exchange: the neighbours' boxes are opened and their edges first copied.
  void open(const std::vector<T*>& boxes) override;
  double seconds_spent() override { return times_.seconds(); }

 private:
  // Which box an exchange's edges are in: the IPC handle of its allocation and its offset there.
  struct BoxNotice {
    int index = 0;
    cudaIpcMemHandle_t allocation{};
    unsigned long long offset = 0;
  };
  struct Neighbour {
    int rank = -1;
    bool below = false;        // the lower neighbour
    bool shares_opened = false;  // the same rank as neighbours_[0], whose events and boxes it uses
    std::size_t edge_at = 0;   // where its edge block for this rank sits in its box (values)
    std::size_t ghost_at = 0;  // where this rank's ghost block from it sits in this rank's box
    cudaEvent_t edges_written = nullptr, ghosts_filled = nullptr;  // its events, opened
    std::vector<cudaIpcMemHandle_t> handles;                       // its boxes' allocations, by box index...
    std::vector<void*> opened;                                     // ...as opened here...
    std::vector<unsigned long long> offsets;                       // ...and where in them the boxes start
    BoxNotice notice;                                              // its box in the exchange in flight
    cudaStream_t copies = nullptr;                                 // this side's copies
  };
  // The neighbour's edge block of the exchange in flight, its box opened the first time it comes.
  const T* edges_of(Neighbour& n);
  // The neighbour that opens `n`'s events and boxes: itself, or the first where both are one rank.
  Neighbour& opener_of(Neighbour& n) { return n.shares_opened ? neighbours_[0] : n; }
  // This rank's box's index, a notice made the first time it comes.
  int index_of(T* box);
  // Tells the neighbours which box this exchange is of (message "edges"); their answers land in
  // each neighbour's `notice`.
  void swap_notices(int index);
  // Posts, with each neighbour i, the receive of `bytes` into incoming[i] and the send of
  // outgoing[i], tagged `tag` and the way each travels; the requests are added to `requests`.
  void post(int tag, void* const (&incoming)[2], const void* const (&outgoing)[2], std::size_t bytes,
            std::vector<MPI_Request>& requests);

  MPI_Comm comm_ = MPI_COMM_NULL;  // a duplicate: its messages meet no one else's
  cudaStream_t order_;
  using SlabHaloExchange<T>::layout_;
  std::array<Neighbour, 2> neighbours_{};  // those this rank has, the lower one first
  int count_ = 0;
  std::vector<T*> boxes_;  // this rank's boxes, by index, and their notices
  std::vector<BoxNotice> notices_;
  cudaEvent_t edges_written_ = nullptr, ghosts_filled_ = nullptr;  // interprocess
  cudaEvent_t second_side_begins_ = nullptr, second_side_ends_ = nullptr;
  DeviceExchangeTimes times_;
  std::vector<MPI_Request> filled_messages_;
  int filled_ = 0;  // the "filled" message's body: its arrival is what counts
  std::array<int, 2> filled_received_{};
  bool connected_ = false;
  bool in_flight_ = false;
};

}  // namespace heat
