// One quadratic factor of the step (rk4_forms.hpp) in one 2.5D kernel: s = v + c_a * a*Lap(v), then
// out = v + c_b * a*Lap(s), reading one array v and writing one, so a step is two launches (u into
// w, w into u) moving 4 arrays per point instead of the single passes' 10. The price is the first
// pass on the output tile's ring of width r as well (the second pass's neighbours), computed by
// the block that needs it.
//
// A block owns an output tile and marches along z; thread (tx, ty) owns an x pair of columns in M
// rows, as in one_pass.cuh. Iteration `a` computes the first pass on plane a at the own
// columns and, r planes behind (plane b = a - r), the first pass on the ring and then the second
// pass on the own columns. Planes of `in` go to a ring of r+1 shared planes with a halo of 2r (the
// ring's own neighbours); the first pass's plane b goes to one shared plane with a halo of r. z
// neighbours stay in registers: `in` at the own columns (planes a-r..a+r) and at the ring points
// (b-r..b+r) and the first pass at the own columns (b-r..b+r). As in one_pass.cuh, the z loop is
// unrolled so that these queues rotate by renaming, what global memory gives is loaded a plane
// ahead, and every access is a 32-bit index from the block's first plane. Where rows have an even
// length, each own pair is loaded and stored as one vector access, which halves the own columns'
// load and store instructions and their address arithmetic.
#pragma once

#include "backends/cuda/cuda_backend.cuh"
#include "backends/tiled/column_pairs.cuh"
#include "backends/tiled/tile_launcher.cuh"
#include "stencils/stencil.hpp"

namespace heat {

// MinBlocks: the blocks per SM the registers must allow (ColumnPairTile's kMinBlocks), 0 for no bound.
template <int Radius, typename Value, int TX, int TY, int M, int MinBlocks = 0>
struct PairTile : ColumnPairTile<Radius, Value, TX, TY, M, MinBlocks> {
  using Base = ColumnPairTile<Radius, Value, TX, TY, M, MinBlocks>;
  using Base::R, Base::kTileX, Base::kTileY, Base::kThreads;
  using typename Base::T;
  // Planes loaded ahead of the one computed; two would spill where the registers are bounded.
  static constexpr int kAhead = 1;
  static constexpr int kReach = pair_reach(R);
  // Planes of `in`: the tile with a halo of 2r (even, so the own pairs stay aligned).
  static constexpr int kPadIn = 2 * R;
  static constexpr int kPitchIn = kTileX + 2 * kPadIn;
  static constexpr int kPlaneIn = kPitchIn * (kTileY + 4 * R);
  static constexpr int kSlotsIn = R + 1;  // planes b..a: two barriers per plane keep writes off them
  static constexpr int kHaloIn = kPlaneIn - kTileX * kTileY;
  static constexpr int kHaloInPerThread = ceil_div(kHaloIn, kThreads);
  // The first pass's plane: the tile with a halo of r (no corners).
  static constexpr int kPitchV = kTileX + 2 * kReach;
  static constexpr int kPlaneV = kPitchV * (kTileY + 2 * R);
  static constexpr int kRing = 2 * R * (kTileX + kTileY);
  static constexpr int kRingPerThread = ceil_div(kRing, kThreads);
  static constexpr int kSharedBytes = (kSlotsIn * kPlaneIn + kPlaneV) * int(sizeof(T));
  static_assert(kSharedBytes <= 48 * 1024, "static shared memory is limited to 48 KB");
  // The z loop is unrolled kUnroll times, so that each queue's slot of a plane is known at compile
  // time: a multiple of the shared planes' and of the loaded-ahead slots' periods (r+1, A+1), and
  // room for the longest queue (`in` at the own columns: 2r+1 planes and A ahead).
  static constexpr int kUnroll = z_unroll(2 * R + 1 + kAhead, kSlotsIn, kAhead + 1);
};

// Both passes add to `in` itself (the factor's v), so what they need at a point is in the queues
// of `in`.
//
// Queue slots: the unrolled iteration k (plane a, k = a - a_first modulo Q) finds plane p of `in`
// at the own columns in slot (p - a_first + r) % Q, and plane p of everything else (the first
// pass, the ring's `in`) in slot (p - a_first) % Q; what it loads goes into the slots of plane
// a + A (a + A + r for the own columns' `in`), which no longer hold a plane still needed.
//
// AlignedPairs: the own columns loaded and stored as one 8- or 16-byte access per pair (load_own).
// AddsSource: the step's second factor with a steady source, whose second pass adds a.add at the
// own columns, loaded once plane b's first pass is under way so that its latency overlaps the
// ring's pass, a barrier and the stencil.
template <class Tile, bool AlignedPairs, bool AddsSource>
__global__ void __launch_bounds__(Tile::kThreads, Tile::kMinBlocks)
    two_passes_kernel(const __grid_constant__ PassArgs<Tile::R, typename Tile::T, 2> a) {
  using T = typename Tile::T;
  constexpr int R = Tile::R, M = Tile::kRows, C = 2 * M, A = Tile::kAhead, Q = Tile::kUnroll;
  constexpr int PitchIn = Tile::kPitchIn, PitchV = Tile::kPitchV, SlotsIn = Tile::kSlotsIn;
  constexpr int HaloPerThread = Tile::kHaloInPerThread, RingPerThread = Tile::kRingPerThread;
  constexpr int TileX = Tile::kTileX, TileY = Tile::kTileY;
  __shared__ __align__(16) T in_planes[SlotsIn][Tile::kPlaneIn];
  __shared__ __align__(16) T v_plane[Tile::kPlaneV];
  const GridDims& d = a.dims;
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * Tile::kThreadsX + tx;
  const int x0 = Tile::kFirstX + block_tile_x(a.planes) * TileX, y0 = R + block_tile_y(a.planes) * TileY;
  int z_begin, z_end;
  block_planes(a.planes, z_begin, z_end);
  // The first pass runs on planes a_first..a_end-1: the chunk and r planes either side.
  const int a_first = z_begin - R, a_end = z_end + R;
  const int stride_y = int(d.stride_y), stride_z = int(d.stride_z);

  int own_at[C];
  const unsigned computes = own_columns<R>(d, x0 + 2 * tx, y0 + ty * M, own_at);
  const int own_in_slot = (ty * M + 2 * R) * PitchIn + Tile::kPadIn + 2 * tx;
  const int own_v_slot = (ty * M + R) * PitchV + Tile::kReach + 2 * tx;

  // The halo of `in` this thread loads: strips of 2r rows above and below (full width), then 2r
  // columns left and right of the tile's rows. -1: not stored (outside the grid, or no point).
  int halo_slot[HaloPerThread], halo_at[HaloPerThread];
#pragma unroll
  for (int i = 0; i < HaloPerThread; ++i) {
    const int h = t + i * Tile::kThreads;
    int x, y;
    ring_point(h, 2 * R, -2 * R, PitchIn, TileX, TileY, x, y);
    const bool stored = h < Tile::kHaloIn && in_grid(d, x0 + x, y0 + y);
    halo_slot[i] = stored ? (y + 2 * R) * PitchIn + Tile::kPadIn + x : -1;
    halo_at[i] = stored ? (y0 + y) * stride_y + x0 + x : 0;
  }
  // The ring points whose first pass this thread computes (strips of r above and below, r left
  // and right; no corners): their slots in both kinds of plane and whether computed or `in` itself.
  // Every thread runs the first pass on all RingPerThread of its points (a select keeps `in` where
  // it is not computed), so a point beyond the ring (the last i only) reads the tile's first point
  // and is not stored.
  int ring_in_slot[RingPerThread], ring_v_slot[RingPerThread];
  unsigned ring_computes = 0;
  const bool last_ring_point = t + (RingPerThread - 1) * Tile::kThreads < Tile::kRing;
#pragma unroll
  for (int i = 0; i < RingPerThread; ++i) {
    const int h = t + i * Tile::kThreads;
    int x = 0, y = 0;
    if (h < Tile::kRing) ring_point(h, R, 0, TileX, TileX, TileY, x, y);
    if (h < Tile::kRing && in_interior<R>(d, x0 + x, y0 + y)) ring_computes |= 1u << i;
    ring_in_slot[i] = (y + 2 * R) * PitchIn + Tile::kPadIn + x;
    ring_v_slot[i] = (y + R) * PitchV + Tile::kReach + x;
  }

  // The arrays seen from the block's first plane: every index the block needs fits 32 bits (the
  // launcher keeps its planes, a_first - r .. a_end - 1 + r, under INT_MAX points).
  const long long block_at = (long long)a_first * d.stride_z;
  const T* const in = view_at(a.in, block_at);
  T* const out = view_at(a.out, block_at);
  [[maybe_unused]] const T* add = nullptr;
  if constexpr (AddsSource) add = view_at(a.add, block_at);
  auto plane_at = [&](int p) { return (p - a_first) * stride_z; };
  // The queues' first planes run r beyond the grid at its first and last chunks: a plane outside
  // it reads the grid's nearest plane, whose values reach only stencils that are never computed.
  auto clamped_plane_at = [&](int p) { return plane_at(min(max(p, 0), d.nz - 1)); };

  T in_q[C][Q], v_q[C][Q], ring_q[RingPerThread][Q], halo[A + 1][HaloPerThread];
#pragma unroll
  for (int j = 0; j < 2 * R; ++j) load_own<AlignedPairs>(in, clamped_plane_at(a_first - R + j), own_at, in_q, j);
  // What iteration k (plane za) needs from global memory: the own columns' newest plane za + r and
  // the halo of za.
  auto fetch = [&](int k, int za) {
    load_own<AlignedPairs>(in, clamped_plane_at(za + R), own_at, in_q, (k + 2 * R) % Q);
#pragma unroll
    for (int i = 0; i < HaloPerThread; ++i) halo[k % (A + 1)][i] = in[plane_at(za) + halo_at[i]];
  };
#pragma unroll
  for (int j = 0; j < A; ++j) fetch(j, a_first + j);  // a block has 2r+1 planes a or more

  for (int z0 = a_first;; z0 += Q) {
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const int za = z0 + k, zb = za - R;
      if (za >= a_end) return;  // the same for the whole block
      T* const plane_a = in_planes[k % SlotsIn];
      const T* const plane_b = in_planes[(k + SlotsIn - R) % SlotsIn];
      const int kb = (k + Q - R) % Q;  // plane b's slot
      T here[C][2 * R + 1];            // `in` at the own columns, planes a-r..a+r
      queue_window(in_q, k, here);
      store_plane_share<M, PitchIn>(plane_a, own_in_slot, here, halo_slot, halo[k % (A + 1)]);
      if (za + A < a_end) fetch(k + A, za + A);
      __syncthreads();

      // The first pass on plane a at the own columns (`in` itself on the boundary layer).
      {
        T lap[C];
        pair_laplacians<R, M, PitchIn>(plane_a, own_in_slot, here, a.weights, lap);
        const bool z_inside = za >= R && za < d.nz - R;
#pragma unroll
        for (int c = 0; c < C; ++c)
          v_q[c][k % Q] = pass_value(z_inside && (computes & (1u << c)), here[c][R], a.c[0], lap[c]);
      }
#pragma unroll
      for (int i = 0; i < RingPerThread; ++i) ring_q[i][k % Q] = plane_a[ring_in_slot[i]];
      if (zb < z_begin) continue;  // the first 2r planes a fill the queues (uniform across the block)
      [[maybe_unused]] T source[C][1];
      if constexpr (AddsSource) load_own<AlignedPairs>(add, plane_at(zb), own_at, source, 0);

        // The first pass on plane b at the ring points, then the plane to shared memory.
#pragma unroll
      for (int i = 0; i < RingPerThread; ++i) {
        const T base = ring_q[i][kb];
        const T* centre = plane_b + ring_in_slot[i];
        const T lap = apply_stencil<R, T>(a.weights, ring_q[i][kb], [&](int axis, int dist) {
          if (axis == 0) return centre[dist] + centre[-dist];
          if (axis == 1) return centre[dist * PitchIn] + centre[-dist * PitchIn];
          return ring_q[i][(kb + dist) % Q] + ring_q[i][(kb + Q - dist) % Q];
        });
        if (i + 1 < RingPerThread || last_ring_point)
          v_plane[ring_v_slot[i]] = pass_value(ring_computes & (1u << i), base, a.c[0], lap);
      }
#pragma unroll
      for (int m = 0; m < M; ++m) store_pair(v_plane + own_v_slot + m * PitchV, v_q[2 * m][kb], v_q[2 * m + 1][kb]);
      __syncthreads();

      // The second pass on plane b at the own columns.
      T v_here[C][2 * R + 1];
      queue_window(v_q, kb + Q - R, v_here);
      T lap[C];
      pair_laplacians<R, M, PitchV>(v_plane, own_v_slot, v_here, a.weights, lap);
      T result[C];
#pragma unroll
      for (int c = 0; c < C; ++c) {
        if constexpr (AddsSource)
          result[c] = pass_value_adding(computes & (1u << c), here[c][0], a.c[1], lap[c], source[c][0]);
        else
          result[c] = pass_value(computes & (1u << c), here[c][0], a.c[1], lap[c]);
      }
      store_own<AlignedPairs>(out, plane_at(zb), own_at, computes, result);
    }
  }
}

// A factor per kernel: each block computes 2r planes beyond its chunk and loads 2r more to fill its
// queues; it indexes from r planes before its chunk to 3r after it. AddsSource: the second factor
// with a steady source (PassArgs::add).
template <class PairedTile, bool AddsSource = false>
struct TwoPasses {
  using Tile = PairedTile;
  using Args = PassArgs<Tile::R, typename Tile::T, 2>;
  static constexpr int kRefill = 4 * Tile::R, kBeyond = 3 * Tile::R;
  static constexpr int kDynamicSharedBytes = 0;
  template <bool AlignedPairs>
  static auto kernel() {
    return two_passes_kernel<Tile, AlignedPairs, AddsSource>;
  }
};

}  // namespace heat
