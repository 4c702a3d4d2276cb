// One quadratic factor of the step in one kernel (two_passes.cuh's s = v + c_a * a*Lap(v), then
// out = v + c_b * a*Lap(s)), in double, with the x and y sums of both passes as FP64 tensor-core
// products (matrix_products.cuh): a sweep configuration ("factor-pairs/.../dmma", tiled.cu), the
// candidate (b') of benchmarks/tiled_analysis.md, no default.
//
// The work is in 8x8 blocks, a warp's lane (g, t) holding the x pair 2t, 2t+1 of row g of each.
// Each warp owns two blocks of the output tile, one above the other, and a pair of its ring: the
// first pass on the ring (r wide, r <= 4; no corners: a star stencil reads none) runs on blocks
// whose rows (or columns) are 4 above and 4 below the tile (or left and right of it), so that every
// lane's pair is a ring point; their x and y sums take 10 products, not 8 (ring_pair). So the first
// pass runs on 3 blocks a warp, the second on 2.
//
// Both passes run on every plane a block marches through, the first on plane a, the second r
// planes behind (plane b = a - r), with one barrier a plane:
// - plane a of `in` goes to one of two alternating shared planes: the own blocks' and the ring
//   pairs' points from their z queues' centres (both queues loaded from global memory a plane
//   ahead), the strips r deep beyond the ring and the ring's 4 x 4 corners from halo loads;
// - after the barrier, the first pass on plane a at the own blocks and the ring pair: z windows from
//   the queues, x and y from the shared plane; the results go to the first pass's shared planes
//   (r+1 in turn), and at the own points to a register queue of its last r planes and to the
//   lane's own z history in shared memory;
// - the second pass on plane b at the own blocks: x and y from the first pass's shared plane b,
//   written r planes (barriers) ago, z from the history's planes b-r..b-1 and the register queue's
//   b+1..b+r, and v at the own points from the own z queue's oldest plane. Plane a's first-pass
//   writes reuse the slot of plane b - 1, which the previous plane's second pass read before this
//   plane's barrier.
// The older half of the second pass's z window in shared memory rather than registers, where it
// spilled at order 8: each lane reads back only what it wrote, so the history is laid out by
// thread, one 16-byte pair a block, and its accesses meet no bank conflict, which the planes'
// pairs do (their pitch serves the products' 8-byte loads).
//
// Queue slots and the unrolled z loop are two_passes.cuh's: plane p of `in` (own and ring points)
// in slot (p - a_first + r) % Q, the first pass's plane p in slot (p - a_first) % Q.
#pragma once

#include "backends/cuda/cuda_backend.cuh"
#include "backends/tiled/column_pairs.cuh"
#include "backends/tiled/matrix_products.cuh"
#include "backends/tiled/one_pass.cuh"
#include "backends/tiled/tile_launcher.cuh"
#include "backends/tiled/two_passes.cuh"
#include "stencils/stencil.hpp"

namespace heat {

// WarpsX x WarpsY warps, each two 8x8 blocks of the output tile, one above the other: a tile of
// (8*WarpsX) x (16*WarpsY).
template <int Radius, int WarpsX, int WarpsY>
struct MatrixPairTile {
  using T = double;
  static constexpr int R = Radius;
  static constexpr int kWarpsX = WarpsX, kWarps = WarpsX * WarpsY;
  static constexpr int kThreadsX = 32, kThreadsY = kWarps, kThreads = 32 * kWarps;
  static constexpr int kTileX = 8 * WarpsX, kTileY = 16 * WarpsY;
  static constexpr int kFirstX = 0;  // as ColumnPairTile: tile rows from a 32-byte sector
  static constexpr int kAhead = 1;   // the z loop's slots assume it (kUnroll)
  // The ring pairs: TileX/8 above and below the tile, TileY/8 left and right, reaching 4 beyond it;
  // a pair a warp.
  static constexpr int kReach = 4;
  static_assert(R <= kReach, "the ring pairs hold the ring");
  static_assert((kTileX + kTileY) / 8 == kWarps, "a ring pair a warp");
  // The window's last steps read kWindowPad points beyond the stencil's (zero weights).
  static constexpr int kWindowPad = matrix_window(R) - 8 - 2 * R;
  // Planes of `in`: the tile, its ring 4 wide and r beyond that (the ring's neighbours) and the
  // window's pad; its origin an even number of columns in, so that every pair stays aligned.
  static constexpr int kPadIn = pair_reach(kReach + R);
  static constexpr int kPitchIn = matrix_plane_pitch(kPadIn + kTileX + kReach + R + kWindowPad);
  static constexpr int kPlaneIn = kPitchIn * (kPadIn + kTileY + kReach + R + kWindowPad);
  // Planes of the first pass: the tile and its ring, and the second pass's window beyond.
  static constexpr int kBeyondRing = kReach > R + kWindowPad ? kReach : R + kWindowPad;
  static constexpr int kPitchFirst = matrix_plane_pitch(kReach + kTileX + kBeyondRing);
  static constexpr int kPlaneFirst = kPitchFirst * (kReach + kTileY + kBeyondRing);
  static constexpr int kSlotsFirst = R + 1;  // planes b..a
  // The first pass at each thread's own pairs, planes b-r..a (2r+1) and one more, so that the z
  // loop's period stays 2r+2: a 16-byte pair a thread, block and plane.
  static constexpr int kHistorySlots = 2 * R + 2;
  static constexpr int kPlanesBytes = (2 * kPlaneIn + kSlotsFirst * kPlaneFirst) * int(sizeof(T));
  static constexpr int kSharedBytes = kPlanesBytes + kHistorySlots * 2 * kThreads * 2 * int(sizeof(T));
  // The halo of `in` loaded point by point: strips r deep beyond the ring, above and below the
  // tile's columns and left and right of its rows, and the ring's four 4 x 4 corners.
  static constexpr int kHaloPoints = 2 * R * (kTileX + kTileY) + 4 * kReach * kReach;
  static constexpr int kHaloPerThread = ceil_div(kHaloPoints, kThreads);
  // The z loop's unrolling: the longest queue (`in`: 2r+1 planes and one ahead), rotating with the
  // two shared planes of `in`, the r+1 of the first pass and the history's 2r+2.
  static constexpr int kUnroll = z_unroll(2 * R + 1 + kAhead, 2, kHistorySlots);
  static_assert(kUnroll % kSlotsFirst == 0, "each plane's shared slot known at compile time");
};

// Warp p's ring pair: 4 rows (or columns) on each of two opposite sides of the tile as one 8x8
// block of products. Pairs p < TileX/8 lie above and below the tile's columns 8p..8p+7 (product
// row g < 4 is tile row g - 4, the others TileY + g - 4), the others left and right of its rows
// 8(p - TileX/8).. (product column n likewise). Here: lane (g, t)'s pair (product row g, columns
// 2t and 2t+1) in tile coordinates, and where its operands start in a plane whose point (x, y) is at
// slot(x, y): along the pair's sides as for any block (block_operands), across them from the first
// side's window of 12 points (the second side's follows it, add_ring_pair_products).
struct RingPair {
  int x, y;
  BlockOperands at;
  bool rows;  // above and below the tile
};
template <class Tile, class Slot>
__device__ __forceinline__ RingPair ring_pair(int p, int g, int t, Slot&& slot) {
  constexpr int R = Tile::R, E = Tile::kReach, AlongX = Tile::kTileX / 8;
  auto beyond = [](int i, int far_side) { return i < E ? i - E : far_side + i - E; };
  if (p < AlongX) {
    const int x = 8 * p, y = beyond(g, Tile::kTileY);
    return {x + 2 * t, y, {slot(x - R + t, y), slot(x + g, -E - R + t)}, true};
  }
  const int y = 8 * (p - AlongX);
  return {
      beyond(2 * t, Tile::kTileX), y + g, {slot(-E - R + t, y + g), slot(beyond(g, Tile::kTileX), y - R + t)}, false};
}

// lap = z_sum + the ring pair's x and y sums from `plane` at lane (g, t)'s pair. Across the sides
// the product's depth is the two sides' windows of 12 one after the other (6 steps, the second
// window SecondX columns or SecondY rows after the first's place), and its band the lane's
// side's: for product rows or columns g < 4 an ordinary block's in steps 0..2, for the others in
// steps 3..5 what an ordinary block's is in steps 1..3 (their window starts 12 deeper, their
// outputs 4 rows or columns further), zero elsewhere.
template <int R, int Pitch, int SecondX, int SecondY>
__device__ __forceinline__ void add_ring_pair_products(const double* plane, const RingPair& pair,
                                                       const BandFragments<R>& band, int g, const double (&z_sum)[2],
                                                       double (&lap)[2]) {
  static_assert(BandFragments<R>::kSteps == 4 && R <= 4, "a window of 16: 12 across a side and 4 more");
  // An ordinary block's band is zero already at step 0 for g >= 4 and at step 3 for g < 4 (r <= 4).
  auto across = [&](const double(&fragments)[4], int s) {
    if (s == 0 || s == 5) return fragments[s == 0 ? 0 : 3];
    return s < 3 ? (g < 4 ? fragments[s] : 0.0) : (g < 4 ? 0.0 : fragments[s - 2]);
  };
  double y_sum[2] = {0, 0};
  lap[0] = z_sum[0], lap[1] = z_sum[1];
  if (pair.rows) {
#pragma unroll
    for (int s = 0; s < 4; ++s) dmma_8x8x4(lap[0], lap[1], plane[pair.at.x + 4 * s], band.x[s]);
#pragma unroll
    for (int s = 0; s < 6; ++s)
      dmma_8x8x4(y_sum[0], y_sum[1], across(band.y, s), plane[pair.at.y + (4 * s + (s < 3 ? 0 : SecondY)) * Pitch]);
  } else {
#pragma unroll
    for (int s = 0; s < 6; ++s)
      dmma_8x8x4(lap[0], lap[1], plane[pair.at.x + 4 * s + (s < 3 ? 0 : SecondX)], across(band.x, s));
#pragma unroll
    for (int s = 0; s < 4; ++s) dmma_8x8x4(y_sum[0], y_sum[1], band.y[s], plane[pair.at.y + 4 * s * Pitch]);
  }
#pragma unroll
  for (int c = 0; c < 2; ++c) lap[c] += y_sum[c];
}

// Point h of the halo of `in` (MatrixPairTile::kHaloPoints), in tile coordinates.
template <class Tile>
__device__ __forceinline__ void pair_halo_point(int h, int& x, int& y) {
  constexpr int R = Tile::R, E = Tile::kReach, TileX = Tile::kTileX, TileY = Tile::kTileY;
  constexpr int Rows = 2 * R * TileX, Columns = 2 * R * TileY;
  if (h < Rows) {
    const int row = h / TileX;
    x = h % TileX;
    y = row < R ? row - E - R : TileY + E + row - R;
  } else if (h < Rows + Columns) {
    const int e = (h - Rows) % (2 * R);
    x = e < R ? e - E - R : TileX + E + e - R;
    y = (h - Rows) / (2 * R);
  } else {
    const int corner = (h - Rows - Columns) / (E * E), i = (h - Rows - Columns) % (E * E);
    x = (corner & 1 ? TileX : -E) + i % E;
    y = (corner & 2 ? TileY : -E) + i / E;
  }
}

// A lane's pairs in `Blocks` blocks (block j's from (x[j], y[j]), grid coordinates) as own_columns'
// offsets: column c = 2j + (0 or 1), and bit c if computed.
template <int R, int Blocks>
__device__ __forceinline__ unsigned block_columns(const GridDims& d, const int (&x)[Blocks], const int (&y)[Blocks],
                                                  int (&at)[2 * Blocks]) {
  unsigned computes = 0;
#pragma unroll
  for (int j = 0; j < Blocks; ++j) {
    int pair_at[2];
    computes |= own_columns<R>(d, x[j], y[j], pair_at) << (2 * j);
    at[2 * j] = pair_at[0], at[2 * j + 1] = pair_at[1];
  }
  return computes;
}

template <class Tile, bool AlignedPairs, bool AddsSource>
__global__ void __launch_bounds__(Tile::kThreads, 1)
    matrix_pairs_kernel(const __grid_constant__ PassArgs<Tile::R, double, 2> a) {
  using T = double;
  constexpr int R = Tile::R, E = Tile::kReach, Q = Tile::kUnroll, SlotsFirst = Tile::kSlotsFirst;
  constexpr int HistorySlots = Tile::kHistorySlots;
  constexpr int PitchIn = Tile::kPitchIn, PitchFirst = Tile::kPitchFirst;
  constexpr int HaloPerThread = Tile::kHaloPerThread, TileX = Tile::kTileX, TileY = Tile::kTileY;
  constexpr int Own = 2, C = 2 * Own;  // blocks and their columns, c = 2j + (0 or 1)
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* const in_planes = reinterpret_cast<T*>(shared_bytes);
  // The first pass's plane of the iteration whose k is `k_plane` modulo SlotsFirst.
  auto first_plane = [&](int k_plane) {
    return in_planes + 2 * Tile::kPlaneIn + (k_plane % SlotsFirst) * Tile::kPlaneFirst;
  };
  const GridDims& d = a.dims;
  const int lane = threadIdx.x, warp = threadIdx.y, thread = warp * 32 + lane;
  // This thread's pair of own block j in the history slot of the iteration whose k is `k_plane`.
  auto history = [&](int k_plane, int j) {
    return reinterpret_cast<Pair<T>*>(shared_bytes + Tile::kPlanesBytes) +
           ((k_plane % HistorySlots) * Own + j) * Tile::kThreads + thread;
  };
  const int g = lane / 4, t = lane % 4;
  const int x0 = Tile::kFirstX + block_tile_x(a.planes) * TileX, y0 = R + block_tile_y(a.planes) * TileY;
  int z_begin, z_end;
  block_planes(a.planes, z_begin, z_end);
  const int a_first = z_begin - R, a_end = z_end + R;  // the first pass's planes, as two_passes.cuh's
  const int stride_y = int(d.stride_y), stride_z = int(d.stride_z);

  auto in_slot = [](int x, int y) { return (y + Tile::kPadIn) * PitchIn + Tile::kPadIn + x; };  // tile coordinates
  auto first_slot = [](int x, int y) { return (y + E) * PitchFirst + E + x; };
  const BandFragments<R> band(a.weights, g, t);

  // The own blocks: where their operands start in both kinds of plane, where the lane's pairs go.
  BlockOperands own_in[Own], own_first[Own];
  int own_in_slot[Own], own_first_slot[Own], own_x[Own], own_y[Own], own_at[C];
#pragma unroll
  for (int j = 0; j < Own; ++j) {
    const int block_x = 8 * (warp % Tile::kWarpsX), block_y = 16 * (warp / Tile::kWarpsX) + 8 * j;
    own_in[j] = block_operands<R>(in_slot, block_x, block_y, g, t);
    own_first[j] = block_operands<R>(first_slot, block_x, block_y, g, t);
    own_in_slot[j] = in_slot(block_x + 2 * t, block_y + g);
    own_first_slot[j] = first_slot(block_x + 2 * t, block_y + g);
    own_x[j] = x0 + block_x + 2 * t, own_y[j] = y0 + block_y + g;
  }
  const unsigned computes = block_columns<R>(d, own_x, own_y, own_at);
  // The ring pair: the lane's pair and its operands.
  const RingPair ring = ring_pair<Tile>(warp, g, t, in_slot);
  const int ring_in_slot = in_slot(ring.x, ring.y), ring_first_slot = first_slot(ring.x, ring.y);
  int ring_at[2];
  const unsigned ring_computes = own_columns<R>(d, x0 + ring.x, y0 + ring.y, ring_at);

  // Every point a product reads must be finite (0 * NaN is NaN): the cells no plane writes are
  // zero from here on, and a point outside the grid holds its plane's first point.
  for (int i = thread; i < Tile::kSharedBytes / int(sizeof(T)); i += Tile::kThreads) in_planes[i] = 0.0;
  __syncthreads();  // the zeros before any plane's stores
  int halo_slot[HaloPerThread], halo_at[HaloPerThread];
#pragma unroll
  for (int i = 0; i < HaloPerThread; ++i) {
    const int h = thread + i * Tile::kThreads;
    int x = 0, y = 0;
    if (h < Tile::kHaloPoints) pair_halo_point<Tile>(h, x, y);
    const bool stored = h < Tile::kHaloPoints && in_grid(d, x0 + x, y0 + y);
    halo_slot[i] = stored ? in_slot(x, y) : -1;
    halo_at[i] = stored ? (y0 + y) * stride_y + x0 + x : 0;
  }

  // The arrays seen from the block's first plane a_first = z_begin - r, as a single pass from u
  // sees them (one_pass.cuh); the queues' first planes run r beyond the grid at its first and last
  // chunks, where a plane outside it reads the grid's nearest plane (as in two_passes.cuh).
  const BlockArrays<R, T, true, AddsSource> v(a, z_begin, stride_z);
  const T* const in = v.in;
  auto plane_at = [&](int p) { return v.plane_at(p); };
  auto clamped_plane_at = [&](int p) { return v.plane_at(min(max(p, 0), d.nz - 1)); };

  T in_q[C][Q], ring_q[2][Q], first_q[C][Q], halo[2][HaloPerThread];
#pragma unroll
  for (int j = 0; j < 2 * R; ++j) {
    load_own<AlignedPairs>(in, clamped_plane_at(a_first - R + j), own_at, in_q, j);
    load_own<AlignedPairs>(in, clamped_plane_at(a_first - R + j), ring_at, ring_q, j);
  }
  // What iteration k (plane za) needs from global memory: the queues' newest plane za + r and the
  // halo of za.
  auto fetch = [&](int k, int za) {
    load_own<AlignedPairs>(in, clamped_plane_at(za + R), own_at, in_q, (k + 2 * R) % Q);
    load_own<AlignedPairs>(in, clamped_plane_at(za + R), ring_at, ring_q, (k + 2 * R) % Q);
#pragma unroll
    for (int i = 0; i < HaloPerThread; ++i) halo[k % 2][i] = in[plane_at(za) + halo_at[i]];
  };
  fetch(0, a_first);

  for (int z0 = a_first;; z0 += Q) {
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const int za = z0 + k, zb = za - R;
      if (za >= a_end) return;  // the same for the whole block
      T* const plane_a = in_planes + (k % 2) * Tile::kPlaneIn;
      T* const first_a = first_plane(k);
      T here[C][2 * R + 1], ring_here[2][2 * R + 1];  // planes a-r..a+r of `in`
      queue_window(in_q, k, here);
      queue_window(ring_q, k, ring_here);
#pragma unroll
      for (int j = 0; j < Own; ++j) store_pair(plane_a + own_in_slot[j], here[2 * j][R], here[2 * j + 1][R]);
      store_pair(plane_a + ring_in_slot, ring_here[0][R], ring_here[1][R]);
#pragma unroll
      for (int i = 0; i < HaloPerThread; ++i)
        if (halo_slot[i] >= 0) plane_a[halo_slot[i]] = halo[k % 2][i];
      if (za + 1 < a_end) fetch(k + 1, za + 1);
      __syncthreads();

      // The first pass on plane a (`in` itself on the boundary layer), own blocks then the ring pair.
      const bool z_inside = za >= R && za < d.nz - R;
#pragma unroll
      for (int j = 0; j < Own; ++j) {
        T lap[2];
        block_laplacians<R, PitchIn>(plane_a, own_in[j], band, a.weights, &here[2 * j], lap);
#pragma unroll
        for (int c = 2 * j; c < 2 * j + 2; ++c)
          first_q[c][k] = pass_value(z_inside && (computes & (1u << c)), here[c][R], a.c[0], lap[c - 2 * j]);
        store_pair(first_a + own_first_slot[j], first_q[2 * j][k], first_q[2 * j + 1][k]);
        *history(k, j) = Pair<T>{first_q[2 * j][k], first_q[2 * j + 1][k]};
      }
      {
        T z_sum[2], lap[2], first[2];
        block_z_sums<R>(a.weights, ring_here, z_sum);
        add_ring_pair_products<R, PitchIn, TileX - 8, TileY - 8>(plane_a, ring, band, g, z_sum, lap);
#pragma unroll
        for (int e = 0; e < 2; ++e)
          first[e] = pass_value(z_inside && (ring_computes & (1u << e)), ring_here[e][R], a.c[0], lap[e]);
        store_pair(first_a + ring_first_slot, first[0], first[1]);
      }
      if (zb < z_begin) continue;  // the first 2r planes a fill the queues (uniform across the block)
      [[maybe_unused]] T source[C][1];
      if constexpr (AddsSource) load_own<AlignedPairs>(v.add, plane_at(zb), own_at, source, 0);

      // The second pass on plane b at the own blocks: the z window's planes b-r..b-1 from the
      // history, b+1..b+r from the register queue (its centre rides in Bx).
      T first_here[C][2 * R + 1];
#pragma unroll
      for (int c = 0; c < C; ++c) {
        first_here[c][R] = 0;
#pragma unroll
        for (int dist = 1; dist <= R; ++dist) first_here[c][R + dist] = first_q[c][(k + Q - R + dist) % Q];
      }
#pragma unroll
      for (int j = 0; j < Own; ++j)
#pragma unroll
        for (int dist = 1; dist <= R; ++dist) {
          const Pair<T> older = *history(k + HistorySlots - R - dist, j);
          first_here[2 * j][R - dist] = older.x, first_here[2 * j + 1][R - dist] = older.y;
        }
      T result[C];
#pragma unroll
      for (int j = 0; j < Own; ++j) {
        T lap[2];
        block_laplacians<R, PitchFirst>(first_plane(k + SlotsFirst - R), own_first[j], band, a.weights,
                                        &first_here[2 * j], lap);
#pragma unroll
        for (int c = 2 * j; c < 2 * j + 2; ++c) {
          if constexpr (AddsSource)
            result[c] = pass_value_adding(computes & (1u << c), here[c][0], a.c[1], lap[c - 2 * j], source[c][0]);
          else
            result[c] = pass_value(computes & (1u << c), here[c][0], a.c[1], lap[c - 2 * j]);
        }
      }
      store_own<AlignedPairs>(v.out, plane_at(zb), own_at, computes, result);
    }
  }
}

// As TwoPasses (the same planes read and written), the kernel above, its planes in dynamic shared
// memory (over 48 KB).
template <class PairedTile, bool AddsSource = false>
struct MatrixPairs : TwoPasses<PairedTile, AddsSource> {
  static constexpr int kDynamicSharedBytes = PairedTile::kSharedBytes;
  template <bool AlignedPairs>
  static auto kernel() {
    return matrix_pairs_kernel<PairedTile, AlignedPairs, AddsSource>;
  }
};

}  // namespace heat
