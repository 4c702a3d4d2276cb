// A CUDA stream of the highest priority that does not wait for the legacy default stream: for an
// exchange whose few blocks (NCCL's, the faces' packing) must get SMs before the waiting blocks of
// the kernels that run beside it, ordering itself with the kernels by events.
#pragma once

#include <cuda_runtime.h>

#include "backends/cuda/cuda_check.cuh"

namespace heat {

class UrgentStream {
 public:
  UrgentStream() {
    int least = 0, greatest = 0;
    HEAT_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    HEAT_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest));
  }
  ~UrgentStream() { cudaStreamDestroy(stream_); }
  UrgentStream(const UrgentStream&) = delete;
  UrgentStream& operator=(const UrgentStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace heat
