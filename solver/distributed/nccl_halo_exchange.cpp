#include "solver/distributed/nccl_halo_exchange.hpp"

#include "solver/cuda/cuda_check.cuh"
#include "solver/distributed/mpi_check.hpp"
#include "solver/distributed/nccl_check.hpp"

namespace heat {

NcclCommunicator::NcclCommunicator(MPI_Comm comm) {
  int rank = 0, size = 1;
  HEAT_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  HEAT_MPI_CHECK(MPI_Comm_size(comm, &size));
  ncclUniqueId id{};
  if (rank == 0) HEAT_NCCL_CHECK(ncclGetUniqueId(&id));
  HEAT_MPI_CHECK(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm));
  HEAT_NCCL_CHECK(ncclCommInitRank(&comm_, size, id, rank));
}

NcclCommunicator::~NcclCommunicator() {
  if (comm_) ncclCommDestroy(comm_);
}

void NcclCommunicator::abort() {
  if (comm_) ncclCommAbort(comm_);
  comm_ = nullptr;
}

namespace {
template <typename T>
constexpr ncclDataType_t nccl_value_type() {
  static_assert(sizeof(T) == sizeof(float) || sizeof(T) == sizeof(double), "float or double");
  return sizeof(T) == sizeof(float) ? ncclFloat32 : ncclFloat64;
}
}  // namespace

template <typename T>
NcclHaloExchange<T>::NcclHaloExchange(const Slab& slab, const Grid& global, const NcclCommunicator& comm,
                                      cudaStream_t stream)
    : layout_(halo_layout(slab, global)),
      comm_(comm.get()),
      stream_(stream),
      bytes_sent_(halo_bytes_sent(slab, global, sizeof(T))) {
  if (slab.has_lower_neighbour()) lower_ = slab.rank - 1;
  if (slab.has_upper_neighbour()) upper_ = slab.rank + 1;
  for (TimedExchange& t : timers_) {
    HEAT_CUDA_CHECK(cudaEventCreate(&t.start));
    HEAT_CUDA_CHECK(cudaEventCreate(&t.stop));
  }
}

template <typename T>
NcclHaloExchange<T>::~NcclHaloExchange() {
  for (TimedExchange& t : timers_) {
    if (t.start) cudaEventDestroy(t.start);
    if (t.stop) cudaEventDestroy(t.stop);
  }
}

template <typename T>
void NcclHaloExchange<T>::collect(TimedExchange& t) {
  if (!t.pending) return;
  float ms = 0;
  HEAT_CUDA_CHECK(cudaEventSynchronize(t.stop));
  HEAT_CUDA_CHECK(cudaEventElapsedTime(&ms, t.start, t.stop));
  seconds_ += 1e-3 * double(ms);
  t.pending = false;
}

template <typename T>
double NcclHaloExchange<T>::seconds_spent() {
  for (TimedExchange& t : timers_) collect(t);
  return seconds_;
}

template <typename T>
void NcclHaloExchange<T>::exchange(T* device_box) {
  if (lower_ < 0 && upper_ < 0) return;
  // One group: NCCL pairs each send with the neighbour's matching receive, in either order,
  // without the deadlock that separate blocking calls would risk.
  const std::size_t count = layout_.side_values;
  constexpr ncclDataType_t type = nccl_value_type<T>();
  TimedExchange& timer = timers_[std::size_t(next_timer_)];
  next_timer_ = (next_timer_ + 1) % kTimedExchanges;
  collect(timer);
  HEAT_CUDA_CHECK(cudaEventRecord(timer.start, stream_));
  HEAT_NCCL_CHECK(ncclGroupStart());
  if (lower_ >= 0) {
    HEAT_NCCL_CHECK(ncclSend(device_box + layout_.lower_edge, count, type, lower_, comm_, stream_));
    HEAT_NCCL_CHECK(ncclRecv(device_box + layout_.lower_ghost, count, type, lower_, comm_, stream_));
  }
  if (upper_ >= 0) {
    HEAT_NCCL_CHECK(ncclSend(device_box + layout_.upper_edge, count, type, upper_, comm_, stream_));
    HEAT_NCCL_CHECK(ncclRecv(device_box + layout_.upper_ghost, count, type, upper_, comm_, stream_));
  }
  HEAT_NCCL_CHECK(ncclGroupEnd());
  HEAT_CUDA_CHECK(cudaEventRecord(timer.stop, stream_));
  timer.pending = true;
}

template class NcclHaloExchange<float>;
template class NcclHaloExchange<double>;

}  // namespace heat
