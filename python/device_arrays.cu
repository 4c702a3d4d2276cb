#include "python/device_arrays.hpp"

#include <string>

#include "backends/cuda/cuda_check.cuh"
#include "core/errors.hpp"

namespace heat::python {

int device_of(const void* data, const std::string& name) {
  cudaPointerAttributes attributes{};
  const cudaError_t status = cudaPointerGetAttributes(&attributes, data);
  if (status != cudaSuccess) {
    cudaGetLastError();  // not sticky: clear it so later calls do not report it
    throw InputError(name + "'s __cuda_array_interface__ gives an address CUDA does not know: " +
                     cudaGetErrorString(status));
  }
  if (attributes.type != cudaMemoryTypeDevice && attributes.type != cudaMemoryTypeManaged)
    throw InputError(name + "'s __cuda_array_interface__ gives host memory: pass device memory, or a NumPy array");
  return attributes.device;
}

void wait_for_caller_stream(std::optional<std::uintptr_t> stream) {
  if (!stream || *stream == 1) return;  // none given, or the very stream the backends use
  const cudaStream_t caller = *stream == 2 ? cudaStreamPerThread : reinterpret_cast<cudaStream_t>(*stream);
  cudaEvent_t queued = nullptr;
  HEAT_CUDA_CHECK(cudaEventCreateWithFlags(&queued, cudaEventDisableTiming));
  const cudaError_t recorded = cudaEventRecord(queued, caller);
  const cudaError_t waited = recorded == cudaSuccess ? cudaStreamWaitEvent(0, queued, 0) : recorded;
  cudaEventDestroy(queued);  // released once the wait is done with it
  HEAT_CUDA_CHECK(waited);
}

void copy_to_host(void* host, const void* data, std::size_t bytes, std::optional<std::uintptr_t> stream) {
  wait_for_caller_stream(stream);
  HEAT_CUDA_CHECK(cudaMemcpyAsync(host, data, bytes, cudaMemcpyDeviceToHost, 0));
  HEAT_CUDA_CHECK(cudaStreamSynchronize(0));
}

CurrentDevice::CurrentDevice(int device) {
  HEAT_CUDA_CHECK(cudaGetDevice(&previous_));
  HEAT_CUDA_CHECK(cudaSetDevice(device));
}

CurrentDevice::~CurrentDevice() {
  if (previous_ >= 0) cudaSetDevice(previous_);  // no throw from a destructor
}

}  // namespace heat::python
