#include "solver/cuda_backend.cuh"
#include "solver/errors.hpp"

namespace heat {

void prepare_device(const BackendOptions& options, std::size_t bytes_needed, const std::string& backend_name) {
  const GpuInfo info = query_gpu(options.device);
  if (!info.available) throw InputError("backend '" + backend_name + "' needs a CUDA GPU: " + info.reason);
  HEAT_CUDA_CHECK(cudaSetDevice(options.device));
  if (bytes_needed > info.free_bytes)
    throw InputError("backend '" + backend_name + "' needs " + std::to_string(bytes_needed) +
                     " bytes of GPU memory but " + info.name + " has " + std::to_string(info.free_bytes) +
                     " bytes free: use a smaller grid (a --precision double run needs about twice a float one's memory)");
}

}  // namespace heat
