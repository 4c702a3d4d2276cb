#include <cuda_runtime.h>

#include <algorithm>
#include <climits>

#include "solver/cuda/cuda_check.cuh"
#include "solver/cuda/nonfinite.cuh"

namespace heat {

namespace {

// The answer lives in device memory of this module, so a check allocates nothing; every backend
// runs on the default stream and checks block, so one is enough.
__device__ unsigned long long first_nonfinite_index;

// Grid-stride over the field; a thread that sees a non-finite value takes the smaller index
// with one atomic, so a finite field (the usual case) costs reads only.
template <typename T>
__global__ void find_first_nonfinite(const T* __restrict__ values, unsigned long long count) {
  using Index = unsigned long long;
  Index first = ULLONG_MAX;
  const Index stride = Index(gridDim.x) * blockDim.x;
  for (Index n = Index(blockIdx.x) * blockDim.x + threadIdx.x; n < count; n += stride)
    if (!isfinite(values[n])) {
      first = n;
      break;  // later indices of this thread are larger
    }
  if (first != ULLONG_MAX) atomicMin(&first_nonfinite_index, first);
}

// Blocks per SM at 256 threads: enough resident warps to keep the memory system busy.
constexpr int kThreads = 256;
constexpr int kBlocksPerMultiprocessor = 8;

}  // namespace

template <typename T>
long long first_nonfinite_on_device(const T* values, std::size_t count) {
  if (count == 0) return -1;
  int device = 0, multiprocessors = 0;
  HEAT_CUDA_CHECK(cudaGetDevice(&device));
  HEAT_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  const unsigned long long none = ULLONG_MAX;
  HEAT_CUDA_CHECK(cudaMemcpyToSymbol(first_nonfinite_index, &none, sizeof none));
  const std::size_t blocks_for_all = (count + kThreads - 1) / kThreads;
  const int blocks = int(std::min<std::size_t>(blocks_for_all, std::size_t(multiprocessors) * kBlocksPerMultiprocessor));
  find_first_nonfinite<<<blocks, kThreads>>>(values, count);
  HEAT_CUDA_CHECK_LAUNCH();
  unsigned long long first = none;
  HEAT_CUDA_CHECK(cudaMemcpyFromSymbol(&first, first_nonfinite_index, sizeof first));
  return first == none ? -1 : (long long)first;
}

template long long first_nonfinite_on_device<float>(const float*, std::size_t);
template long long first_nonfinite_on_device<double>(const double*, std::size_t);

}  // namespace heat
