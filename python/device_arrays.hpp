// What heatrk4.step needs of the CUDA runtime for a caller's device array, kept out of the
// module's C++ so that a build without CUDA compiles it too (no_device_arrays.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace heat::python {

// The CUDA device that holds `data`, the array `name`'s; InputError naming it where it is not
// device memory (or the build has no CUDA).
int device_of(const void* data, const std::string& name);

// Orders the legacy default stream, where the backends run, after the work queued so far on the
// caller's stream: __cuda_array_interface__'s "stream" (1: the legacy default stream itself, 2:
// the per-thread default stream, else a cudaStream_t). Absent: nothing to wait for.
void wait_for_caller_stream(std::optional<std::uintptr_t> stream);

// Copies `bytes` of device memory at `data` to `host` once the work queued so far on the caller's
// `stream` (as wait_for_caller_stream takes it) is done; returns when the copy has landed.
void copy_to_host(void* host, const void* data, std::size_t bytes, std::optional<std::uintptr_t> stream);

// Makes `device` current for its lifetime and then restores the caller's (PyTorch and CuPy keep
// their own idea of the current device).
class CurrentDevice {
 public:
  explicit CurrentDevice(int device);
  ~CurrentDevice();
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace heat::python
