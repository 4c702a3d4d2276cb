#include <fstream>
#include <map>
#include <mutex>

#include "backends/cuda/cuda_check.cuh"
#include "backends/cuda/gpu_info.hpp"
#include "backends/cuda/process_gpu.hpp"
#include "core/errors.hpp"

namespace heat {

namespace {

// Why cudaGetDeviceCount found no device, in the user's terms; CUDA's own text in parentheses.
// Without the kernel driver the runtime says "CUDA driver version is insufficient for CUDA runtime
// version", which reads as "upgrade the driver" on a machine that has no NVIDIA GPU at all.
std::string no_device_reason(cudaError_t err) {
  const std::string cuda_text = std::string(" (CUDA: ") + cudaGetErrorString(err) + ")";
  const bool driver_loaded = std::ifstream("/proc/driver/nvidia/version").good();
  if (err == cudaErrorNoDevice || (err == cudaErrorInsufficientDriver && !driver_loaded))
    return "no NVIDIA GPU or driver was found" + cuda_text;
  if (err == cudaErrorInsufficientDriver)
    return "the NVIDIA driver is older than this build's CUDA runtime needs" + cuda_text;
  return "no usable CUDA device" + cuda_text;
}

}  // namespace

bool built_with_cuda() { return true; }

int gpu_count() {
  int count = 0;
  // Without a driver this fails ("driver version is insufficient"): that means no GPU.
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

GpuInfo find_gpu(int device) {
  GpuInfo info;
  info.device = device;
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    info.reason = no_device_reason(err);
    return info;
  }
  if (device < 0 || device >= count) {
    info.reason = "--device " + std::to_string(device) + " does not exist: this machine has " +
                  std::to_string(count) + " CUDA device(s), numbered from 0";
    return info;
  }
  // A run asks several times (the plan, the summary, each backend's memory check); the
  // properties never change, and reading all of them is one of set-up's slower CUDA calls.
  static std::mutex guard;
  static std::map<int, cudaDeviceProp> known;
  std::lock_guard<std::mutex> lock(guard);
  auto found = known.find(device);
  if (found == known.end()) {
    cudaDeviceProp read{};
    HEAT_CUDA_CHECK(cudaGetDeviceProperties(&read, device));
    found = known.emplace(device, read).first;
  }
  const cudaDeviceProp& prop = found->second;
  info.available = true;
  info.total_bytes = prop.totalGlobalMem;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  info.l2_bytes = std::size_t(prop.l2CacheSize);
  info.shared_per_block_optin = prop.sharedMemPerBlockOptin;
  return info;
}

GpuInfo query_gpu(int device) {
  GpuInfo info = find_gpu(device);
  if (!info.available) return info;
  HEAT_CUDA_CHECK(cudaSetDevice(device));
  HEAT_CUDA_CHECK(cudaMemGetInfo(&info.free_bytes, &info.total_bytes));
  return info;
}

namespace {
void release_device(int device) {
  HEAT_CUDA_CHECK(cudaSetDevice(device));
  HEAT_CUDA_CHECK(cudaDeviceReset());
}
}  // namespace

void ProcessGpu::start_early(int device) {
  if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  started_ = device;
}

void ProcessGpu::choose(int device) {
  if (const GpuInfo gpu = find_gpu(device); !gpu.available) throw InputError(gpu.reason);
  if (started_ >= 0 && started_ != device) release_device(started_);
  started_ = -1;
  HEAT_CUDA_CHECK(cudaSetDevice(device));
  chosen_ = device;
}

void ProcessGpu::give_back() {
  for (int* device : {&started_, &chosen_}) {
    if (*device >= 0) release_device(*device);
    *device = -1;
  }
}

ProcessGpu& process_gpu() {
  static ProcessGpu gpu;
  return gpu;
}

}  // namespace heat
