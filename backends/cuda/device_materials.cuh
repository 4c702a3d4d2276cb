// The arrays a CUDA stencil reads of material fields (material_arrays.hpp says which, by bytes
// against arithmetic), uploaded once in set-up, and the view a kernel takes of them.
#pragma once

#include <vector>

#include "backends/cuda/device_buffer.cuh"
#include "core/problem.hpp"
#include "stencils/material_stencil.hpp"

namespace heat {

// (1/C) div(K grad u) as a kernel reads it, radius R: the M of each pair from pair(axis, k, lo),
// the pair k apart whose lower point is `lo` (a flat index); 1/C at the point.
template <int R, typename T>
struct DeviceMaterialView {
  // R > 1: M of the pair (p, p + k along the axis) at p, for axis a and distance k in
  // conductance[a][k - 1]; R = 1: 1/K at every point, M computed where read.
  const T* conductance[3][R];
  const T* inverse_conductivity;
  const T* inverse_heat_capacity;
  long long stride[3];

  __device__ __forceinline__ T pair(int axis, int k, long long lo) const {
    if constexpr (R == 1) {
      // pair_conductance's harmonic mean, which reads 1/K alone at R = 1.
      return pair_conductance<1, T>(
          k, [](int) { return T(0); }, [&](int m) { return inverse_conductivity[lo + m * stride[axis]]; });
    } else {
      return conductance[axis][k - 1][lo];
    }
  }
};

// Owns the arrays on the current device; empty without material fields.
template <typename T>
class DeviceMaterials {
 public:
  DeviceMaterials() = default;
  // p.materials' arrays for p's order: 1/K and 1/C rounded once from double on the host (as the
  // cpu backends round them), or each pair's M made on the device from K in double (set-up's
  // copy, freed on return) and rounded once.
  explicit DeviceMaterials(const Problem& p);
  bool empty() const { return inverse_heat_capacity_.size() == 0; }
  template <int R>
  DeviceMaterialView<R, T> view() const;

 private:
  std::vector<DeviceBuffer<T>> arrays_;  // R > 1: conductance axis by axis, distance by distance; R = 1: 1/K
  DeviceBuffer<T> inverse_heat_capacity_;
  long long stride_[3] = {0, 0, 0};
};

template <typename T>
template <int R>
DeviceMaterialView<R, T> DeviceMaterials<T>::view() const {
  DeviceMaterialView<R, T> v{};
  for (int a = 0; a < 3; ++a) {
    v.stride[a] = stride_[a];
    if constexpr (R > 1)
      for (int k = 1; k <= R; ++k) v.conductance[a][k - 1] = arrays_[std::size_t(a * R + k - 1)].get();
  }
  if constexpr (R == 1) v.inverse_conductivity = arrays_[0].get();
  v.inverse_heat_capacity = inverse_heat_capacity_.get();
  return v;
}

}  // namespace heat
