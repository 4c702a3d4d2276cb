// A build without CUDA: no array is in device memory that heatrk4 can step.
#include "python/device_arrays.hpp"
#include "core/errors.hpp"

namespace heat::python {

int device_of(const void*, const std::string& name) {
  throw InputError(name + " is a CUDA array but this heatrk4 was built without CUDA (nvcc not found): pass a NumPy array");
}
void wait_for_caller_stream(std::optional<std::uintptr_t>) {}
// Never reached: device_of refuses every CUDA array first.
void copy_to_host(void*, const void*, std::size_t, std::optional<std::uintptr_t>) {
  throw InputError("this heatrk4 was built without CUDA: it reads no CUDA array");
}
CurrentDevice::CurrentDevice(int) {}
CurrentDevice::~CurrentDevice() {}

}  // namespace heat::python
