#include "parallel/gpu_halo_exchange.hpp"

#include <cuda_runtime.h>

#include <string>

#include "backends/cuda/cuda_check.cuh"
#include "parallel/grid_halo_exchange.hpp"
#include "parallel/host_staged_halo_exchange.hpp"
#include "parallel/peer_halo_exchange.hpp"
#include "core/errors.hpp"
#include "backends/cuda/gpu_info.hpp"
#include "backends/cuda/process_gpu.hpp"
#if HEAT_HAVE_NCCL
#include "parallel/nccl_halo_exchange.hpp"
#include "parallel/urgent_stream.hpp"
#endif

namespace heat {

namespace {
// The GPU a node-local rank takes: its own where there are enough, else the node's in turn.
int gpu_of_rank(int local_rank, int devices) { return local_rank % devices; }
}  // namespace

void start_rank_gpu(int local_rank) {
  if (const int devices = gpu_count(); devices > 0) process_gpu().start_early(gpu_of_rank(local_rank, devices));
}

int select_rank_gpu(int local_rank, int local_size, GpuHaloRoute route) {
#if !HEAT_HAVE_NCCL
  if (route == GpuHaloRoute::Nccl)
    throw InputError("this build has no NCCL, so GPU ranks cannot exchange halos device to device: use "
                     "--halo-exchange host");
#endif
  const int devices = gpu_count();
  if (devices == 0)
    throw InputError("this node has no usable CUDA device: GPU ranks need one (or use --backend cpu)");
  if (route == GpuHaloRoute::Nccl && local_rank >= devices)
    throw InputError(std::to_string(local_size) + " ranks run on this node but it has " + std::to_string(devices) +
                     " CUDA devices: NCCL needs a GPU of its own for each rank (start at most " +
                     std::to_string(devices) + " ranks per node, share the GPUs with --halo-exchange host, or use "
                     "--backend cpu)");
  const int device = gpu_of_rank(local_rank, devices);
  process_gpu().choose(device);
  return device;
}

bool rank_gpus_reach_their_neighbours(const std::vector<std::pair<int, int>>& neighbours) {
  const int devices = gpu_count();
  if (devices == 0) return false;
  for (const auto& [lower_rank, upper_rank] : neighbours) {
    const int lower = gpu_of_rank(lower_rank, devices), upper = gpu_of_rank(upper_rank, devices);
    if (lower == upper) continue;
    // Each side copies from the other's memory.
    int up = 0, down = 0;
    HEAT_CUDA_CHECK(cudaDeviceCanAccessPeer(&up, upper, lower));
    HEAT_CUDA_CHECK(cudaDeviceCanAccessPeer(&down, lower, upper));
    if (!up || !down) return false;
  }
  return true;
}

namespace {

// `slab`'s exchange whose lines `line_exchange` makes: z's alone for slabs, as they always were;
// on a grid that splits x or y, the packed faces' lines too (GridHaloExchange).
template <typename T>
std::unique_ptr<HaloExchange<T>> slab_or_grid_exchange(
    const Slab& slab, const Grid& global, const typename GridHaloExchange<T>::LineExchange& line_exchange) {
  if (slab.is_slab()) return line_exchange(z_line(slab, global), cudaStreamLegacy);
  return std::make_unique<GridHaloExchange<T>>(slab, global, line_exchange);
}

#if HEAT_HAVE_NCCL
// NCCL's exchange with the communicator and stream it needs, for one run (one of each for all
// its lines). The communicator is made on a thread of its own while the rank allocates and fills
// its field; connect() waits for it. The stream does not wait for the legacy default stream,
// where the kernels run, so that the kernels a backend enqueues between start() and finish() run
// beside the exchange (the exchange orders itself with events), and has the highest priority, so
// that its few blocks get SMs before the waiting blocks of those kernels.
template <typename T>
class NcclRoute final : public HaloExchange<T> {
 public:
  NcclRoute(const Slab& slab, const Grid& global, MPI_Comm comm)
      : comm_(comm),
        exchange_(slab_or_grid_exchange<T>(slab, global, [&](const HaloLine& line, cudaStream_t order) {
          return std::make_unique<NcclHaloExchange<T>>(slab, global, line, comm_, stream_.get(), order);
        })) {}
  void start(T* device_box) override { exchange_->start(device_box); }
  void finish() override { exchange_->finish(); }
  void exchange_across(T* device_box, int axis) override { exchange_->exchange_across(device_box, axis); }
  void connect() override { exchange_->connect(); }
  void open(const std::vector<T*>& boxes) override { exchange_->open(boxes); }
  GhostScheme scheme() const override { return exchange_->scheme(); }
  GhostSides sides() const override { return exchange_->sides(); }
  std::size_t bytes_sent() const override { return exchange_->bytes_sent(); }
  double seconds_spent() override { return exchange_->seconds_spent(); }

 private:
  NcclCommunicator comm_;
  UrgentStream stream_;
  std::unique_ptr<HaloExchange<T>> exchange_;
};
#endif

}  // namespace

template <typename T>
std::unique_ptr<HaloExchange<T>> make_gpu_halo_exchange(const Slab& slab, const Grid& global, MPI_Comm comm,
                                                        GpuHaloRoute route) {
#if HEAT_HAVE_NCCL
  if (route == GpuHaloRoute::Nccl) return std::make_unique<NcclRoute<T>>(slab, global, comm);
#endif
  if (route == GpuHaloRoute::Nccl) throw InputError("this build has no NCCL: use --halo-exchange peer or host");
  return slab_or_grid_exchange<T>(
      slab, global, [&](const HaloLine& line, cudaStream_t order) -> std::unique_ptr<HaloExchange<T>> {
        if (route == GpuHaloRoute::Peer) return std::make_unique<PeerHaloExchange<T>>(slab, global, line, comm, order);
        return std::make_unique<HostStagedHaloExchange<T>>(slab, global, line, comm, order);
      });
}

template std::unique_ptr<HaloExchange<float>> make_gpu_halo_exchange(const Slab&, const Grid&, MPI_Comm, GpuHaloRoute);
template std::unique_ptr<HaloExchange<double>> make_gpu_halo_exchange(const Slab&, const Grid&, MPI_Comm, GpuHaloRoute);

}  // namespace heat
