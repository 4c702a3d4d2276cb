// What the host can learn about CUDA devices, in plain C++ so apps and tests need no nvcc.
#pragma once

#include <cstddef>
#include <string>

namespace heat {

struct GpuInfo {
  bool available = false;
  std::string reason;  // why not, when !available
  int device = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int multiprocessors = 0;
  std::size_t total_bytes = 0, free_bytes = 0;
  std::size_t l2_bytes = 0;
  std::size_t shared_per_block_optin = 0;
};

// True when the build has CUDA backends at all.
bool built_with_cuda();
// Number of usable CUDA devices; any error (no driver, no device) counts as none.
int gpu_count();
// Details of one device, or available == false with the reason; free_bytes stays 0. Makes no
// CUDA context, so a rank that will use another device can ask about the default one for free.
GpuInfo find_gpu(int device);
// find_gpu() and the device's free memory, which makes it this thread's current device (and
// starts its context, a fraction of a second on first use).
GpuInfo query_gpu(int device);

}  // namespace heat
