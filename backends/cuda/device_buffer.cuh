// An RAII array in device memory, or a borrowed view of the caller's (borrow(): never freed here):
// the one owner of device memory in the program.
#pragma once

#include <cstddef>
#include <utility>

#include "backends/cuda/cuda_check.cuh"

namespace heat {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_) HEAT_CUDA_CHECK(cudaMalloc(&data_, count_ * sizeof(T)));
  }
  // `data` stays the caller's: the buffer steps it in place and never frees it.
  static DeviceBuffer borrow(T* data, std::size_t count) {
    DeviceBuffer b;
    b.data_ = data;
    b.count_ = count;
    b.owned_ = false;
    return b;
  }
  // A new array holding the `count` values at `values` (host memory).
  static DeviceBuffer copied_from_host(const T* values, std::size_t count) {
    DeviceBuffer b(count);
    b.copy_from_host(values);
    return b;
  }
  ~DeviceBuffer() {
    if (data_ && owned_) cudaFree(data_);  // no throw from a destructor; a failed free leaks nothing useful
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), count_(std::exchange(o.count_, 0)), owned_(std::exchange(o.owned_, true)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(count_, o.count_);
    std::swap(owned_, o.owned_);
    return *this;
  }

  // Room for at least `count` values, the old ones not kept; false, holding none, where the GPU
  // has no memory for them (a caller with another way to do the work takes it), and any other
  // failure throws. Memory already large enough is kept: a cudaFree would wait for the GPU.
  bool reserve(std::size_t count) {
    if (owned_ && count <= count_) return true;
    *this = DeviceBuffer();
    T* data = nullptr;
    const cudaError_t status = cudaMalloc(&data, count * sizeof(T));
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // answered by the caller's other way, not re-reported by a later check
      return false;
    }
    HEAT_CUDA_CHECK(status);
    data_ = data;
    count_ = count;
    return true;
  }

  T* get() { return data_; }
  const T* get() const { return data_; }
  std::size_t size() const { return count_; }

  void copy_from_host(const T* src) { HEAT_CUDA_CHECK(cudaMemcpy(data_, src, bytes(), cudaMemcpyHostToDevice)); }
  void copy_to_host(T* dst) const { HEAT_CUDA_CHECK(cudaMemcpy(dst, data_, bytes(), cudaMemcpyDeviceToHost)); }
  void copy_from(const DeviceBuffer& other) {
    HEAT_CUDA_CHECK(cudaMemcpy(data_, other.data_, bytes(), cudaMemcpyDeviceToDevice));
  }
  // Fills every byte with 0xff: a NaN in float and double, so an unwritten point shows up.
  void poison() { HEAT_CUDA_CHECK(cudaMemset(data_, 0xff, bytes())); }
  void zero() { HEAT_CUDA_CHECK(cudaMemset(data_, 0, bytes())); }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
  bool owned_ = true;
};

}  // namespace heat
