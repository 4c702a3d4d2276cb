// One pass of the step with material fields K(x), C(x) (docs/design.md §1, "Materials"),
// out = base + c * (1/C) div(K grad in), as a 2.5D kernel: one_pass.cuh's tile and plane of `in`
// in shared memory, with the flux form of stencils/material_stencil.hpp where that kernel applies
// a*Lap. Per point it sums in apply_conductance_stencil's order from the same values as the
// global-memory kernel (global_material_stencil.cuh), so the two give the same bits.
//
// What each array needs around a point decides where the kernel keeps it:
// - `in`, read at r either side along every axis: the plane with a halo of r in shared memory, a
//   z queue of 2r+1 planes at the own columns in registers (one_pass.cuh's).
// - Order 2 reads 1/K and forms each pair's harmonic mean where read: 1/K is a star like `in`,
//   so it gets the same plane and queue.
// - Orders 4 to 8 read each pair's M, stored at the pair's lower point: only the k points below
//   along the pair's own axis. x and y come from global memory (L1 holds the neighbours' rows,
//   which the block's other threads loaded), z from registers: the M of the z pairs read at the
//   r planes before, each read from memory once.
// - 1/C, the base and a source's increment: at the point.
// The z loop is not unrolled: the queues slide by moves, a few per plane against the flux form's
// hundreds of instructions a point, and each plane's loads of `in`, its halo, the base and 1/C are
// issued a plane ahead.
#pragma once

#include "backends/cuda/cuda_backend.cuh"
#include "backends/cuda/device_materials.cuh"
#include "backends/tiled/column_pairs.cuh"
#include "backends/tiled/one_pass.cuh"
#include "backends/tiled/tile_launcher.cuh"
#include "stencils/material_stencil.hpp"

namespace heat {

// What a pass of material fields reads and writes: PassArgs' single pass with the flux form's
// weights and arrays in place of a*Lap's weights.
template <int R, typename T>
struct MaterialPassArgs {
  GridDims dims;
  MaterialWeights<R, T> weights;
  DeviceMaterialView<R, T> materials;
  const T* in;
  const T* u;  // the pass's base
  T c;
  T* out;
  LaunchPlanes planes;  // set by the launcher
  const T* add = nullptr;  // a source's step increment, read by the kernel built to add it alone
};

// The arrays kept as planes in shared memory and z queues: `in`, and at order 2 1/K.
template <int R>
__host__ __device__ constexpr int material_star_arrays() {
  return R == 1 ? 2 : 1;
}

template <class Tile, bool FromU, bool AlignedPairs, bool AddsSource>
__global__ void __launch_bounds__(Tile::kThreads)
    material_pass_kernel(const __grid_constant__ MaterialPassArgs<Tile::R, typename Tile::T> a) {
  using T = typename Tile::T;
  static_assert(Tile::kRows == 1, "a thread owns one pair of columns");
  constexpr int R = Tile::R, Pitch = Tile::kPitch, C = 2, Window = 2 * R + 1;
  constexpr int Stars = material_star_arrays<R>(), HaloPerThread = Tile::kHaloPerThread;
  __shared__ __align__(16) T planes[2][Stars][Tile::kPlane];
  const GridDims& d = a.dims;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = Tile::kFirstX + block_tile_x(a.planes) * Tile::kTileX, y0 = R + block_tile_y(a.planes) * Tile::kTileY;
  int z_begin, z_end;
  block_planes(a.planes, z_begin, z_end);
  const int stride_y = int(d.stride_y), stride_z = int(d.stride_z);

  int own_at[C];
  const unsigned computes = own_columns<R>(d, x0 + 2 * tx, y0 + ty, own_at);
  const int own_slot = (ty + R) * Pitch + Tile::kPad + 2 * tx;

  // The halo points this thread loads, as one_pass.cuh spreads them over the block.
  int halo_slot[HaloPerThread], halo_at[HaloPerThread];
#pragma unroll
  for (int i = 0; i < HaloPerThread; ++i) {
    const int h = ty * Tile::kThreadsX + tx + i * Tile::kThreads;
    int x, y;
    ring_point(h, R, 0, Tile::kTileX, Tile::kTileX, Tile::kTileY, x, y);
    const bool stored = h < Tile::kHaloPoints && in_grid(d, x0 + x, y0 + y);
    halo_slot[i] = stored ? (y + R) * Pitch + Tile::kPad + x : -1;
    halo_at[i] = stored ? (y0 + y) * stride_y + x0 + x : 0;
  }

  // Every array seen from the block's first plane, z_begin - r, indexed in 32 bits (the launcher
  // keeps a chunk's planes under INT_MAX points).
  const long long block_at = (long long)(z_begin - R) * d.stride_z;
  const T* star[Stars];
  star[0] = view_at(a.in, block_at);
  if constexpr (Stars > 1) star[1] = view_at(a.materials.inverse_conductivity, block_at);
  const T* const base = FromU ? star[0] : view_at(a.u, block_at);
  const T* const inverse_c = view_at(a.materials.inverse_heat_capacity, block_at);
  T* const out = view_at(a.out, block_at);
  [[maybe_unused]] const T* add = nullptr;
  if constexpr (AddsSource) add = view_at(a.add, block_at);
  auto plane_at = [&](int z) { return (z - z_begin + R) * stride_z; };
  // The M of the pairs k apart along `axis`, seen from the block's first plane.
  auto conductance = [&](int axis, int k) { return a.materials.conductance[axis][k - 1] + block_at; };

  // Each star's z queue at the own columns (planes z-r..z+r, oldest first) and halo of plane z,
  // and what plane z + 1 needs, loaded while plane z is computed.
  T queue[Stars][C][Window], halo[Stars][HaloPerThread], base_here[C][1], inverse_c_here[C][1];
  T next_newest[Stars][C][1], next_halo[Stars][HaloPerThread], next_base[C][1], next_inverse_c[C][1];
  auto fetch = [&](int z) {  // plane z's halo, base and 1/C, and plane z + r of the queues
#pragma unroll
    for (int s = 0; s < Stars; ++s) {
      load_own<AlignedPairs>(star[s], plane_at(z + R), own_at, next_newest[s], 0);
#pragma unroll
      for (int i = 0; i < HaloPerThread; ++i) next_halo[s][i] = star[s][plane_at(z) + halo_at[i]];
    }
    if constexpr (!FromU) load_own<AlignedPairs>(base, plane_at(z), own_at, next_base, 0);
    load_own<AlignedPairs>(inverse_c, plane_at(z), own_at, next_inverse_c, 0);
  };
#pragma unroll
  for (int s = 0; s < Stars; ++s)
#pragma unroll
    for (int q = 1; q < Window; ++q) load_own<AlignedPairs>(star[s], plane_at(z_begin - R - 1 + q), own_at, queue[s], q);
  fetch(z_begin);

  // Orders 4 to 8: the M of the z pairs k apart at the own columns on the k planes below the one
  // computed, below[k - 1][j - 1] on plane z - j: each plane's M read once, as the pair above it.
  constexpr int kBelow = R > 1 ? R : 1;
  [[maybe_unused]] T below[kBelow][kBelow][C][1];
  if constexpr (R > 1)
#pragma unroll
    for (int k = 1; k <= R; ++k)
#pragma unroll
      for (int j = 1; j <= k; ++j) load_own<AlignedPairs>(conductance(2, k), plane_at(z_begin - j), own_at, below[k - 1][j - 1], 0);

  for (int z = z_begin; z < z_end; ++z) {
    T* plane[Stars];
#pragma unroll
    for (int s = 0; s < Stars; ++s) {
      plane[s] = planes[z & 1][s];
#pragma unroll
      for (int c = 0; c < C; ++c) {
#pragma unroll
        for (int q = 0; q + 1 < Window; ++q) queue[s][c][q] = queue[s][c][q + 1];
        queue[s][c][Window - 1] = next_newest[s][c][0];
      }
#pragma unroll
      for (int i = 0; i < HaloPerThread; ++i) halo[s][i] = next_halo[s][i];
      store_plane_share<1, Pitch>(plane[s], own_slot, queue[s], halo_slot, halo[s]);
    }
#pragma unroll
    for (int c = 0; c < C; ++c) base_here[c][0] = next_base[c][0], inverse_c_here[c][0] = next_inverse_c[c][0];
    if (z + 1 < z_end) fetch(z + 1);
    __syncthreads();

    // Orders 4 to 8: the M of the pairs above each own column (lo = 0), and of the x and y pairs
    // below it; the z pairs below are in `below`.
    [[maybe_unused]] T above[3][kBelow][C][1], x_below[kBelow][C], y_below[kBelow][C][1];
    if constexpr (R > 1)
#pragma unroll
      for (int k = 1; k <= R; ++k) {
#pragma unroll
        for (int axis = 0; axis < 3; ++axis)
          load_own<AlignedPairs>(conductance(axis, k), plane_at(z), own_at, above[axis][k - 1], 0);
        load_own<AlignedPairs>(conductance(1, k), plane_at(z) - k * stride_y, own_at, y_below[k - 1], 0);
#pragma unroll
        for (int c = 0; c < C; ++c)  // a pair below that starts at the other own column is that column's above
          x_below[k - 1][c] = c >= k ? above[0][k - 1][c - k][0] : conductance(0, k)[plane_at(z) + own_at[c] - k];
      }

    [[maybe_unused]] T source[C][1];
    if constexpr (AddsSource) load_own<AlignedPairs>(add, plane_at(z), own_at, source, 0);
    T result[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const int slot = own_slot + c;
      // star s at `dist` points from the own column c along `axis`.
      auto star_at = [&](int s, int axis, int dist) {
        if (axis == 2 || dist == 0) return queue[s][c][R + dist];
        return plane[s][slot + (axis == 0 ? dist : dist * Pitch)];
      };
      const T divergence = apply_conductance_stencil<R, T>(
          a.weights, queue[0][c][R], [&](int axis, int dist) { return star_at(0, axis, dist); },
          [&](int axis, int k, int lo) {
            if constexpr (R == 1) {
              // DeviceMaterialView::pair's harmonic mean, from the 1/K star.
              return pair_conductance<1, T>(
                  k, [](int) { return T(0); }, [&](int m) { return star_at(Stars - 1, axis, lo + m); });
            } else {
              if (lo == 0) return above[axis][k - 1][c][0];
              if (axis == 0) return x_below[k - 1][c];
              return axis == 1 ? y_below[k - 1][c][0] : below[k - 1][k - 1][c][0];
            }
          });
      const T lap = inverse_c_here[c][0] * divergence;
      const T u_here = FromU ? queue[0][c][R] : base_here[c][0];
      if constexpr (AddsSource)
        result[c] = pass_value_adding(computes & (1u << c), u_here, a.c, lap, source[c][0]);
      else
        result[c] = pass_value(computes & (1u << c), u_here, a.c, lap);
    }
    store_own<AlignedPairs>(out, plane_at(z), own_at, computes, result);

    if constexpr (R > 1)
#pragma unroll
      for (int k = 1; k <= R; ++k) {
#pragma unroll
        for (int j = k; j > 1; --j)
#pragma unroll
          for (int c = 0; c < C; ++c) below[k - 1][j - 1][c][0] = below[k - 1][j - 2][c][0];
#pragma unroll
        for (int c = 0; c < C; ++c) below[k - 1][0][c][0] = above[2][k - 1][c][0];
      }
  }
}

// The kernels of one pass for TileLauncher (SinglePassKernels: the r planes below that the z pairs'
// M need are among those that fill the queues first).
template <class PassTile, bool FromU, bool AddsSource = false>
struct MaterialPass : SinglePassKernels<PassTile, MaterialPassArgs<PassTile::R, typename PassTile::T>> {
  template <bool AlignedPairs>
  static auto kernel() {
    return material_pass_kernel<PassTile, FromU, AlignedPairs, AddsSource>;
  }
};

}  // namespace heat
