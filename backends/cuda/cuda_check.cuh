// Error checking for every CUDA call and launch: file, line, expression and CUDA's message,
// thrown as RunError so the application exits with code 3.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "core/errors.hpp"

namespace heat {

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line) {
  throw RunError(std::string("CUDA error at ") + file + ":" + std::to_string(line) + ": " + expr + ": " +
                 cudaGetErrorString(err));
}

}  // namespace heat

#define HEAT_CUDA_CHECK(expr)                                                       \
  do {                                                                              \
    const cudaError_t heat_cuda_status_ = (expr);                                   \
    if (heat_cuda_status_ != cudaSuccess)                                           \
      ::heat::throw_cuda_error(heat_cuda_status_, #expr, __FILE__, __LINE__);       \
  } while (0)

// After a kernel launch: launch-configuration errors surface here, execution errors at the
// next synchronising call.
#define HEAT_CUDA_CHECK_LAUNCH() HEAT_CUDA_CHECK(cudaGetLastError())

namespace heat {
constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Blocks for a grid-stride loop over `count` items at `threads` a block: a thread per item where
// that takes at most `most` blocks, else `most` blocks whose threads take several items each.
constexpr unsigned grid_stride_blocks(unsigned long long count, int threads, unsigned long long most) {
  const unsigned long long for_all = (count + threads - 1) / threads;
  return unsigned(for_all < most ? for_all : most);
}
}  // namespace heat
