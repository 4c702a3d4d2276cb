#include "backends/cuda/device_materials.cuh"

#include "core/dispatch.hpp"
#include "core/field.hpp"
#include "core/materials.hpp"

namespace heat {
namespace {

constexpr int kThreads = 256;

// M of the pair (p, p + k along `axis`) at every p whose pair lies in the grid (0 elsewhere: no
// interior point reads it), from K in double.
template <int R, typename T>
__global__ void __launch_bounds__(kThreads)
    pair_conductances(const double* __restrict__ k_field, T* __restrict__ out, long long points, long long stride,
                      int axis_points, int k) {
  const long long grid_stride = (long long)gridDim.x * blockDim.x;
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < points; p += grid_stride) {
    const int along = int(p / stride % axis_points);
    if (along + k >= axis_points) {
      out[p] = T(0);
      continue;
    }
    out[p] = T(pair_conductance<R, double>(
        k, [&](int m) { return k_field[p + m * stride]; }, [&](int m) { return 1.0 / k_field[p + m * stride]; }));
  }
}

}  // namespace

template <typename T>
DeviceMaterials<T>::DeviceMaterials(const Problem& p) {
  if (!p.materials) return;
  const Grid& g = p.grid;
  const Materials& m = *p.materials;
  const std::size_t points = g.points();
  const long long strides[3] = {1, (long long)g.nx, (long long)g.nx * g.ny};
  const int counts[3] = {g.nx, g.ny, g.nz};
  for (int a = 0; a < 3; ++a) stride_[a] = strides[a];
  Field<T> inverse = Field<T>::uninitialized(g);
  const auto reciprocal_of = [&](const Field<double>& f) {
    parallel_for_points(points, [&](std::size_t n) { inverse.data()[n] = static_cast<T>(1.0 / f.data()[n]); });
    return DeviceBuffer<T>::copied_from_host(inverse.data(), points);
  };
  inverse_heat_capacity_ = reciprocal_of(m.heat_capacity);
  if (p.order == 2) {
    arrays_.push_back(reciprocal_of(m.conductivity));
    return;
  }
  const DeviceBuffer<double> k_field = DeviceBuffer<double>::copied_from_host(m.conductivity.data(), points);
  with_radius(p.order, [&](auto radius) {
    constexpr int R = decltype(radius)::value;
    for (int a = 0; a < 3; ++a)
      for (int k = 1; k <= R; ++k) {
        arrays_.emplace_back(points);
        pair_conductances<R, T><<<grid_stride_blocks(points, kThreads, 1 << 16), kThreads>>>(
            k_field.get(), arrays_.back().get(), (long long)points, strides[a], counts[a], k);
        HEAT_CUDA_CHECK_LAUNCH();
      }
  });
  // k_field is freed on return: the launches must have read it.
  HEAT_CUDA_CHECK(cudaDeviceSynchronize());
}

template class DeviceMaterials<float>;
template class DeviceMaterials<double>;

}  // namespace heat
