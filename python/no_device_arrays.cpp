// A build without CUDA: no array is in device memory that heatrk4 can step.
#include "python/device_arrays.hpp"
#include "core/errors.hpp"

namespace heat::python {

int device_of(const void*) {
  throw InputError("u is a CUDA array but this heatrk4 was built without CUDA (nvcc not found): pass a NumPy array");
}
void wait_for_caller_stream(std::optional<std::uintptr_t>) {}
CurrentDevice::CurrentDevice(int) {}
CurrentDevice::~CurrentDevice() {}

}  // namespace heat::python
