// heatrk4 backends: what this build has, what this machine can run, and the GPU.
#include <omp.h>

#include <cstdio>

#include "apps/commands.hpp"
#include "apps/run_options.hpp"
#include "solver/errors.hpp"
#include "solver/cuda/gpu_info.hpp"
#include "solver/registry.hpp"

namespace heat {
namespace {

int list_backends(int device) {
  require_device_ordinal(device);
  const GpuInfo gpu = query_gpu(device);
  std::printf("%-13s %-11s %s\n", "backend", "available", "what it is");
  for (const auto& e : default_registry().entries()) {
    const bool ok = !e.uses_cuda || gpu.available;
    std::printf("%-13s %-11s %s\n", e.name.c_str(), ok ? "yes" : "no", e.description.c_str());
  }
  std::printf("%-13s %-11s %s\n", "auto", "yes", gpu.available ? "-> tiled (a CUDA GPU is present)" : "-> cpu (no CUDA GPU)");
  std::printf("\nhost: %d OpenMP threads\n", omp_get_max_threads());
  if (!built_with_cuda()) std::printf("gpu:  none: %s\n", gpu.reason.c_str());
  else if (!gpu.available) std::printf("gpu:  none usable: %s\n", gpu.reason.c_str());
  else
    std::printf("gpu:  device %d: %s, compute capability %d.%d, %d SMs, %.1f GiB (%.1f GiB free), L2 %.0f MB\n",
                gpu.device, gpu.name.c_str(), gpu.cc_major, gpu.cc_minor, gpu.multiprocessors,
                gpu.total_bytes / 1073741824.0, gpu.free_bytes / 1073741824.0, gpu.l2_bytes / 1e6);
  return exit_code::ok;
}

}  // namespace

void add_backends_command(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("backends", "list backends, their availability, and the GPU");
  auto device = std::make_shared<int>(0);
  sub->add_option("--device", *device, "CUDA device ordinal to describe");
  sub->callback([&action, device] { action = [device] { return list_backends(*device); }; });
}

}  // namespace heat
