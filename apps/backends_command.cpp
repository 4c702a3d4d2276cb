// heatrk4 backends: what this build has, what this machine can run, and the GPU.
#include <omp.h>

#include <cstdio>

#include "apps/commands.hpp"
#include "apps/run_options.hpp"
#include "core/errors.hpp"
#include "backends/cuda/gpu_info.hpp"
#include "backends/registry.hpp"

namespace heat {
namespace {

// The entry's choice for each order and precision: build data, the same with or without a GPU.
void print_defaults(const BackendEntry& e) {
  std::printf("\n%s: the default of each order and precision (a default build compiles only these)\n", e.name.c_str());
  std::printf("%-5s %-9s %-26s %-7s %-6s %-24s %s\n", "order", "precision", "configuration", "kernels", "arrays",
              "kernel file", "why");
  for (const auto& d : e.defaults)
    std::printf("%-5d %-9s %-26s %-7d %-6d %-24s %s\n", d.order, precision_name(d.precision), d.configuration.c_str(),
                d.kernels_per_step, d.arrays_per_point, d.kernel_file.c_str(), d.why.c_str());
}

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
  for (const auto& e : default_registry().entries())
    if (!e.defaults.empty()) print_defaults(e);
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
