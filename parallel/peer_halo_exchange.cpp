#include "parallel/peer_halo_exchange.hpp"

#include <cudaTypedefs.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "backends/cuda/cuda_check.cuh"
#include "parallel/mpi_check.hpp"

namespace heat {

namespace {

constexpr int kHandshakeTag = 1, kEdgesTag = 2, kFilledTag = 3;

// A message's tag: its kind and whether it travels up (to the upper neighbour) or down.
int travelling_tag(int tag, bool up) { return 2 * tag + (up ? 1 : 0); }

// What neighbours tell each other once, in connect().
struct Handshake {
  cudaIpcEventHandle_t edges_written{}, ghosts_filled{};
  unsigned long long edge_at = 0;  // values from the box's start to the edge block for the receiver
  char gpu_bus_id[32] = {};
};

// The allocation `p` lies in and its offset there: IPC handles name allocations, not pointers.
std::pair<void*, unsigned long long> allocation_of(void* p) {
  static const auto address_range = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    HEAT_CUDA_CHECK(
        cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &function, 3020, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || function == nullptr)
      throw RunError("this CUDA driver has no cuMemGetAddressRange (the peer route needs it)");
    return reinterpret_cast<PFN_cuMemGetAddressRange_v3020>(function);
  }();
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (address_range(&base, &size, CUdeviceptr(p)) != CUDA_SUCCESS)
    throw RunError("the peer route's box is not in device memory of this process");
  return {reinterpret_cast<void*>(base), (unsigned long long)(CUdeviceptr(p) - base)};
}

cudaStream_t make_copy_stream() {
  cudaStream_t s = nullptr;
  HEAT_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return s;
}

cudaEvent_t make_event(unsigned flags) {
  cudaEvent_t e = nullptr;
  HEAT_CUDA_CHECK(cudaEventCreateWithFlags(&e, flags | cudaEventDisableTiming));
  return e;
}

void wait_all(std::vector<MPI_Request>& requests) {
  HEAT_MPI_CHECK(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  requests.clear();
}

}  // namespace

template <typename T>
PeerHaloExchange<T>::PeerHaloExchange(const Slab& slab, const Grid& global, const HaloLine& line, MPI_Comm comm,
                                      cudaStream_t order)
    : SlabHaloExchange<T>(slab, global, line), order_(order) {
  HEAT_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
  auto add_neighbour = [&](int rank, bool below, std::size_t ghost_at) {
    Neighbour& n = neighbours_[std::size_t(count_++)];
    n.rank = rank;
    n.below = below;
    n.ghost_at = ghost_at;
    n.shares_opened = count_ == 2 && neighbours_[0].rank == rank;
  };
  if (line.has_lower_neighbour()) add_neighbour(line.lower, true, layout_.lower_ghost);
  if (line.has_upper_neighbour()) add_neighbour(line.upper, false, layout_.upper_ghost);
  if (count_ == 0) return;
  edges_written_ = make_event(cudaEventInterprocess);
  ghosts_filled_ = make_event(cudaEventInterprocess);
  second_side_begins_ = make_event(0);
  second_side_ends_ = make_event(0);
  for (int i = 0; i < count_; ++i) neighbours_[i].copies = make_copy_stream();
}

template <typename T>
PeerHaloExchange<T>::~PeerHaloExchange() {
  for (int i = 0; i < count_; ++i) {
    Neighbour& n = neighbours_[i];
    // Its copies read the neighbour's memory: they end before the mapping does.
    if (n.copies) cudaStreamSynchronize(n.copies);
    if (n.copies) cudaStreamDestroy(n.copies);
  }
  for (int i = 0; i < count_; ++i) {
    Neighbour& n = neighbours_[i];
    if (n.shares_opened) continue;
    for (std::size_t a = 0; a < n.opened.size(); ++a)
      if (std::find(n.opened.begin(), n.opened.begin() + long(a), n.opened[a]) == n.opened.begin() + long(a))
        cudaIpcCloseMemHandle(n.opened[a]);
    if (n.edges_written) cudaEventDestroy(n.edges_written);
    if (n.ghosts_filled) cudaEventDestroy(n.ghosts_filled);
  }
  for (cudaEvent_t e : {edges_written_, ghosts_filled_, second_side_begins_, second_side_ends_})
    if (e) cudaEventDestroy(e);
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

template <typename T>
void PeerHaloExchange<T>::post(int tag, void* const (&incoming)[2], const void* const (&outgoing)[2], std::size_t bytes,
                               std::vector<MPI_Request>& requests) {
  for (int i = 0; i < count_; ++i) {
    const Neighbour& n = neighbours_[i];
    // From the lower neighbour a message travels up; to it, down.
    MPI_Request r[2];
    HEAT_MPI_CHECK(MPI_Irecv(incoming[i], int(bytes), MPI_BYTE, n.rank, travelling_tag(tag, n.below), comm_, &r[0]));
    HEAT_MPI_CHECK(MPI_Isend(outgoing[i], int(bytes), MPI_BYTE, n.rank, travelling_tag(tag, !n.below), comm_, &r[1]));
    requests.insert(requests.end(), r, r + 2);
  }
}

template <typename T>
void PeerHaloExchange<T>::connect() {
  if (count_ == 0 || connected_) return;
  connected_ = true;
  int device = 0;
  HEAT_CUDA_CHECK(cudaGetDevice(&device));
  Handshake mine[2], theirs[2];
  for (int i = 0; i < count_; ++i) {
    HEAT_CUDA_CHECK(cudaIpcGetEventHandle(&mine[i].edges_written, edges_written_));
    HEAT_CUDA_CHECK(cudaIpcGetEventHandle(&mine[i].ghosts_filled, ghosts_filled_));
    // The lower neighbour reads this rank's first owned planes, the upper one its last.
    mine[i].edge_at = neighbours_[i].below ? layout_.lower_edge : layout_.upper_edge;
    HEAT_CUDA_CHECK(cudaDeviceGetPCIBusId(mine[i].gpu_bus_id, sizeof(mine[i].gpu_bus_id), device));
  }
  std::vector<MPI_Request> requests;
  post(kHandshakeTag, {&theirs[0], &theirs[1]}, {&mine[0], &mine[1]}, sizeof(Handshake), requests);
  wait_all(requests);
  for (int i = 0; i < count_; ++i) {
    Neighbour& n = neighbours_[i];
    int their_device = -1, reachable = 0;
    theirs[i].gpu_bus_id[sizeof(theirs[i].gpu_bus_id) - 1] = '\0';
    HEAT_CUDA_CHECK(cudaDeviceGetByPCIBusId(&their_device, theirs[i].gpu_bus_id));
    if (their_device != device) HEAT_CUDA_CHECK(cudaDeviceCanAccessPeer(&reachable, device, their_device));
    if (their_device != device && !reachable)
      throw RunError("rank " + std::to_string(n.rank) + "'s GPU (" + theirs[i].gpu_bus_id +
                     ") cannot be reached from this rank's as a peer: use --halo-exchange nccl");
    n.edge_at = std::size_t(theirs[i].edge_at);
    if (n.shares_opened) {
      n.edges_written = neighbours_[0].edges_written;
      n.ghosts_filled = neighbours_[0].ghosts_filled;
      continue;
    }
    HEAT_CUDA_CHECK(cudaIpcOpenEventHandle(&n.edges_written, theirs[i].edges_written));
    HEAT_CUDA_CHECK(cudaIpcOpenEventHandle(&n.ghosts_filled, theirs[i].ghosts_filled));
  }
}

template <typename T>
int PeerHaloExchange<T>::index_of(T* box) {
  for (std::size_t i = 0; i < boxes_.size(); ++i)
    if (boxes_[i] == box) return int(i);
  const auto [allocation, offset] = allocation_of(box);
  BoxNotice notice;
  notice.index = int(boxes_.size());
  notice.offset = offset;
  HEAT_CUDA_CHECK(cudaIpcGetMemHandle(&notice.allocation, allocation));
  boxes_.push_back(box);
  notices_.push_back(notice);
  return notice.index;
}

template <typename T>
const T* PeerHaloExchange<T>::edges_of(Neighbour& n) {
  const BoxNotice& box = n.notice;
  Neighbour& o = opener_of(n);
  const auto known = std::size_t(box.index);
  if (box.index < 0 || known > o.opened.size())
    throw RunError("rank " + std::to_string(n.rank) + " sent box " + std::to_string(box.index) + " out of order");
  if (known == o.opened.size()) {
    // A second box in an allocation already opened (a handle opens once per process) shares it.
    void* opened = nullptr;
    for (std::size_t i = 0; i < o.handles.size(); ++i)
      if (std::memcmp(&o.handles[i], &box.allocation, sizeof(box.allocation)) == 0) opened = o.opened[i];
    if (!opened) HEAT_CUDA_CHECK(cudaIpcOpenMemHandle(&opened, box.allocation, cudaIpcMemLazyEnablePeerAccess));
    o.handles.push_back(box.allocation);
    o.opened.push_back(opened);
    o.offsets.push_back(box.offset);
  }
  const auto* base = static_cast<const unsigned char*>(o.opened[known]);
  return reinterpret_cast<const T*>(base + o.offsets[known]) + n.edge_at;
}

template <typename T>
void PeerHaloExchange<T>::swap_notices(int index) {
  std::vector<MPI_Request> requests;
  post(kEdgesTag, {&neighbours_[0].notice, &neighbours_[1].notice}, {&notices_[index], &notices_[index]},
       sizeof(BoxNotice), requests);
  wait_all(requests);
}

template <typename T>
void PeerHaloExchange<T>::open(const std::vector<T*>& boxes) {
  if (count_ == 0) return;
  connect();
  // Each box's first exchange: the neighbours' allocations opened, and the copies' first touch of
  // their mappings, which costs milliseconds more than the next one.
  for (T* box : boxes) {
    start(box);
    finish();
  }
  times_.forget_so_far();
}

template <typename T>
void PeerHaloExchange<T>::start(T* device_box) {
  if (count_ == 0) return;
  connect();
  const int index = index_of(device_box);
  // After the work queued so far: it wrote the edges and no longer reads the ghosts.
  HEAT_CUDA_CHECK(cudaEventRecord(edges_written_, order_));
  swap_notices(index);

  // The copies start on the first side's stream once this rank's and the neighbours' edges are
  // written, and fork to the second side's stream, so that each side has a copy engine.
  const cudaStream_t first = neighbours_[0].copies;
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(first, edges_written_, 0));
  for (int i = 0; i < count_; ++i) HEAT_CUDA_CHECK(cudaStreamWaitEvent(first, neighbours_[i].edges_written, 0));
  times_.begin(first);
  if (count_ == 2) {
    HEAT_CUDA_CHECK(cudaEventRecord(second_side_begins_, first));
    HEAT_CUDA_CHECK(cudaStreamWaitEvent(neighbours_[1].copies, second_side_begins_, 0));
  }
  const std::size_t bytes = layout_.side_values * sizeof(T);
  for (int i = 0; i < count_; ++i) {
    Neighbour& n = neighbours_[i];
    HEAT_CUDA_CHECK(cudaMemcpyAsync(device_box + n.ghost_at, edges_of(n), bytes, cudaMemcpyDeviceToDevice, n.copies));
  }
  if (count_ == 2) {
    HEAT_CUDA_CHECK(cudaEventRecord(second_side_ends_, neighbours_[1].copies));
    HEAT_CUDA_CHECK(cudaStreamWaitEvent(first, second_side_ends_, 0));
  }
  times_.end(first);
  HEAT_CUDA_CHECK(cudaEventRecord(ghosts_filled_, first));
  post(kFilledTag, {&filled_received_[0], &filled_received_[1]}, {&filled_, &filled_}, sizeof(int), filled_messages_);
  in_flight_ = true;
}

template <typename T>
void PeerHaloExchange<T>::finish() {
  if (!in_flight_) return;
  in_flight_ = false;
  wait_all(filled_messages_);
  // The work queued next waits until the ghosts are here and the neighbours have read the edges.
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(order_, ghosts_filled_, 0));
  for (int i = 0; i < count_; ++i) HEAT_CUDA_CHECK(cudaStreamWaitEvent(order_, neighbours_[i].ghosts_filled, 0));
}

template class PeerHaloExchange<float>;
template class PeerHaloExchange<double>;

}  // namespace heat
