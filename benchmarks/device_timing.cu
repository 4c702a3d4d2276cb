#include <algorithm>
#include <vector>

#include "benchmarks/device_timing.hpp"
#include "backends/cuda/device_buffer.cuh"

namespace heat::bench {

double time_with_events_ms(const std::function<void()>& work) {
  cudaEvent_t start, stop;
  HEAT_CUDA_CHECK(cudaEventCreate(&start));
  HEAT_CUDA_CHECK(cudaEventCreate(&stop));
  HEAT_CUDA_CHECK(cudaEventRecord(start));
  work();
  HEAT_CUDA_CHECK(cudaEventRecord(stop));
  HEAT_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  HEAT_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  HEAT_CUDA_CHECK(cudaEventDestroy(start));
  HEAT_CUDA_CHECK(cudaEventDestroy(stop));
  return ms;
}

double copy_bandwidth(std::size_t bytes, int repeats) {
  DeviceBuffer<unsigned char> a(bytes), b(bytes);
  HEAT_CUDA_CHECK(cudaMemset(a.get(), 1, bytes));
  std::vector<double> ms;
  for (int r = 0; r <= repeats; ++r) {
    const double t = time_with_events_ms([&] { b.copy_from(a); });
    if (r > 0) ms.push_back(t);  // the first copy is the warm-up
  }
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return 2.0 * double(bytes) / (ms[ms.size() / 2] * 1e-3);
}

}  // namespace heat::bench
