// What the 2.5D pass kernels (one_pass.cuh, one_pass_copy_engine.cuh, two_passes.cuh,
// four_passes.cuh) share. Each thread owns an x pair of columns in M rows of its tile: the pair
// is one 8-byte (float) or 16-byte (double) access where rows have an even length, its x
// neighbours come from a shared plane two at a time, and the y neighbours among its own rows from
// registers. Here: the tile, the kernels' arguments, and the pieces of their z loops.
#pragma once

#include "backends/cuda/cuda_backend.cuh"
#include "backends/cuda/vector_types.cuh"
#include "core/step_planes.hpp"
#include "stencils/rk4_forms.hpp"
#include "stencils/stencil.hpp"

namespace heat {

template <typename T>
using Pair = VectorOf<T, 2>;

// p must be aligned to a pair.
template <typename T>
__device__ __forceinline__ Pair<T> load_pair(const T* p) {
  return *reinterpret_cast<const Pair<T>*>(p);
}
template <typename T>
__device__ __forceinline__ void store_pair(T* p, T first, T second) {
  *reinterpret_cast<Pair<T>*>(p) = Pair<T>{first, second};
}

// The tile of the one- and two-pass kernels (and the copy engine's): TX x TY
// threads, each owning an x pair of columns in M rows, so an output tile of (2*TX) x (TY*M)
// columns; MinBlocks the blocks per SM the registers must allow (0: no bound).
template <int Radius, typename Value, int TX, int TY, int M, int MinBlocks>
struct ColumnPairTile {
  using T = Value;
  static constexpr int R = Radius;
  static constexpr int kThreadsX = TX, kThreadsY = TY, kRows = M;
  static constexpr int kTileX = 2 * TX, kTileY = TY * M;
  static constexpr int kThreads = TX * TY;
  static constexpr int kMinBlocks = MinBlocks;
  // The first tile starts at column 0, not at the interior's first (r), so that where a row is a
  // multiple of 8 floats every tile row's loads start on a 32-byte sector and touch no sector
  // more than they need; the price is a column of tiles that overlaps the boundary layer.
  static constexpr int kFirstX = 0;
  static_assert(kFirstX % 2 == 0, "own pairs start on even columns: the vector accesses need it");
  static_assert(TX % 16 == 0 && kThreads <= 1024, "a warp spans 32 columns or more, at most 1024 threads");
};

// How far either side of its pair a thread reads x neighbours as pairs: r rounded up to even, so a
// shared plane's x halo of that width keeps every pair aligned.
__host__ __device__ constexpr int pair_reach(int r) { return (r + 1) / 2 * 2; }

// Point h of a ring of strips `depth` deep around a tile_x x tile_y tile, as (x, y) from the tile's
// first column and row: first the strips above and below, rows of `row_width` points from column
// `row_x` (whole rows, coalesced loads), then the strips left and right of the tile's rows. Both
// 2.5D kernels spread their halo (and the pairs their ring) over a block this way.
__device__ __forceinline__ void ring_point(int h, int depth, int row_x, int row_width, int tile_x, int tile_y, int& x,
                                           int& y) {
  const int row_points = 2 * depth * row_width;
  if (h < row_points) {
    const int row = h / row_width;
    x = row_x + h % row_width;
    y = row < depth ? row - depth : tile_y + row - depth;
  } else {
    const int e = (h - row_points) % (2 * depth);
    y = (h - row_points) / (2 * depth);
    x = e < depth ? e - depth : tile_x + e - depth;
  }
}

// How many times a 2.5D kernel unrolls its z loop so that every rotating slot of a plane is known
// at compile time: the smallest common multiple of two rotations' periods that holds the longest
// queue (`span` slots).
constexpr int z_unroll(int span, int period_a, int period_b) {
  int common = period_a;
  while (common % period_b) common += period_a;
  return ceil_div(span, common) * common;
}

// a*Lap at the thread's own pair of columns in M rows of a shared plane (rows Pitch apart, own_slot the
// pair's first column in its first row), the z neighbours from queue: x neighbours two at a time,
// the y neighbours among the own rows from registers.
template <int R, int M, int Pitch, typename T, int C, int Q>
__device__ __forceinline__ void pair_laplacians(const T* plane, int own_slot, const T (&queue)[C][Q],
                                                const StencilWeights<R, T>& w, T (&lap)[C]) {
  constexpr int Reach = pair_reach(R);
  auto pair_at = [&](int row, int column_offset) { return load_pair(plane + own_slot + row * Pitch + column_offset); };
  T x_side[M][2 * Reach], y_side[2 * R][2];
#pragma unroll
  for (int m = 0; m < M; ++m)
#pragma unroll
    for (int p = 0; p < Reach; p += 2) {
      const Pair<T> left = pair_at(m, p - Reach), right = pair_at(m, 2 + p);
      x_side[m][p] = left.x, x_side[m][p + 1] = left.y;
      x_side[m][Reach + p] = right.x, x_side[m][Reach + p + 1] = right.y;
    }
#pragma unroll
  for (int i = 0; i < R; ++i) {
    const Pair<T> below = pair_at(i - R, 0), above = pair_at(M + i, 0);
    y_side[i][0] = below.x, y_side[i][1] = below.y;
    y_side[R + i][0] = above.x, y_side[R + i][1] = above.y;
  }
  auto x_at = [&](int m, int e) {
    return e == 0 || e == 1 ? queue[2 * m + e][R] : x_side[m][e < 0 ? Reach + e : Reach + e - 2];
  };
  auto y_at = [&](int r, int j) {
    return r >= 0 && r < M ? queue[2 * r + j][R] : y_side[r < 0 ? R + r : R + r - M][j];
  };
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int m = c / 2, j = c % 2;
    lap[c] = apply_stencil<R, T>(w, queue[c][R], [&](int axis, int dist) {
      if (axis == 0) return x_at(m, j + dist) + x_at(m, j - dist);
      if (axis == 1) return y_at(m + dist, j) + y_at(m - dist, j);
      return queue[c][R + dist] + queue[c][R - dist];
    });
  }
}

// The Window = 2r+1 planes of a z queue rotating through Q slots that start at slot `first`, oldest
// first: with `first` known at compile time (an unrolled z loop), a renaming, not a copy.
template <int Window, typename T, int C, int Q>
__device__ __forceinline__ void queue_window(const T (&queue)[C][Q], int first, T (&window)[C][Window]) {
#pragma unroll
  for (int c = 0; c < C; ++c)
#pragma unroll
    for (int q = 0; q < Window; ++q) window[c][q] = queue[c][(first + q) % Q];
}

// A thread's share of a shared plane: its own pairs of columns in M rows Pitch apart (the centre of
// each column's window) and its halo points (slot -1: none).
template <int M, int Pitch, typename T, int C, int Window, int HaloPoints>
__device__ __forceinline__ void store_plane_share(T* plane, int own_slot, const T (&window)[C][Window],
                                                  const int (&halo_slot)[HaloPoints], const T (&halo)[HaloPoints]) {
  constexpr int centre = Window / 2;
#pragma unroll
  for (int m = 0; m < M; ++m)
    store_pair(plane + own_slot + m * Pitch, window[2 * m][centre], window[2 * m + 1][centre]);
#pragma unroll
  for (int i = 0; i < HaloPoints; ++i)
    if (halo_slot[i] >= 0) plane[halo_slot[i]] = halo[i];
}

// p + offset, as a pointer whose origin the optimiser cannot see (an empty asm), still known to be
// global memory: a kernel that takes its view of the arrays once then indexes it in 32
// bits, where the optimiser would otherwise fold the offset back into a 64-bit index per access.
template <typename T>
__device__ __forceinline__ T* view_at(T* p, long long offset) {
  T* view = p + offset;
  asm volatile("" : "+l"(view));
  __builtin_assume(__isGlobal(view));
  return view;
}

// The planes a launch writes: one or two ranges within [r, nz - r) (two for the planes beside a
// box's ghost planes on both sides, so that both run in one launch), each cut into chunks of
// `chunk` planes, one per block along z; blocks [0, first_blocks) take the first range's chunks.
// Along x and y block (i, j) takes tile (first_tile_x + i, first_tile_y + j) of those covering the
// plane: all of them from (0, 0), or a share of the columns (core/step_columns.hpp).
struct LaunchPlanes {
  PlaneRange first, second;
  int chunk, first_blocks;
  int skip;  // planes from where the first range's chunks would go on to the second range's first
  int first_tile_x = 0, first_tile_y = 0;
};

// What a 2.5D pass kernel (one, two or four passes per kernel) reads and
// writes: from `in`, `Passes` passes v = u + c[i] * a*Lap(v before), the last into `out`. `in` is
// u itself for a pass whose base is its operand (the first of a factor, a factor per kernel).
template <int R, typename T, int Passes>
struct PassArgs {
  GridDims dims;
  StencilWeights<R, T> weights;
  const T* in;
  const T* u;
  T c[Passes];
  T* out;               // never `in`; `u` only where a pass reads u at no point but the one it writes
  LaunchPlanes planes;  // set by the launcher
  // A steady source's step increment, added after the last pass at each computed point: read by a
  // kernel built to add it (AddsSource) alone. Last, so that the other kernels' arguments lie
  // where they did.
  const T* add = nullptr;
};

// The tile of the plane's tiles that this block writes, along x and along y.
__device__ __forceinline__ int block_tile_x(const LaunchPlanes& p) { return p.first_tile_x + int(blockIdx.x); }
__device__ __forceinline__ int block_tile_y(const LaunchPlanes& p) { return p.first_tile_y + int(blockIdx.y); }

// The planes [begin, end) that this block writes.
__device__ __forceinline__ void block_planes(const LaunchPlanes& p, int& begin, int& end) {
  const int block = int(blockIdx.z);
  const bool second = block >= p.first_blocks;
  begin = p.first.first + block * p.chunk + (second ? p.skip : 0);
  end = min(begin + p.chunk, second ? p.second.last : p.first.last);
}

// A pass's value at a point: u + c * a*Lap where the point is computed; u elsewhere, which
// is the value there of every field a pass writes (they carry u's boundary layer).
template <typename T>
__device__ __forceinline__ T pass_value(bool computed, T u, T c, T lap) {
  return computed ? base_plus_lap(u, c, lap) : u;
}

// The step's last pass with a steady source: its value plus the source's step increment `add`
// where the point is computed (the fast cpu backend's order of the two adds); u elsewhere, bitwise.
template <typename T>
__device__ __forceinline__ T pass_value_adding(bool computed, T u, T c, T lap, T add) {
  return computed ? base_plus_lap(u, c, lap) + add : u;
}

// u at a thread's own columns: the centres of their z windows where the pass reads u itself
// (FromU), else u loaded ahead, from `slot`.
template <bool FromU, typename T, int C, int Window, int Slots>
__device__ __forceinline__ void own_u(const T (&here)[C][Window], const T (&u_ahead)[C][Slots], int slot, T (&u)[C]) {
#pragma unroll
  for (int c = 0; c < C; ++c) u[c] = FromU ? here[c][Window / 2] : u_ahead[c][slot];
}

// A single pass's values at a thread's own columns (pass_value; pass_value_adding the source's
// increment `source` in the pass built to add it, AddsSource).
template <bool AddsSource, typename T, int C>
__device__ __forceinline__ void pass_values(unsigned computes, const T (&u)[C], T c, const T (&lap)[C],
                                            const T (&source)[C][1], T (&result)[C]) {
#pragma unroll
  for (int i = 0; i < C; ++i) {
    if constexpr (AddsSource)
      result[i] = pass_value_adding(computes & (1u << i), u[i], c, lap[i], source[i][0]);
    else
      result[i] = pass_value(computes & (1u << i), u[i], c, lap[i]);
  }
}

__device__ __forceinline__ bool in_grid(const GridDims& d, int x, int y) {
  return x >= 0 && x < d.nx && y >= 0 && y < d.ny;
}
template <int R>
__device__ __forceinline__ bool in_interior(const GridDims& d, int x, int y) {
  return x >= R && x < d.nx - R && y >= R && y < d.ny - R;
}

// A thread's own columns c = 2*row + (0 or 1) from (gx, gy0) as offsets within a plane, and which
// of them are computed (bit c). Instead of predicated loads, a column outside the grid reads its
// plane's first point: its value reaches only stencils that are never computed, so is never stored.
template <int R, int C>
__device__ __forceinline__ unsigned own_columns(const GridDims& d, int gx, int gy0, int (&own_at)[C]) {
  unsigned computes = 0;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int x = gx + c % 2, y = gy0 + c / 2;
    own_at[c] = in_grid(d, x, y) ? y * int(d.stride_y) + x : 0;
    if (in_interior<R>(d, x, y)) computes |= 1u << c;
  }
  return computes;
}

// How load_own and store_own address an own pair: the plane's offset and the pair's each added to
// the pointer (the pairs' offsets held in 64 bits across the z loop), or the two added in 32 bits
// first (a widening per access, the offsets held in 32 bits). Which takes fewer registers depends
// on the kernel (ptxas -v): the four-pass kernel spills with the first; the copy engine's pass from
// u at order 6 in double takes 71 registers with the second, 64 with the first. Both stay within
// the 32-bit offsets the launcher guarantees; single columns always take the sum.
enum class PairOffsets { kEachToPointer, kSummed };

template <PairOffsets Offsets, typename T>
__device__ __forceinline__ T* own_pair(T* array, int plane, int own) {
  return Offsets == PairOffsets::kSummed ? array + (plane + own) : array + plane + own;
}

// An array's own columns on the plane at offset `plane` into slot s of a queue. AlignedPairs: every
// own pair starts on a pair boundary (rows of even length, tiles from an even column, the array
// aligned to a pair), so each pair is one 8- or 16-byte access instead of two.
template <bool AlignedPairs, PairOffsets Offsets = PairOffsets::kEachToPointer, typename T, int C, int Q>
__device__ __forceinline__ void load_own(const T* array, int plane, const int (&own_at)[C], T (&queue)[C][Q], int s) {
#pragma unroll
  for (int m = 0; m < C / 2; ++m) {
    if constexpr (AlignedPairs) {
      const Pair<T> pair = load_pair(own_pair<Offsets>(array, plane, own_at[2 * m]));
      queue[2 * m][s] = pair.x, queue[2 * m + 1][s] = pair.y;
    } else {
      queue[2 * m][s] = array[plane + own_at[2 * m]], queue[2 * m + 1][s] = array[plane + own_at[2 * m + 1]];
    }
  }
}

// The computed own columns' results to the plane at offset `plane`. A pair with one column on the
// boundary layer stores there what `result` holds for it, u: the value the array already holds
// (every field a pass writes carries u's boundary layer). So the store stays one predicated
// instruction, where choosing between a pair and a column would branch.
template <bool AlignedPairs, PairOffsets Offsets = PairOffsets::kEachToPointer, typename T, int C>
__device__ __forceinline__ void store_own(T* array, int plane, const int (&own_at)[C], unsigned computes,
                                          const T (&result)[C]) {
#pragma unroll
  for (int m = 0; m < C / 2; ++m) {
    if constexpr (AlignedPairs) {
      if (computes & (3u << (2 * m)))
        store_pair(own_pair<Offsets>(array, plane, own_at[2 * m]), result[2 * m], result[2 * m + 1]);
    } else {
#pragma unroll
      for (int c = 2 * m; c < 2 * m + 2; ++c)
        if (computes & (1u << c)) array[plane + own_at[c]] = result[c];
    }
  }
}

}  // namespace heat
