#include "parallel/nccl_halo_exchange.hpp"

#include "backends/cuda/cuda_check.cuh"
#include "backends/cuda/device_buffer.cuh"
#include "parallel/mpi_check.hpp"
#include "parallel/nccl_check.hpp"

namespace heat {

NcclCommunicator::NcclCommunicator(MPI_Comm comm) {
  int rank = 0, size = 1, device = 0;
  HEAT_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  HEAT_MPI_CHECK(MPI_Comm_size(comm, &size));
  HEAT_CUDA_CHECK(cudaGetDevice(&device));
  ncclUniqueId id{};
  if (rank == 0) HEAT_NCCL_CHECK(ncclGetUniqueId(&id));
  HEAT_MPI_CHECK(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm));
  // The device is current per thread: the maker selects the rank's own.
  maker_ = std::thread([this, id, size, rank, device] {
    try {
      HEAT_CUDA_CHECK(cudaSetDevice(device));
      HEAT_NCCL_CHECK(ncclCommInitRank(&comm_, size, id, rank));
    } catch (...) {
      failure_ = std::current_exception();
    }
  });
}

NcclCommunicator::~NcclCommunicator() {
  if (maker_.joinable()) maker_.join();
  if (comm_) ncclCommDestroy(comm_);
}

void NcclCommunicator::wait_until_made() {
  if (maker_.joinable()) maker_.join();
  if (failure_) std::rethrow_exception(failure_);
}

ncclComm_t NcclCommunicator::get() {
  wait_until_made();
  return comm_;
}

void NcclCommunicator::abort() {
  if (maker_.joinable()) maker_.join();
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
NcclHaloExchange<T>::NcclHaloExchange(const Slab& slab, const Grid& global, const HaloLine& line,
                                      NcclCommunicator& comm, cudaStream_t stream, cudaStream_t order)
    : SlabHaloExchange<T>(slab, global, line),
      comm_(comm),
      stream_(stream),
      order_(order),
      lower_(line.lower),
      upper_(line.upper) {
  HEAT_CUDA_CHECK(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming));
}

template <typename T>
NcclHaloExchange<T>::~NcclHaloExchange() {
  if (ready_) cudaEventDestroy(ready_);
}

template <typename T>
double NcclHaloExchange<T>::seconds_spent() {
  return times_.seconds();
}

template <typename T>
void NcclHaloExchange<T>::enqueue(const T* lower_edge, const T* upper_edge, T* lower_ghost, T* upper_ghost) {
  // One group: NCCL pairs each send with the neighbour's matching receive without the deadlock
  // that separate blocking calls would risk. Between two ranks it matches sends and receives in
  // the order each issues them, which matters where they are each other's lower and upper
  // neighbour (2 ranks that wrap): every rank sends its lower edge, then its upper one, and
  // receives the ghosts those fill on the other side, the upper one first.
  const std::size_t count = layout_.side_values;
  constexpr ncclDataType_t type = nccl_value_type<T>();
  ncclComm_t comm = comm_.get();
  HEAT_NCCL_CHECK(ncclGroupStart());
  if (lower_ >= 0) HEAT_NCCL_CHECK(ncclSend(lower_edge, count, type, lower_, comm, stream_));
  if (upper_ >= 0) HEAT_NCCL_CHECK(ncclSend(upper_edge, count, type, upper_, comm, stream_));
  if (upper_ >= 0) HEAT_NCCL_CHECK(ncclRecv(upper_ghost, count, type, upper_, comm, stream_));
  if (lower_ >= 0) HEAT_NCCL_CHECK(ncclRecv(lower_ghost, count, type, lower_, comm, stream_));
  HEAT_NCCL_CHECK(ncclGroupEnd());
}

template <typename T>
void NcclHaloExchange<T>::start(T* device_box) {
  if (lower_ < 0 && upper_ < 0) return;
  // After the kernels that wrote the edge planes; the time counts from there.
  HEAT_CUDA_CHECK(cudaEventRecord(ready_, order_));
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(stream_, ready_, 0));
  times_.begin(stream_);
  enqueue(device_box + layout_.lower_edge, device_box + layout_.upper_edge, device_box + layout_.lower_ghost,
          device_box + layout_.upper_ghost);
  ended_ = times_.end(stream_);
}

template <typename T>
void NcclHaloExchange<T>::finish() {
  if (!ended_) return;
  // The kernels that read the ghost planes next wait on the device, not the host.
  HEAT_CUDA_CHECK(cudaStreamWaitEvent(order_, ended_, 0));
  ended_ = nullptr;
}

template <typename T>
void NcclHaloExchange<T>::connect() {
  comm_.get();
  if (lower_ < 0 && upper_ < 0) return;
  // Full-size blocks: NCCL spreads a send over as many channels as its size calls for, and
  // connects each channel at its first use. Both edges are sent from one block (only read).
  DeviceBuffer<T> edges(layout_.side_values), lower_ghost(layout_.side_values), upper_ghost(layout_.side_values);
  HEAT_CUDA_CHECK(cudaMemsetAsync(edges.get(), 0, edges.bytes(), stream_));
  enqueue(edges.get(), edges.get(), lower_ghost.get(), upper_ghost.get());
  HEAT_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

template class NcclHaloExchange<float>;
template class NcclHaloExchange<double>;

}  // namespace heat
