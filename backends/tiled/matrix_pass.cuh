// One pass of the step (rk4_forms.hpp: v = u + c * a*Lap(in)) whose x and y neighbour sums are
// products on the FP64 tensor cores (matrix_products.cuh), in double: a sweep configuration
// ("/dmma", tiled.cu) that measures benchmarks/tiled_analysis.md's tensor-core model, no default.
// Against one_pass.cuh's 4r CUDA-core instructions per point and 3r 16-byte shared loads per pair
// of points for x and y, 2W/4 products and 8-byte loads per 64 points. z stays on the CUDA cores,
// from the register queues as in one_pass.cuh.
//
// The kernel is one_pass.cuh's (a block marches along z over its chunk, the queues rotate by
// renaming in an unrolled z loop, everything from global memory is loaded Ahead planes ahead, two
// shared planes alternate with one barrier per plane); what differs is who owns which point: warp
// w owns the 8x8 block (w % WarpsX, w / WarpsX) of the tile, and lane (g = lane / 4, t = lane % 4)
// the x pair 2t, 2t+1 of its row g.
#pragma once

#include "backends/cuda/cuda_backend.cuh"
#include "backends/tiled/column_pairs.cuh"
#include "backends/tiled/matrix_products.cuh"
#include "backends/tiled/one_pass.cuh"
#include "backends/tiled/tile_launcher.cuh"
#include "stencils/stencil.hpp"

namespace heat {

// WarpsX x WarpsY warps, each an 8x8 block of output columns: a tile of (8*WarpsX) x (8*WarpsY).
template <int Radius, int WarpsX, int WarpsY, int Ahead>
struct MatrixPassTile {
  using T = double;
  static constexpr int R = Radius;
  static constexpr int kWarpsX = WarpsX;
  static constexpr int kThreadsX = 32, kThreadsY = WarpsX * WarpsY, kThreads = kThreadsX * kThreadsY;
  static constexpr int kTileX = 8 * WarpsX, kTileY = 8 * WarpsY;
  static constexpr int kFirstX = 0;  // as ColumnPairTile: tile rows from a 32-byte sector
  static constexpr int kAhead = Ahead;
  static constexpr int kWindow = matrix_window(R);
  // The plane: the tile with r rows above and kWindow - 8 - r below it (the window's last steps
  // read them: zeros, the weights there being zero), and likewise in x after a pad of pair_reach(r)
  // columns, so that every own pair stays aligned.
  static constexpr int kPadX = pair_reach(R), kPadY = R;
  static constexpr int kPitch = matrix_plane_pitch(kPadX - R + kTileX - 8 + kWindow);
  static constexpr int kRowsPerPlane = kTileY - 8 + kWindow;
  static constexpr int kPlane = kPitch * kRowsPerPlane;
  static constexpr int kHaloPoints = 2 * R * (kTileX + kTileY);  // strips above, below, left, right
  static constexpr int kHaloPerThread = ceil_div(kHaloPoints, kThreads);
  static constexpr int kSharedBytes = 2 * kPlane * int(sizeof(T));
  static_assert(kSharedBytes <= 48 * 1024, "static shared memory is limited to 48 KB");
  static constexpr int kUnroll = z_unroll(2 * R + 1 + Ahead, 2, Ahead + 1);
};

template <class Tile, bool FromU, bool AlignedPairs, bool AddsSource>
__global__ void __launch_bounds__(Tile::kThreads)
    matrix_pass_kernel(const __grid_constant__ PassArgs<Tile::R, double, 1> a) {
  using T = double;
  constexpr int R = Tile::R, Pitch = Tile::kPitch, C = 2;
  constexpr int HaloPerThread = Tile::kHaloPerThread, TileX = Tile::kTileX, TileY = Tile::kTileY;
  __shared__ __align__(16) T planes[2][Tile::kPlane];
  const GridDims& d = a.dims;
  const int lane = threadIdx.x, warp = threadIdx.y, thread = warp * 32 + lane;
  const int g = lane / 4, t = lane % 4;
  const int block_x = 8 * (warp % Tile::kWarpsX), block_y = 8 * (warp / Tile::kWarpsX);
  const int x0 = Tile::kFirstX + block_tile_x(a.planes) * TileX, y0 = R + block_tile_y(a.planes) * TileY;
  int z_begin, z_end;
  block_planes(a.planes, z_begin, z_end);
  const int stride_y = int(d.stride_y), stride_z = int(d.stride_z);

  int own_at[C];
  const unsigned computes = own_columns<R>(d, x0 + block_x + 2 * t, y0 + block_y + g, own_at);
  auto slot = [](int x, int y) { return (y + Tile::kPadY) * Pitch + Tile::kPadX + x; };  // tile coordinates
  const int own_slot = slot(block_x + 2 * t, block_y + g);
  const BlockOperands operands = block_operands<R>(slot, block_x, block_y, g, t);
  const BandFragments<R> band(a.weights, g, t);

  // Every point a product reads must be finite (0 * NaN is NaN): the window's cells beyond the
  // halo are zero from here on, and a halo point outside the grid holds its plane's first point.
  for (int i = thread; i < 2 * Tile::kPlane; i += Tile::kThreads) (&planes[0][0])[i] = 0.0;
  __syncthreads();  // the zeros before any plane's stores
  int halo_slot[HaloPerThread], halo_at[HaloPerThread];
#pragma unroll
  for (int i = 0; i < HaloPerThread; ++i) {
    const int h = thread + i * Tile::kThreads;
    int x, y;
    ring_point(h, R, 0, TileX, TileX, TileY, x, y);
    halo_slot[i] = h < Tile::kHaloPoints ? slot(x, y) : -1;
    halo_at[i] = h < Tile::kHaloPoints && in_grid(d, x0 + x, y0 + y) ? (y0 + y) * stride_y + x0 + x : 0;
  }

  // The march along z is one_pass.cuh's.
  const BlockArrays<R, T, FromU, AddsSource> v(a, z_begin, stride_z);
  march_planes<Tile, FromU, AlignedPairs>(
      v, z_end, own_at, own_slot, halo_at, halo_slot, planes,
      [&](int z, const T* plane, const T (&here)[C][2 * R + 1], const T (&u)[C]) {
        T lap[C];
        block_laplacians<R, Pitch>(plane, operands, band, a.weights, here, lap);
        [[maybe_unused]] T source[C][1];
        if constexpr (AddsSource) load_own<AlignedPairs>(v.add, v.plane_at(z), own_at, source, 0);
        T result[C];
        pass_values<AddsSource>(computes, u, a.c[0], lap, source, result);
        store_own<AlignedPairs>(v.out, v.plane_at(z), own_at, computes, result);
      });
}

// As OnePass (one_pass.cuh): the same planes read, the kernel above.
template <class PassTile, bool FromU, bool AddsSource = false>
struct MatrixPass : SinglePassKernels<PassTile, PassArgs<PassTile::R, double, 1>> {
  template <bool AlignedPairs>
  static auto kernel() {
    return matrix_pass_kernel<PassTile, FromU, AlignedPairs, AddsSource>;
  }
};

}  // namespace heat
