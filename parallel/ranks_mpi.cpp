// Ranks in a build with MPI (parallel/): MPI is initialised only under an MPI launcher.
#include <chrono>
#include <climits>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "backends/cuda/gpu_info.hpp"
#include "backends/cuda/process_gpu.hpp"
#include "parallel/collective_input.hpp"
#include "parallel/mpi_check.hpp"
#include "parallel/mpi_gather.hpp"
#include "parallel/mpi_halo_exchange.hpp"
#include "parallel/mpi_session.hpp"
#include "parallel/ranks.hpp"
#include "parallel/ranks_common.hpp"
#if HEAT_HAVE_CUDA
#include "parallel/gpu_halo_exchange.hpp"
#endif

namespace heat {

namespace {

// One session per process: MPI cannot be initialised twice.
std::optional<MpiSession>& session() {
  static std::optional<MpiSession> s;
  return s;
}

// Starts the CUDA driver and, where the launcher names this rank's node-local rank among several
// and the command line may take a GPU, the context of the GPU it will take (select_rank_gpu's
// rule; a rank alone takes --device, read later). On 4 ranks of a 4-GPU node the contexts of cpu
// ranks cost 0.7 s (started, then given back).
void start_likely_rank_gpu(bool may_take_a_gpu) {
#if HEAT_HAVE_CUDA
  if (const std::optional<int> local_rank = launcher_local_rank_of_several(); local_rank && may_take_a_gpu)
    return start_rank_gpu(*local_rank);
#endif
  gpu_count();
}

// Waits for `requests` of the snapshot writers' communicator, polled with short sleeps: a
// blocking call would spin a core for as long as the slowest rank's writer takes, a core the
// loop's threads step and exchange halos on.
void wait_polling(int count, MPI_Request* requests) {
  for (int done = 0;;) {
    HEAT_MPI_CHECK(MPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE));
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace

Ranks::Ranks() = default;

Ranks::Ranks(int& argc, char**& argv, bool may_take_a_gpu) {
  if (started_by_mpi_launcher()) {
    // The CUDA driver's start and the rank's GPU context (a build or a machine without a GPU
    // returns at once), then MPI's. Not beside each other on two threads, though neither needs
    // the other: the driver reads the environment (getenv in cuInit) while MPI_Init writes it
    // (OpenMPI's setenv), and glibc's environment is not thread-safe: a rank crashed so, in getenv
    // inside cuInit.
    start_likely_rank_gpu(may_take_a_gpu);
    session().emplace(argc, argv);
    joined_mpi_ = true;
    rank_ = session()->rank();
    size_ = session()->size();
    local_size_ = session()->local_size();
  }
  set_process_ranks(this);
}

Ranks::~Ranks() {
  set_process_ranks(nullptr);
  if (joined_mpi_) session().reset();
}

void Ranks::validate_everywhere(const std::function<void()>& validate) const {
  if (joined_mpi_) validate_on_every_rank(MPI_COMM_WORLD, validate);
  else validate();
}

void Ranks::wait_for_every_rank() const {
  if (joined_mpi_) HEAT_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

double Ranks::slowest(double seconds) const {
  if (!joined_mpi_) return seconds;
  double most = seconds;
  HEAT_MPI_CHECK(MPI_Allreduce(&seconds, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  return most;
}

std::vector<double> Ranks::largest(std::vector<double> values) const {
  if (!joined_mpi_) return values;
  HEAT_MPI_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  return values;
}

bool Ranks::on_any_rank(bool value) const {
  if (!joined_mpi_) return value;
  int here = value ? 1 : 0, anywhere = 0;
  HEAT_MPI_CHECK(MPI_Allreduce(&here, &anywhere, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  return anywhere != 0;
}

std::string Ranks::same_on_every_rank(const std::string& text) const {
  if (!joined_mpi_) return text;
  unsigned long long length = text.size();
  HEAT_MPI_CHECK(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD));
  std::string value = text;
  value.resize(std::size_t(length));
  HEAT_MPI_CHECK(MPI_Bcast(value.data(), int(length), MPI_CHAR, 0, MPI_COMM_WORLD));
  return value;
}

void Ranks::wait_for_every_snapshot_writer() const {
  if (!joined_mpi_) return;
  MPI_Request request = MPI_REQUEST_NULL;
  HEAT_MPI_CHECK(MPI_Ibarrier(session()->snapshot_writers(), &request));
  wait_polling(1, &request);
}

void Ranks::pass_down_between_snapshot_writers(const void* to_lower, void* from_upper, std::size_t bytes) const {
  if (!joined_mpi_ || size_ == 1) return;
  if (bytes > std::size_t(INT_MAX)) throw std::logic_error("a plane of more than INT_MAX bytes to pass down");
  const MPI_Comm writers = session()->snapshot_writers();
  MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  if (rank_ + 1 < size_) HEAT_MPI_CHECK(MPI_Irecv(from_upper, int(bytes), MPI_BYTE, rank_ + 1, 0, writers, &requests[0]));
  if (rank_ > 0) HEAT_MPI_CHECK(MPI_Isend(to_lower, int(bytes), MPI_BYTE, rank_ - 1, 0, writers, &requests[1]));
  wait_polling(2, requests);
}

std::vector<double> Ranks::gather_between_snapshot_writers(const std::vector<double>& values) const {
  if (!joined_mpi_ || size_ == 1) return values;
  if (values.size() > std::size_t(INT_MAX)) throw std::logic_error("more than INT_MAX values to gather");
  const MPI_Comm writers = session()->snapshot_writers();
  const int count = int(values.size());
  std::vector<int> counts(is_root() ? std::size_t(size_) : 0);
  MPI_Request request = MPI_REQUEST_NULL;
  HEAT_MPI_CHECK(MPI_Igather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, writers, &request));
  wait_polling(1, &request);
  std::vector<int> offsets(counts.size());
  long long total = 0;
  for (std::size_t rank = 0; rank < counts.size(); ++rank) {
    offsets[rank] = int(total);
    total += counts[rank];
  }
  if (total > INT_MAX) throw std::logic_error("more than INT_MAX values to gather");
  std::vector<double> gathered(static_cast<std::size_t>(total));
  HEAT_MPI_CHECK(MPI_Igatherv(values.data(), count, MPI_DOUBLE, gathered.data(), counts.data(), offsets.data(),
                              MPI_DOUBLE, 0, writers, &request));
  wait_polling(1, &request);
  return gathered;
}

template <typename T>
Field<T> Ranks::planes_between_snapshot_writers(const Field<T>& box, const Slab& slab, const Grid& global,
                                                const std::vector<std::pair<int, int>>& planes_of_rank) const {
  if (!joined_mpi_ || size_ == 1) return box;
  return regroup_into_planes(box, slab, global, planes_of_rank, session()->snapshot_writers(),
                             [](MPI_Request& request) { wait_polling(1, &request); });
}

// An MPI without MPI_THREAD_MULTIPLE leaves the writes in the loop on several ranks.
bool Ranks::snapshots_beside_the_loop() const { return !joined_mpi_ || session()->any_thread_may_call(); }

int Ranks::end_every_rank(int exit_code) const {
  if (size_ > 1) abort_job(exit_code);
  return exit_code;
}

GpuHaloRoute Ranks::gpu_route(std::optional<GpuHaloRoute> asked,
                              const std::vector<std::pair<int, int>>& neighbours) const {
  if (asked) return *asked;
  if (!joined_mpi_ || size_ == 1) return GpuHaloRoute::Peer;
#if HEAT_HAVE_CUDA
  if (session()->local_size() == size_ && rank_gpus_reach_their_neighbours(neighbours)) return GpuHaloRoute::Peer;
#else
  (void)neighbours;
#endif
  return GpuHaloRoute::Nccl;
}

int Ranks::select_gpu(int device_option, GpuHaloRoute route) const {
  if (size_ == 1) {
    process_gpu().choose(device_option);
    return device_option;
  }
#if HEAT_HAVE_CUDA
  if (route == GpuHaloRoute::Peer && session()->local_size() != size_)
    throw InputError("--halo-exchange peer needs every rank on one node (" + std::to_string(session()->local_size()) +
                     " of " + std::to_string(size_) + " ranks are on this one): use --halo-exchange nccl");
  return select_rank_gpu(session()->local_rank(), session()->local_size(), route);
#else
  (void)route;
  return device_option;  // no CUDA backend to run
#endif
}

template <typename T>
std::unique_ptr<HaloExchange<T>> Ranks::make_halo_exchange(const Slab& slab, const Grid& global, bool on_gpu,
                                                           GpuHaloRoute gpu_route) const {
  if (!on_gpu) return std::make_unique<MpiHaloExchange<T>>(slab, global, MPI_COMM_WORLD);
#if HEAT_HAVE_CUDA
  return make_gpu_halo_exchange<T>(slab, global, MPI_COMM_WORLD, gpu_route);
#else
  (void)gpu_route;
  throw std::logic_error("GPU ranks in a build without CUDA");
#endif
}

template <typename T>
Field<T> Ranks::gather_on_root(const Field<T>& box, const Slab& slab, const Grid& global) const {
  if (!joined_mpi_) return box;
  return gather_whole_field(box, slab, global, MPI_COMM_WORLD);
}

template std::unique_ptr<HaloExchange<float>> Ranks::make_halo_exchange(const Slab&, const Grid&, bool, GpuHaloRoute) const;
template std::unique_ptr<HaloExchange<double>> Ranks::make_halo_exchange(const Slab&, const Grid&, bool, GpuHaloRoute) const;
template Field<float> Ranks::gather_on_root(const Field<float>&, const Slab&, const Grid&) const;
template Field<double> Ranks::gather_on_root(const Field<double>&, const Slab&, const Grid&) const;
template Field<float> Ranks::planes_between_snapshot_writers(const Field<float>&, const Slab&, const Grid&,
                                                             const std::vector<std::pair<int, int>>&) const;
template Field<double> Ranks::planes_between_snapshot_writers(const Field<double>&, const Slab&, const Grid&,
                                                              const std::vector<std::pair<int, int>>&) const;

}  // namespace heat
