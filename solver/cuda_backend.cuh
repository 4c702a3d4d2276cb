// What every CUDA backend shares: device selection, the memory check before allocation, the
// resident field u, and a step() that blocks and surfaces errors.
#pragma once

#include <string>

#include "solver/backend.hpp"
#include "solver/device_buffer.cuh"
#include "solver/gpu_info.hpp"
#include "solver/nonfinite.cuh"

namespace heat {

// Selects the device and refuses (InputError, exit 2) a run that would not fit in its free memory.
void prepare_device(const BackendOptions& options, std::size_t bytes_needed, const std::string& backend_name);

// The interior of the grid as the kernels see it.
struct GridDims {
  int nx, ny, nz;
  long long stride_y, stride_z;  // elements between neighbours along y and z
};

inline GridDims grid_dims(const Grid& g) {
  return GridDims{g.nx, g.ny, g.nz, (long long)g.nx, (long long)g.nx * g.ny};
}

// A register queue of the planes a z-marching thread holds, oldest first: drops the oldest and
// appends the newest (unrolled, so only register moves remain).
template <typename T, int N>
__device__ __forceinline__ void slide_in(T (&queue)[N], T newest) {
#pragma unroll
  for (int i = 0; i + 1 < N; ++i) queue[i] = queue[i + 1];
  queue[N - 1] = newest;
}

template <typename T>
class CudaBackend : public Backend<T> {
 public:
  void upload(const Field<T>& u) override { u_.copy_from_host(u.data()); }
  void download(Field<T>& u) override { u_.copy_to_host(u.data()); }
  void step(int count) override {
    for (int n = 0; n < count; ++n) step_once();
    HEAT_CUDA_CHECK(cudaDeviceSynchronize());
  }
  // u_ is the current field in every CUDA backend (those that step into a second buffer swap it in).
  long long first_nonfinite() override { return first_nonfinite_on_device(u_.get(), u_.size()); }

 protected:
  CudaBackend(const Problem& p, const BackendOptions& o, std::size_t bytes_needed, const std::string& name)
      : problem_(p) {
    prepare_device(o, bytes_needed, name);
    u_ = DeviceBuffer<T>(p.grid.points());
  }
  // Launches one RK4 step on the default stream; need not synchronise.
  virtual void step_once() = 0;

  Problem problem_;
  DeviceBuffer<T> u_;
};

}  // namespace heat
