// Compiled instead of the CUDA sources when the build has no nvcc.
#include "backends/cuda/gpu_info.hpp"
#include "backends/cuda/process_gpu.hpp"
#include "core/errors.hpp"
#include "backends/registry.hpp"

namespace heat {

bool built_with_cuda() { return false; }
int gpu_count() { return 0; }
void ProcessGpu::start_early(int) {}
void ProcessGpu::choose(int device) { throw InputError(find_gpu(device).reason); }
void ProcessGpu::give_back() {}
ProcessGpu& process_gpu() {
  static ProcessGpu gpu;
  return gpu;
}
GpuInfo find_gpu(int device) {
  GpuInfo info;
  info.device = device;
  info.reason = "this build has no CUDA (nvcc was not found at configure time)";
  return info;
}
GpuInfo query_gpu(int device) { return find_gpu(device); }
void register_cuda_backends(BackendRegistry&) {}

}  // namespace heat
