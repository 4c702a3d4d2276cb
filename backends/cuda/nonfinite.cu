#include <cuda_runtime.h>

#include <climits>
#include <cstdint>

#include "backends/cuda/cuda_check.cuh"
#include "backends/cuda/nonfinite.cuh"
#include "backends/cuda/vector_types.cuh"

namespace heat {

namespace {

// The answer lives in device memory of this module, so a check allocates nothing; checks block
// until their answer is read, so one is enough.
__device__ unsigned long long first_nonfinite_index;

// Vectors each thread loads before it looks at any: independent loads in flight, where a loop
// that tested each value before the next load would wait a memory latency per load.
constexpr int kVectorsInFlight = 4;

// Grid-stride over the field in 16-byte vectors (the scalar values before the first 16-byte
// boundary and after the last whole vector take a thread each). A thread sees its indices in
// increasing order and stops at its first non-finite value, then takes the smaller index with one
// atomic, so a finite field (the usual case) costs reads only.
template <typename T>
__global__ void find_first_nonfinite(const T* __restrict__ values, unsigned long long count) {
  using Index = unsigned long long;
  constexpr int kPer = int(16 / sizeof(T));  // values in one 16-byte load
  using Vector = VectorOf<T, kPer>;
  const Index thread = Index(blockIdx.x) * blockDim.x + threadIdx.x, stride = Index(gridDim.x) * blockDim.x;
  const Index head = min(count, Index((16 - reinterpret_cast<std::uintptr_t>(values) % 16) % 16 / sizeof(T)));
  const Index vectors = (count - head) / kPer, tail = head + vectors * kPer;
  Index first = ULLONG_MAX;
  if (thread < head && !isfinite(values[thread])) first = thread;
  const Vector* const v = reinterpret_cast<const Vector*>(values + head);
  for (Index n = thread; first == ULLONG_MAX && n < vectors; n += kVectorsInFlight * stride) {
    Vector loaded[kVectorsInFlight];
#pragma unroll
    for (int m = 0; m < kVectorsInFlight; ++m) {
      const Index at = n + m * stride;
      if (at < vectors) loaded[m] = v[at];
    }
#pragma unroll
    for (int m = 0; m < kVectorsInFlight; ++m) {
      const Index at = n + m * stride;
      const T* lanes = reinterpret_cast<const T*>(&loaded[m]);
      for (int e = 0; e < kPer && first == ULLONG_MAX && at < vectors; ++e)
        if (!isfinite(lanes[e])) first = head + at * kPer + e;
    }
  }
  if (first == ULLONG_MAX && tail + thread < count && !isfinite(values[tail + thread])) first = tail + thread;
  if (first != ULLONG_MAX) atomicMin(&first_nonfinite_index, first);
}

// Blocks per SM at 256 threads: enough resident warps to keep the memory system busy.
constexpr int kThreads = 256;
constexpr int kBlocksPerMultiprocessor = 8;

// Resets the answer (all bytes 0xff: ULLONG_MAX) and launches the search on `stream`.
template <typename T>
void launch_search(const T* values, std::size_t count, cudaStream_t stream) {
  int device = 0, multiprocessors = 0;
  HEAT_CUDA_CHECK(cudaGetDevice(&device));
  HEAT_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  void* answer = nullptr;
  HEAT_CUDA_CHECK(cudaGetSymbolAddress(&answer, first_nonfinite_index));
  HEAT_CUDA_CHECK(cudaMemsetAsync(answer, 0xff, sizeof(unsigned long long), stream));
  const unsigned blocks = grid_stride_blocks(count, kThreads, unsigned(multiprocessors) * kBlocksPerMultiprocessor);
  find_first_nonfinite<<<blocks, kThreads, 0, stream>>>(values, count);
  HEAT_CUDA_CHECK_LAUNCH();
}

// The answer of a search that has finished.
long long searched_index() {
  unsigned long long first = ULLONG_MAX;
  HEAT_CUDA_CHECK(cudaMemcpyFromSymbol(&first, first_nonfinite_index, sizeof first));
  return first == ULLONG_MAX ? -1 : (long long)first;
}

// A non-blocking stream (the legacy default stream does not wait for it, nor it for that stream)
// that first waits for what the default stream has been given so far; synchronised and destroyed
// on every path out.
class SideStream {
 public:
  SideStream() {
    HEAT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    HEAT_CUDA_CHECK(cudaEventCreateWithFlags(&after_default_, cudaEventDisableTiming));
    HEAT_CUDA_CHECK(cudaEventRecord(after_default_, 0));
    HEAT_CUDA_CHECK(cudaStreamWaitEvent(stream_, after_default_, 0));
  }
  SideStream(const SideStream&) = delete;
  SideStream& operator=(const SideStream&) = delete;
  ~SideStream() {
    cudaStreamSynchronize(stream_);
    cudaEventDestroy(after_default_);
    cudaStreamDestroy(stream_);
  }
  cudaStream_t get() const { return stream_; }
  void synchronize() const { HEAT_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
  cudaEvent_t after_default_ = nullptr;
};

}  // namespace

template <typename T>
long long first_nonfinite_on_device(const T* values, std::size_t count) {
  if (count == 0) return -1;
  launch_search(values, count, 0);
  return searched_index();
}

template <typename T>
long long first_nonfinite_on_device_beside(const T* values, std::size_t count, const std::function<void()>& meanwhile) {
  if (count == 0) {
    meanwhile();
    return -1;
  }
  SideStream side;
  launch_search(values, count, side.get());
  meanwhile();
  side.synchronize();
  return searched_index();
}

template long long first_nonfinite_on_device<float>(const float*, std::size_t);
template long long first_nonfinite_on_device<double>(const double*, std::size_t);
template long long first_nonfinite_on_device_beside<float>(const float*, std::size_t, const std::function<void()>&);
template long long first_nonfinite_on_device_beside<double>(const double*, std::size_t, const std::function<void()>&);

}  // namespace heat
