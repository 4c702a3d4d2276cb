// All four of the step's Horner passes (rk4_forms.hpp) in one 2.5D kernel: u read once and the
// new u written once, 2 arrays per point against the pairs' 5 (two_passes.cuh). The price is
// recompute: pass p (p = 1..4) is needed (4-p)*r columns beyond the output tile, so a block
// computes it there too, as its neighbours do.
//
// A block's threads cover a region: the output tile and a halo of 4r on each side. Thread (tx, ty)
// owns an x pair of region columns in M rows, as in one_pass.cuh, so every point of the region
// is some thread's own point: u comes in as own pairs only (no halo loads), and each pass's plane
// goes to shared memory as own pairs only. Iteration `a` computes pass 1 on plane a, pass 2 on
// plane a - r, pass 3 on a - 2r and pass 4 on a - 3r; each pass's x-y neighbours come from the
// shared plane of its input, which the iterations before wrote, so one barrier per iteration is
// enough (the four planes alternate between two sets). z neighbours, and u at every plane a pass
// forms its result with, stay in register queues that rotate by renaming (the z loop is unrolled,
// as in one_pass.cuh). Every thread computes every pass: what a pass gets within p*r of the
// region's edge is wrong (its neighbours there are the shared planes' pads), but reaches no point
// that is stored.
#pragma once

#include <utility>

#include "backends/tiled/column_pairs.cuh"
#include "backends/tiled/tile_launcher.cuh"

namespace heat {

// TX x TY threads, each an x pair of columns in M rows: a region of (2*TX) x (TY*M) columns around
// an output tile 8r narrower in x and y. MinBlocks: the blocks per SM the registers must allow (0:
// no bound); Ahead: how many planes ahead u is loaded.
template <int Radius, typename Value, int TX, int TY, int M, int MinBlocks = 0, int Ahead = 1>
struct FourPassTile {
  using T = Value;
  static constexpr int R = Radius;
  static constexpr int kThreadsX = TX, kThreadsY = TY, kRows = M, kThreads = TX * TY;
  static constexpr int kMinBlocks = MinBlocks, kAhead = Ahead;
  static constexpr int kReach = 4 * R;  // how far beyond its tile a block's step reads
  static constexpr int kRegionX = 2 * TX, kRegionY = TY * M;
  static constexpr int kTileX = kRegionX - 2 * kReach, kTileY = kRegionY - 2 * kReach;
  // The output tiles start where every region row starts on a 32-byte sector (as ColumnPairTile's
  // do), at or before the first interior column r.
  static constexpr int kSector = 32 / int(sizeof(T));
  static constexpr int kFirstX = R - ((R - kReach) % kSector + kSector) % kSector;
  // Each pass's input plane: the region with x and y pads the stencil reads beyond it (pairs
  // aligned as in PlaneTile); four of them per set, two sets alternating along z.
  static constexpr int kPad = pair_reach(R);
  static constexpr int kPitch = kRegionX + 2 * kPad;
  static constexpr int kPlane = kPitch * (kRegionY + 2 * R);
  static constexpr int kSharedBytes = 2 * 4 * kPlane * int(sizeof(T));
  // u's queue holds planes a-3r..a+r (pass 1's window, the bases of passes 2-4) and A ahead; the
  // shared sets alternate, so the unrolling is even.
  static constexpr int kUnroll = z_unroll(4 * R + 1 + Ahead, 2, 1);
  static_assert(kTileX > 0 && kTileY > 0 && kTileX % kSector == 0, "a region holds a tile of whole sectors");
  static_assert(TX % 16 == 0 && kThreads <= 1024, "a warp spans 32 columns or more, at most 1024 threads");
};

// Calls f(std::integral_constant<int, p>) for p = 0 .. N-1: a pass index known at compile time.
template <typename F, int... Indices>
__device__ __forceinline__ void for_each_index_of(F&& f, std::integer_sequence<int, Indices...>) {
  (f(std::integral_constant<int, Indices>{}), ...);
}
template <int N, typename F>
__device__ __forceinline__ void for_each_index(F&& f) {
  for_each_index_of(f, std::make_integer_sequence<int, N>{});
}

// Queue slots: iteration k of the unrolled loop (plane a = z0 + k, z0 - a_first a multiple of Q)
// finds plane a + e of every queue in slot (k + 4r + e) % Q (e >= -4r). queues[0] is u,
// queues[p] (p = 1..3) what pass p computed.
//
// Every pass runs in every iteration and every warp: pass p's first 2(p-1)r iterations, before
// its input's planes exist, and the rows beyond its band compute from zeros or from values that
// reach no point stored (the queues start at zero, so nothing there is NaN but the shared planes'
// pads), and the uniform work costs less than the branches that would skip it (per pass, four
// instructions and two reconvergence points). Only the store waits for pass 4's first
// real plane.
//
// AddsSource: a steady source, whose step increment a.add pass 4 adds at the own columns it
// stores, loaded as pass 4 starts, so that its latency overlaps pass 4's stencil (loaded as the
// iteration starts, its registers spill more: 20 bytes against 16 at order 2 in float).
template <class Tile, bool AlignedPairs, bool AddsSource>
__global__ void __launch_bounds__(Tile::kThreads, Tile::kMinBlocks)
    four_passes_kernel(const __grid_constant__ PassArgs<Tile::R, typename Tile::T, 4> a) {
  using T = typename Tile::T;
  constexpr int R = Tile::R, M = Tile::kRows, C = 2 * M, A = Tile::kAhead, Q = Tile::kUnroll;
  constexpr int Pitch = Tile::kPitch, Reach = Tile::kReach, Window = 2 * R + 1;
  // The own pairs' offsets in 32 bits: with 64-bit ones, a thread's 80 registers spill in the z loop.
  constexpr PairOffsets kOffsets = PairOffsets::kSummed;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T(*const sets)[4][Tile::kPlane] = reinterpret_cast<T(*)[4][Tile::kPlane]>(shared_bytes);
  const GridDims& d = a.dims;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = Tile::kFirstX + block_tile_x(a.planes) * Tile::kTileX, y0 = R + block_tile_y(a.planes) * Tile::kTileY;
  int z_begin, z_end;
  block_planes(a.planes, z_begin, z_end);
  // Pass 1 runs on planes a_first..a_end-1: the chunk and the 3r planes either side pass 4 needs.
  const int a_first = z_begin - 3 * R, a_end = z_end + 3 * R;
  const int stride_z = int(d.stride_z);

  const int region_x = 2 * tx, region_y = ty * M;
  int own_at[C];
  const unsigned computes = own_columns<R>(d, x0 - Reach + region_x, y0 - Reach + region_y, own_at);
  unsigned stores = 0;  // the computed own columns in the output tile
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int x = region_x + c % 2, y = region_y + c / 2;
    const bool in_tile = x >= Reach && x < Reach + Tile::kTileX && y >= Reach && y < Reach + Tile::kTileY;
    if (in_tile) stores |= computes & (1u << c);
  }
  const int own_slot = (region_y + R) * Pitch + Tile::kPad + region_x;

  // The arrays seen from the block's first plane a_first: it reads planes a_first - r ..
  // a_end - 1 + r, which the launcher keeps within 32-bit offsets. A plane beyond the grid reads
  // the grid's nearest: its values reach only stencils that are never computed.
  const long long block_at = (long long)a_first * d.stride_z;
  const T* const u = view_at(a.u, block_at);
  T* const out = view_at(a.out, block_at);
  [[maybe_unused]] const T* add = nullptr;
  if constexpr (AddsSource) add = view_at(a.add, block_at);
  auto plane_at = [&](int z) { return (z - a_first) * stride_z; };
  auto clamped_plane_at = [&](int z) { return plane_at(min(max(z, 0), d.nz - 1)); };

  T queues[4][C][Q] = {};
#pragma unroll
  for (int j = 0; j < 2 * R + A; ++j)
    load_own<AlignedPairs, kOffsets>(u, clamped_plane_at(a_first - R + j), own_at, queues[0], (3 * R + j) % Q);

  for (int z0 = a_first;; z0 += Q) {
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const int za = z0 + k;
      if (za >= a_end) return;  // the same for the whole block
      T(*const planes)[Tile::kPlane] = sets[k % 2];
      // Pass p's input plane a - pr, which it reads the x-y neighbours of, to shared memory.
#pragma unroll
      for (int p = 0; p < 4; ++p)
#pragma unroll
        for (int m = 0; m < M; ++m)
          store_pair(planes[p] + own_slot + m * Pitch, queues[p][2 * m][(k + 4 * R - p * R) % Q],
                     queues[p][2 * m + 1][(k + 4 * R - p * R) % Q]);
      if (za + A < a_end)
        load_own<AlignedPairs, kOffsets>(u, clamped_plane_at(za + R + A), own_at, queues[0], (k + 5 * R + A) % Q);
      __syncthreads();

      for_each_index<4>([&](auto pass) {
        constexpr int p = decltype(pass)::value;
        const int zp = za - p * R, centre = (k + 4 * R - p * R) % Q;
        T window[C][Window], lap[C], result[C];
        queue_window(queues[p], centre + Q - R, window);
        // Pass 4's plane, where it is stored (as below).
        [[maybe_unused]] T source[C][1];
        if constexpr (AddsSource && p == 3)
          if (za >= z_begin + 3 * R) load_own<AlignedPairs, kOffsets>(add, plane_at(zp), own_at, source, 0);
        pair_laplacians<R, M, Pitch>(planes[p], own_slot, window, a.weights, lap);
        const bool z_inside = zp >= R && zp < d.nz - R;
#pragma unroll
        for (int c = 0; c < C; ++c) {
          const T u_here = queues[0][c][centre];
          const bool computed = z_inside && (computes & (1u << c));
          if constexpr (AddsSource && p == 3)
            result[c] = pass_value_adding(computed, u_here, a.c[p], lap[c], source[c][0]);
          else
            result[c] = pass_value(computed, u_here, a.c[p], lap[c]);
        }
        if constexpr (p < 3) {
#pragma unroll
          for (int c = 0; c < C; ++c) queues[p + 1][c][centre] = result[c];
        } else {
          if (za >= z_begin + 3 * R) store_own<AlignedPairs, kOffsets>(out, plane_at(zp), own_at, stores, result);
        }
      });
    }
  }
}

// The step in one kernel: a block computes 6r planes beyond its chunk (3r either side) and loads
// r more either side; it indexes from 3r planes before its chunk to 4r after it.
// AddsSource: with a steady source (PassArgs::add).
template <class FusedTile, bool AddsSource = false>
struct FourPasses {
  using Tile = FusedTile;
  using Args = PassArgs<Tile::R, typename Tile::T, 4>;
  static constexpr int kRefill = 8 * Tile::R, kBeyond = 7 * Tile::R;
  static constexpr int kDynamicSharedBytes = Tile::kSharedBytes;
  template <bool AlignedPairs>
  static auto kernel() {
    return four_passes_kernel<Tile, AlignedPairs, AddsSource>;
  }
};

}  // namespace heat
