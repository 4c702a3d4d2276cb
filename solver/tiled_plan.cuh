// What every role of the tiled kernel shares: the launch arguments, the block's share of the
// grid and of the z march, and compile-time unrolling.
#pragma once

#include <utility>

#include "solver/cuda_backend.cuh"
#include "solver/tiled_geometry.cuh"
#include "solver/tiled_memory.cuh"
#include "stencils/stencil.hpp"

namespace heat {

template <int R, typename T>
struct GroupArgs {
  GridDims dims;
  StencilWeights<R, T> weights;
  Rk4Constants<T> rk;
  const T* u;         // u at the start of the step; never written by this launch
  const T* k_prev;    // k of the stage before the group (FirstStage > 1)
  const T* sum_in;    // k1 + 2k2 + ... through the stage before the group (FirstStage > 2)
  T* k_out;           // k of the group's last stage (LastStage < 4)
  T* sum_out;         // the partial sum through LastStage (LastStage 2 or 3)
  T* u_out;           // the new u (LastStage == 4); a different buffer from u
  int z_chunk;        // output planes per block along z
  bool aligned_rows;  // nx is a whole number of 16-byte vectors, so every tile row is aligned
};

struct BlockPlan {
  int tile_x0, tile_y0;      // grid coordinates of the output tile's first point
  int z_begin, z_end;        // this block's output planes
  int load_begin, load_end;  // planes the loader brings into ring 0
  int t_first, t_end;        // iterations; t_first is a multiple of the queue depth
};

__device__ inline int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

template <class Geo>
__device__ BlockPlan make_block_plan(const GridDims& d, int z_chunk) {
  constexpr int R = Geo::kRadius;
  BlockPlan b;
  // Tiles start at x = 0 (not at r) so that every tile row starts on a 16-byte boundary.
  b.tile_x0 = blockIdx.x * Geo::kTileX;
  b.tile_y0 = R + blockIdx.y * Geo::kTileY;
  b.z_begin = R + blockIdx.z * z_chunk;
  b.z_end = min(b.z_begin + z_chunk, d.nz - R);
  const int first_plane = b.z_begin - Geo::kStages * R;  // stage 0's lowest z neighbour
  b.load_begin = max(0, first_plane);
  b.load_end = min(d.nz, b.z_end + Geo::kStages * R);
  // Aligning t to the queue depth makes every queue slot a compile-time constant.
  b.t_first = floor_div(first_plane, Geo::kQueueDepth) * Geo::kQueueDepth;
  b.t_end = b.z_end + Geo::lag(Geo::kStages - 1);
  return b;
}

// Calls f(std::integral_constant<int, I>) for I = 0..N-1.
template <typename F, int... I>
__device__ inline void unroll_sequence(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, typename F>
__device__ inline void unroll(F&& f) {
  unroll_sequence(f, std::make_integer_sequence<int, N>{});
}

}  // namespace heat
