// halo_bench: the halo exchange alone, as benchmarks/distributed_model.md counts it: one
// exchange of the ghost planes of an n^3 grid split in z over the job's ranks, per order and
// precision. The exchange is the one a run's ranks make (Ranks::make_halo_exchange): GPU ranks
// (--memory device) exchange device boxes by --halo-exchange's route (the copy engines, NCCL or
// host memory, as heatrk4's ranks do), host ranks through MPI. Rank 0 prints the slowest rank's
// median time per exchange, and beside it the exchange's start (connect(): NCCL's communicator
// and first connections, the peer route's handles, MPI's first contact), which a run pays in
// set-up.
//
//   mpirun -np 2 -x NCCL_NVLS_ENABLE=0 halo_bench --n 600 --memory device --halo-exchange peer
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parallel/ranks.hpp"
#include "core/errors.hpp"
#include "core/field.hpp"
#include "core/seconds.hpp"
#if HEAT_HAVE_CUDA
#include "backends/cuda/cuda_check.cuh"
#include "backends/cuda/device_buffer.cuh"
#endif

namespace heat {
namespace {

struct Settings {
  int n = 600;
  std::vector<int> orders = {2, 4, 6, 8};
  std::vector<std::string> precisions = {"float", "double"};
  std::string memory = "host";
  std::string scheme = "stage";
  std::string route = "peer";  // for device memory: gpu_halo_route_name's names
  int repeats = 5;
  int batch = 10;  // exchanges per timed batch, so that the closing synchronisation is a small part
};

// Median over repeats of the seconds per exchange of `box`, `finish` waiting for a batch to
// complete; `connect_seconds`: the exchange's start, timed apart.
template <typename T>
double median_seconds_per_exchange(const Settings& s, const Ranks& ranks, HaloExchange<T>& halo, T* box,
                                   const std::function<void()>& finish, double& connect_seconds) {
  connect_seconds = seconds_of([&] { halo.connect(); });
  for (int w = 0; w < 3; ++w) halo.exchange(box);  // warm-up: caches, clocks
  finish();
  std::vector<double> seconds;
  for (int r = 0; r < s.repeats; ++r) {
    ranks.largest({0.0});  // every rank starts the batch together
    seconds.push_back(seconds_of([&] {
                        for (int b = 0; b < s.batch; ++b) halo.exchange(box);
                        finish();
                      }) /
                      s.batch);
  }
  std::nth_element(seconds.begin(), seconds.begin() + seconds.size() / 2, seconds.end());
  return seconds[seconds.size() / 2];
}

GpuHaloRoute halo_route(const Settings& s) {
  if (const std::optional<GpuHaloRoute> route = gpu_halo_route_named(s.route)) return *route;
  throw InputError("--halo-exchange " + s.route + " is not a GPU route");
}

template <typename T>
void bench(const Settings& s, const Ranks& ranks, int order) {
  Grid g;
  g.nx = g.ny = g.nz = s.n;
  const GhostScheme scheme = s.scheme == "step"   ? GhostScheme::PerStep
                             : s.scheme == "half" ? GhostScheme::PerHalfStep
                                                  : GhostScheme::PerStage;
  const Slab slab = decompose(g, order, ranks.size(), ranks.rank(), scheme);
  const bool device = s.memory == "device";
  auto exchange = ranks.make_halo_exchange<T>(slab, g, device, halo_route(s));
  double seconds = 0, connect_seconds = 0;
  if (!device) {
    Field<T> box(g.nx, g.ny, slab.box_planes(), T(1));
    seconds = median_seconds_per_exchange<T>(
        s, ranks, *exchange, box.data(), [] {}, connect_seconds);
  } else {
#if HEAT_HAVE_CUDA
    DeviceBuffer<T> box(std::size_t(g.nx) * std::size_t(g.ny) * std::size_t(slab.box_planes()));
    box.zero();
    // The exchange runs on a stream of its own, in the legacy default stream's order.
    seconds = median_seconds_per_exchange<T>(
        s, ranks, *exchange, box.get(), [] { HEAT_CUDA_CHECK(cudaDeviceSynchronize()); }, connect_seconds);
#endif
  }
  const std::vector<double> slowest = ranks.largest({seconds, connect_seconds, double(exchange->bytes_sent())});
  if (ranks.is_root())
    std::printf("%-6s %5d %6d %7d %12.2f %10.1f %8.1f %10.1f\n", sizeof(T) == 4 ? "float" : "double", order, slab.ghost,
                ranks.size(), slowest[2] / 1e6, slowest[0] * 1e6, slowest[2] / slowest[0] / 1e9, slowest[1] * 1e3);
}

}  // namespace
}  // namespace heat

int main(int argc, char** argv) {
  heat::Ranks ranks(argc, argv);
  heat::Settings s;
  CLI::App app("halo_bench: the halo exchange alone, per order and precision (run under mpirun)");
  app.add_option("--n", s.n, "grid points per axis")->capture_default_str();
  app.add_option("--orders", s.orders)->capture_default_str();
  app.add_option("--precisions", s.precisions)->check(CLI::IsMember({"float", "double"}))->capture_default_str();
  app.add_option("--memory", s.memory, "host (MPI) or device (--halo-exchange)")
      ->check(CLI::IsMember({"host", "device"}));
  app.add_option("--halo-exchange", s.route, "device memory's route: peer, nccl or host")
      ->check(CLI::IsMember({"peer", "nccl", "host"}))
      ->capture_default_str();
  app.add_option("--scheme", s.scheme, "stage: r ghost planes; half: 2r; step: 4r")
      ->check(CLI::IsMember({"stage", "half", "step"}));
  app.add_option("--repeats", s.repeats)->capture_default_str();
  app.add_option("--batch", s.batch)->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return ranks.is_root() ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : heat::exit_code::bad_input);
  }
  try {
    // A node short of GPUs is found on some ranks only: every rank must hear of it.
    ranks.validate_everywhere([&] {
      if (ranks.size() < 2) throw heat::InputError("halo_bench needs at least 2 ranks: run it under mpirun -np N");
#if HEAT_HAVE_CUDA
      if (s.memory == "device") ranks.select_gpu(0, heat::halo_route(s));
#else
      if (s.memory == "device") throw heat::InputError("--memory device needs a build with CUDA");
#endif
    });
    if (ranks.is_root())
      std::printf(
          "# %s memory%s, n = %d, median of %d batches of %d exchanges, slowest rank\n"
          "%-6s %5s %6s %7s %12s %10s %8s %10s\n",
          s.memory.c_str(), s.memory == "device" ? (" by " + s.route).c_str() : "", s.n, s.repeats, s.batch, "prec",
          "order", "ghost", "ranks", "MB/rank", "us", "GB/s", "start_ms");
    for (const std::string& precision : s.precisions)
      for (int order : s.orders) {
        if (precision == "float")
          heat::bench<float>(s, ranks, order);
        else
          heat::bench<double>(s, ranks, order);
      }
  } catch (const heat::InputError& e) {
    if (ranks.is_root()) std::fprintf(stderr, "halo_bench: %s\n", e.what());
    return heat::exit_code::bad_input;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "halo_bench: rank %d: %s\n", ranks.rank(), e.what());
    return ranks.end_every_rank(heat::exit_code::run_failure);
  }
  return 0;
}
