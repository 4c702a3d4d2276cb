// Compiled instead of the CUDA sources when the build has no nvcc.
#include "backends/cuda/gpu_info.hpp"
#include "backends/registry.hpp"

namespace heat {

bool built_with_cuda() { return false; }
int gpu_count() { return 0; }
void release_device(int) {}
GpuInfo find_gpu(int device) {
  GpuInfo info;
  info.device = device;
  info.reason = "this build has no CUDA (nvcc was not found at configure time)";
  return info;
}
GpuInfo query_gpu(int device) { return find_gpu(device); }
void register_cuda_backends(BackendRegistry&) {}

}  // namespace heat
