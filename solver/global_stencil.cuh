// The global-memory stencil kernel that naive and reuse share: one thread per (x, y) point of
// the interior, marching along z so the planes it needs stay warm in L1.
// An Op supplies value(p), the operand of the Laplacian at flat index p, and
// store(p, lap), what to do with alpha*Lap at an interior point.
#pragma once

#include "solver/cuda_backend.cuh"
#include "stencils/stencil.hpp"

namespace heat {

// 32 threads along x keep each warp's loads one coalesced row; 8 rows give 256 threads.
constexpr int kGlobalBlockX = 32;
constexpr int kGlobalBlockY = 8;
// Planes per block along z: enough work per thread to hide the start-up of the march, and
// enough blocks (nz / 32 per tile column) to fill every SM at 600^3.
constexpr int kGlobalPlanesPerBlock = 32;

template <int R, typename T, typename Op>
__global__ void __launch_bounds__(kGlobalBlockX * kGlobalBlockY)
    global_stencil_kernel(GridDims d, StencilWeights<R, T> w, Op op) {
  const int i = R + blockIdx.x * kGlobalBlockX + threadIdx.x;
  const int j = R + blockIdx.y * kGlobalBlockY + threadIdx.y;
  if (i >= d.nx - R || j >= d.ny - R) return;
  const int k_begin = R + blockIdx.z * kGlobalPlanesPerBlock;
  const int k_end = min(k_begin + kGlobalPlanesPerBlock, d.nz - R);
  const long long stride[3] = {1, d.stride_y, d.stride_z};
  for (int k = k_begin; k < k_end; ++k) {
    const long long p = k * d.stride_z + j * d.stride_y + i;
    const T lap = apply_stencil<R, T>(w, op.value(p), [&](int axis, int dist) {
      return op.value(p + dist * stride[axis]) + op.value(p - dist * stride[axis]);
    });
    op.store(p, lap);
  }
}

template <int R, typename T, typename Op>
void launch_global_stencil(const Grid& g, const StencilWeights<R, T>& w, const Op& op) {
  const int inner_x = g.nx - 2 * R, inner_y = g.ny - 2 * R, inner_z = g.nz - 2 * R;
  const dim3 block(kGlobalBlockX, kGlobalBlockY);
  const dim3 grid(ceil_div(inner_x, kGlobalBlockX), ceil_div(inner_y, kGlobalBlockY),
                  ceil_div(inner_z, kGlobalPlanesPerBlock));
  global_stencil_kernel<R, T, Op><<<grid, block>>>(grid_dims(g), w, op);
  HEAT_CUDA_CHECK_LAUNCH();
}

// Runs body(p) for every interior point: the pointwise passes (the RK4 combination).
template <typename T, typename Body>
__global__ void interior_pointwise_kernel(GridDims d, int r, Body body) {
  const int i = r + blockIdx.x * blockDim.x + threadIdx.x;
  const int j = r + blockIdx.y * blockDim.y + threadIdx.y;
  const int k = r + blockIdx.z;
  if (i >= d.nx - r || j >= d.ny - r) return;
  body(k * d.stride_z + j * d.stride_y + i);
}

template <typename T, typename Body>
void launch_interior_pointwise(const Grid& g, int r, const Body& body) {
  const dim3 block(kGlobalBlockX, kGlobalBlockY);
  const dim3 grid(ceil_div(g.nx - 2 * r, kGlobalBlockX), ceil_div(g.ny - 2 * r, kGlobalBlockY), g.nz - 2 * r);
  interior_pointwise_kernel<T, Body><<<grid, block>>>(grid_dims(g), r, body);
  HEAT_CUDA_CHECK_LAUNCH();
}

}  // namespace heat

namespace heat {

// A stage field starts as 0 on the boundary layer (where k is zero by definition and no kernel
// writes) and NaN on the interior, so a point that a stage kernel fails to write poisons u.
template <typename T>
__global__ void prepare_stage_field_kernel(T* k, GridDims d, int r) {
  const long long total = (long long)d.nz * d.stride_z;
  for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < total; p += (long long)gridDim.x * blockDim.x) {
    const int i = int(p % d.nx), j = int((p / d.nx) % d.ny), kz = int(p / d.stride_z);
    const bool interior = i >= r && i < d.nx - r && j >= r && j < d.ny - r && kz >= r && kz < d.nz - r;
    k[p] = interior ? T(NAN) : T(0);
  }
}

template <typename T>
void prepare_stage_field(DeviceBuffer<T>& k, const Grid& g, int r) {
  prepare_stage_field_kernel<T><<<1024, 256>>>(k.get(), grid_dims(g), r);
  HEAT_CUDA_CHECK_LAUNCH();
}

}  // namespace heat
