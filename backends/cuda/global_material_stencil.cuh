// The global-memory kernel of material fields (docs/design.md §1, "Materials"): global_stencil.cuh's
// shape (a thread per (x, y) interior point marching along z, the 2r+1 z operands in registers,
// x and y neighbours through L1) applying (1/C) div(K grad u) in flux form
// (stencils/material_stencil.hpp) where the constant kernel applies alpha Lap, with the same Ops
// (value, centre, store: linear_stages.cuh). A kernel of its own, so that the constant path
// launches the very kernels it did before material fields.
#pragma once

#include "backends/cuda/device_materials.cuh"
#include "backends/cuda/global_stencil.cuh"
#include "stencils/material_stencil.hpp"

namespace heat {

template <int R, typename T, typename Op>
__global__ void __launch_bounds__(kGlobalBlockX* kGlobalBlockY)
    global_material_kernel(GridDims d, MaterialWeights<R, T> w, DeviceMaterialView<R, T> m, Op op) {
  const int i = R + blockIdx.x * kGlobalBlockX + threadIdx.x;
  const int j = R + blockIdx.y * kGlobalBlockY + threadIdx.y;
  if (i >= d.nx - R || j >= d.ny - R) return;
  const int k_begin = R + blockIdx.z * kGlobalPlanesPerBlock;
  const int k_end = min(k_begin + kGlobalPlanesPerBlock, d.nz - R);
  T column[2 * R + 1];
  long long p = (long long)(k_begin - R) * d.stride_z + (long long)j * d.stride_y + i;
#pragma unroll
  for (int n = 0; n < 2 * R; ++n) column[n + 1] = op.value(p + n * d.stride_z);
  p += R * d.stride_z;
  for (int k = k_begin; k < k_end; ++k, p += d.stride_z) {
    slide_in(column, op.value(p + R * d.stride_z));
    const T divergence = apply_conductance_stencil<R, T>(
        w, column[R],
        [&](int axis, int dist) { return axis == 2 ? column[R + dist] : op.value(p + dist * m.stride[axis]); },
        [&](int axis, int dist, int lo) { return m.pair(axis, dist, p + lo * m.stride[axis]); });
    op.store(p, m.inverse_heat_capacity[p] * divergence, column[R], op.centre(p));
  }
}

template <int R, typename T, typename Op>
void launch_global_material_stencil(const Grid& g, const MaterialWeights<R, T>& w, const DeviceMaterialView<R, T>& m,
                                    const Op& op) {
  const dim3 block(kGlobalBlockX, kGlobalBlockY);
  const dim3 grid(ceil_div(g.nx - 2 * R, kGlobalBlockX), ceil_div(g.ny - 2 * R, kGlobalBlockY),
                  ceil_div(g.nz - 2 * R, kGlobalPlanesPerBlock));
  global_material_kernel<R, T, Op><<<grid, block>>>(grid_dims(g), w, m, op);
  HEAT_CUDA_CHECK_LAUNCH();
}

}  // namespace heat
