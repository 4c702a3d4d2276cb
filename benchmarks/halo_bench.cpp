// halo_bench: the halo exchange alone, as benchmarks/distributed_model.md counts it: one
// exchange of the ghost planes of an n^3 grid split in z over the job's ranks, per order and
// precision. GPU ranks (--memory device, in builds with NCCL) exchange device boxes through
// NCCL, host ranks through MPI. Rank 0 prints the slowest rank's median time per exchange, and
// beside it the exchange's start (connect(): NCCL's first connections; the communicator is made
// once, before the first order).
//
//   mpirun -np 2 -x NCCL_NVLS_ENABLE=0 halo_bench --n 600 --memory device
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "solver/distributed/collective_input.hpp"
#include "solver/distributed/mpi_check.hpp"
#include "solver/distributed/mpi_halo_exchange.hpp"
#include "solver/distributed/mpi_session.hpp"
#include "solver/field.hpp"
#if HEAT_HAVE_NCCL
#include "solver/cuda/device_buffer.cuh"
#include "solver/distributed/gpu_halo_exchange.hpp"
#include "solver/distributed/nccl_halo_exchange.hpp"
#endif

namespace heat {
namespace {

struct Settings {
  int n = 600;
  std::vector<int> orders = {2, 4, 6, 8};
  std::vector<std::string> precisions = {"float", "double"};
  std::string memory = "host";
  std::string scheme = "stage";
  int repeats = 5;
  int batch = 10;  // exchanges per timed batch, so that the closing synchronisation is a small part
};

// Median over repeats of the seconds per exchange, `finish` waiting for the batch to complete.
// The exchange's start (HaloExchange::connect, as a run pays it in set-up) is timed apart.
template <typename T>
double median_seconds_per_exchange(const Settings& s, HaloExchange<T>& halo, T* box, const std::function<void()>& finish,
                                   double& connect_seconds) {
  const auto c0 = std::chrono::steady_clock::now();
  halo.connect();
  connect_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
  auto exchange = [&] { halo.exchange(box); };
  for (int w = 0; w < 3; ++w) exchange();  // warm-up: caches, clocks
  finish();
  std::vector<double> seconds;
  for (int r = 0; r < s.repeats; ++r) {
    HEAT_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    const auto t0 = std::chrono::steady_clock::now();
    for (int b = 0; b < s.batch; ++b) exchange();
    finish();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / s.batch);
  }
  std::nth_element(seconds.begin(), seconds.begin() + seconds.size() / 2, seconds.end());
  return seconds[seconds.size() / 2];
}

template <typename T>
void bench(const Settings& s, const MpiSession& mpi, int order) {
  Grid g;
  g.nx = g.ny = g.nz = s.n;
  const GhostScheme scheme = s.scheme == "step" ? GhostScheme::PerStep : GhostScheme::PerStage;
  const Slab slab = decompose(g, order, mpi.size(), mpi.rank(), scheme);
  double seconds = 0, connect_seconds = 0;
  std::size_t bytes = 0;
  if (s.memory == "host") {
    Field<T> box(g.nx, g.ny, slab.box_planes(), T(1));
    MpiHaloExchange<T> exchange(slab, g, mpi.world());
    bytes = exchange.bytes_sent();
    seconds = median_seconds_per_exchange<T>(s, exchange, box.data(), [] {}, connect_seconds);
  } else {
#if HEAT_HAVE_NCCL
    DeviceBuffer<T> box(std::size_t(g.nx) * std::size_t(g.ny) * std::size_t(slab.box_planes()));
    box.zero();
    NcclCommunicator comm(mpi.world());
    cudaStream_t stream = nullptr;
    HEAT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    {
      NcclHaloExchange<T> exchange(slab, g, comm, stream);
      bytes = exchange.bytes_sent();
      seconds = median_seconds_per_exchange<T>(
          s, exchange, box.get(), [&] { HEAT_CUDA_CHECK(cudaStreamSynchronize(stream)); }, connect_seconds);
    }
    HEAT_CUDA_CHECK(cudaStreamDestroy(stream));
#endif
  }
  double slowest = 0, slowest_connect = 0;
  HEAT_MPI_CHECK(MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, mpi.world()));
  HEAT_MPI_CHECK(MPI_Reduce(&connect_seconds, &slowest_connect, 1, MPI_DOUBLE, MPI_MAX, 0, mpi.world()));
  unsigned long long most_bytes = 0, sent = bytes;
  HEAT_MPI_CHECK(MPI_Reduce(&sent, &most_bytes, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, mpi.world()));
  if (mpi.rank() == 0)
    std::printf("%-6s %5d %6d %7d %12.2f %10.1f %8.1f %10.1f\n", sizeof(T) == 4 ? "float" : "double", order,
                slab.ghost, mpi.size(), double(most_bytes) / 1e6, slowest * 1e6, double(most_bytes) / slowest / 1e9,
                slowest_connect * 1e3);
}

}  // namespace
}  // namespace heat

int main(int argc, char** argv) {
  heat::MpiSession mpi(argc, argv);
  heat::Settings s;
  CLI::App app("halo_bench: the halo exchange alone, per order and precision (run under mpirun)");
  app.add_option("--n", s.n, "grid points per axis")->capture_default_str();
  app.add_option("--orders", s.orders)->capture_default_str();
  app.add_option("--precisions", s.precisions)->check(CLI::IsMember({"float", "double"}))->capture_default_str();
  app.add_option("--memory", s.memory, "host (MPI) or device (NCCL)")->check(CLI::IsMember({"host", "device"}));
  app.add_option("--scheme", s.scheme, "stage: r ghost planes; step: 4r")->check(CLI::IsMember({"stage", "step"}));
  app.add_option("--repeats", s.repeats)->capture_default_str();
  app.add_option("--batch", s.batch)->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return mpi.rank() == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : heat::exit_code::bad_input);
  }
  try {
    // A node short of GPUs is found on some ranks only: every rank must hear of it.
    heat::validate_on_every_rank(mpi.world(), [&] {
#if HEAT_HAVE_NCCL
      if (s.memory == "device") heat::select_rank_gpu(mpi.local_rank(), mpi.local_size(), heat::GpuHaloRoute::Nccl);
#else
      if (s.memory == "device") throw heat::InputError("--memory device needs a build with CUDA, MPI and NCCL");
#endif
    });
    if (mpi.rank() == 0)
      std::printf(
          "# %s memory, n = %d, median of %d batches of %d exchanges, slowest rank\n"
          "%-6s %5s %6s %7s %12s %10s %8s %10s\n",
          s.memory.c_str(), s.n, s.repeats, s.batch, "prec", "order", "ghost", "ranks", "MB/rank", "us", "GB/s",
          "start_ms");
    for (const std::string& precision : s.precisions)
      for (int order : s.orders) {
        if (precision == "float")
          heat::bench<float>(s, mpi, order);
        else
          heat::bench<double>(s, mpi, order);
      }
  } catch (const heat::InputError& e) {
    if (mpi.rank() == 0) std::fprintf(stderr, "halo_bench: %s\n", e.what());
    return heat::exit_code::bad_input;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "halo_bench: rank %d: %s\n", mpi.rank(), e.what());
    heat::abort_job(heat::exit_code::run_failure);
  }
  return 0;
}
