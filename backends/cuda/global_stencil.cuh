// The global-memory stencil kernel that naive and reuse share: one thread per (x, y) point of
// the interior, marching along z with its z neighbours in registers; x and y neighbours come
// through L1, where the warps of the block share them.
// An Operator applies the stencil at flat index p from the point's z column and value_at(q), the
// operand at any other point: alpha*Lap (ConstantLaplacian) or the flux form of material fields
// (global_material_stencil.cuh). An Op supplies value(p), the operand at flat index p, centre(p),
// the other arrays its result needs there, and store(p, lap, value, centre), what to do with the
// operator's result at an interior point (linear_stages.cuh).
#pragma once

#include <algorithm>

#include "backends/cuda/cuda_backend.cuh"
#include "stencils/stencil.hpp"

namespace heat {

// 32 threads along x keep each warp's loads one coalesced row. The rows per block trade the y
// halo re-read through L1 (2r rows per block) against blocks in flight: 16 rows beat 4 and 8 at
// order 8.
constexpr int kGlobalBlockX = 32;
constexpr int kGlobalBlockY = 16;
// Planes per block along z: long enough that priming the z column (2r loads) is a small
// share of the march, short enough that 600^3 still gives ~14k blocks to spread over the SMs.
constexpr int kGlobalPlanesPerBlock = 64;

// alpha*Lap with constant coefficients.
template <int R, typename T>
struct ConstantLaplacian {
  StencilWeights<R, T> w;
  template <typename ValueAt>
  __device__ T operator()(const GridDims& d, long long p, const T (&column)[2 * R + 1], ValueAt&& value_at) const {
    return apply_stencil<R, T>(w, column[R], [&](int axis, int dist) {
      if (axis == 2) return column[R + dist] + column[R - dist];
      const long long s = axis == 0 ? 1 : d.stride_y;
      return value_at(p + dist * s) + value_at(p - dist * s);
    });
  }
};

template <int R, typename T, typename Operator, typename Op>
__global__ void __launch_bounds__(kGlobalBlockX* kGlobalBlockY)
    global_stencil_kernel(GridDims d, Operator apply, Op op) {
  const int i = R + blockIdx.x * kGlobalBlockX + threadIdx.x;
  const int j = R + blockIdx.y * kGlobalBlockY + threadIdx.y;
  if (i >= d.nx - R || j >= d.ny - R) return;
  const int k_begin = R + blockIdx.z * kGlobalPlanesPerBlock;
  const int k_end = min(k_begin + kGlobalPlanesPerBlock, d.nz - R);
  // The 2R+1 operands along z that the current point needs, slid by one plane per iteration:
  // each is loaded (and, for naive, formed) once per thread instead of 2R+1 times.
  T column[2 * R + 1];
  long long p = (long long)(k_begin - R) * d.stride_z + (long long)j * d.stride_y + i;
#pragma unroll
  for (int m = 0; m < 2 * R; ++m) column[m + 1] = op.value(p + m * d.stride_z);
  p += R * d.stride_z;
  for (int k = k_begin; k < k_end; ++k, p += d.stride_z) {
    slide_in(column, op.value(p + R * d.stride_z));
    const T lap = apply(d, p, column, [&](long long q) { return op.value(q); });
    op.store(p, lap, column[R], op.centre(p));
  }
}

// The kernel over g's interior with `apply` as its operator.
template <int R, typename T, typename Operator, typename Op>
void launch_global_operator(const Grid& g, const Operator& apply, const Op& op) {
  const int inner_x = g.nx - 2 * R, inner_y = g.ny - 2 * R, inner_z = g.nz - 2 * R;
  const dim3 block(kGlobalBlockX, kGlobalBlockY);
  const dim3 grid(ceil_div(inner_x, kGlobalBlockX), ceil_div(inner_y, kGlobalBlockY),
                  ceil_div(inner_z, kGlobalPlanesPerBlock));
  global_stencil_kernel<R, T, Operator, Op><<<grid, block>>>(grid_dims(g), apply, op);
  HEAT_CUDA_CHECK_LAUNCH();
}

template <int R, typename T, typename Op>
void launch_global_stencil(const Grid& g, const StencilWeights<R, T>& w, const Op& op) {
  launch_global_operator<R, T>(g, ConstantLaplacian<R, T>{w}, op);
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

template <typename T>
struct PoisonPoint {
  T* field;
  __device__ void operator()(long long p) const { field[p] = T(NAN); }
};

// NaN on the interior of a field whose boundary layer is left as it is: a point that no kernel
// writes shows up in the first step's result.
template <typename T>
void poison_interior(DeviceBuffer<T>& field, const Grid& g, int r) {
  launch_interior_pointwise<T>(g, r, PoisonPoint<T>{field.get()});
}

// The fields that receive a copy of another's boundary layer (copy_boundary_layer_to).
template <typename T>
struct BoundaryTargets {
  static constexpr int kMost = 2;
  T* to[kMost];
  int count;
  __device__ void store(long long p, T value) const {
    for (int f = 0; f < count; ++f) to[f][p] = value;
  }
};

// The boundary layer (the points within r of a face) as rows of x: `whole` rows lie in it
// entirely (the r planes at each z face, the r rows at each y face of the planes between), and
// every other row has r points at each end. The whole rows are copied a row per block row,
// coalesced; the ends a point per thread, so that no thread idles on an interior row.
template <typename T>
__global__ void copy_whole_boundary_rows(GridDims d, int r, const T* from, BoundaryTargets<T> targets) {
  const long long face_plane_rows = 2LL * r * d.ny, whole = face_plane_rows + 2LL * r * (d.nz - 2 * r);
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= d.nx) return;
  for (long long w = blockIdx.y; w < whole; w += gridDim.y) {
    int j, k;
    if (w < face_plane_rows) {
      const int plane = int(w / d.ny);
      k = plane < r ? plane : d.nz - 2 * r + plane;
      j = int(w % d.ny);
    } else {
      const long long v = w - face_plane_rows;
      const int e = int(v % (2 * r));
      k = r + int(v / (2 * r));
      j = e < r ? e : d.ny - 2 * r + e;
    }
    const long long p = k * d.stride_z + j * d.stride_y + i;
    targets.store(p, from[p]);
  }
}

template <typename T>
__global__ void copy_boundary_row_ends(GridDims d, int r, const T* from, BoundaryTargets<T> targets) {
  const long long inner_rows = (long long)(d.ny - 2 * r) * (d.nz - 2 * r), ends = inner_rows * 2 * r;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long n = (long long)blockIdx.x * blockDim.x + threadIdx.x; n < ends; n += stride) {
    const long long row = n / (2 * r);
    const int e = int(n % (2 * r));
    const int j = r + int(row % (d.ny - 2 * r)), k = r + int(row / (d.ny - 2 * r));
    const int i = e < r ? e : d.nx - 2 * r + e;
    const long long p = k * d.stride_z + j * d.stride_y + i;
    targets.store(p, from[p]);
  }
}

// Copies from's boundary layer into every target field, reading it once.
template <typename T>
void copy_boundary_layer_to(const DeviceBuffer<T>& from, const BoundaryTargets<T>& targets, const Grid& g, int r) {
  if (g.nx <= 2 * r || g.ny <= 2 * r || g.nz <= 2 * r) throw RunError("a grid without interior has no boundary layer to copy");
  constexpr int kThreads = 256;
  constexpr long long kMostBlocksY = 65535;  // CUDA's limit on gridDim.y
  const long long whole_rows = 2LL * r * g.ny + 2LL * r * (g.nz - 2 * r);
  const dim3 whole_blocks(unsigned(ceil_div(g.nx, kThreads)), unsigned(std::min(whole_rows, kMostBlocksY)));
  copy_whole_boundary_rows<T><<<whole_blocks, kThreads>>>(grid_dims(g), r, from.get(), targets);
  HEAT_CUDA_CHECK_LAUNCH();
  const long long ends = (long long)(g.ny - 2 * r) * (g.nz - 2 * r) * 2 * r;
  copy_boundary_row_ends<T><<<grid_stride_blocks(ends, kThreads, 1 << 16), kThreads>>>(grid_dims(g), r, from.get(), targets);
  HEAT_CUDA_CHECK_LAUNCH();
}

// A stage field starts as 0 on the boundary layer (where k is zero by definition and no kernel
// writes) and NaN on the interior, so a point that a stage kernel fails to write poisons u.
template <typename T>
void prepare_stage_field(DeviceBuffer<T>& k, const Grid& g, int r) {
  k.zero();
  poison_interior(k, g, r);
}

}  // namespace heat
