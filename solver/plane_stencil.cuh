// One Horner pass (linear_stages.cuh's v = u + c * a*Lap(in)) in 2.5D: the shared-memory
// counterpart of global_stencil.cuh's kernel. tiled runs the step's four passes through it (its
// "horner" configurations) at order 8, and at order 6 in double, where two passes per kernel
// (paired_passes.cuh) cost more recompute than the traffic they save. What both 2.5D kernels share
// is here too: the tile, the arguments, the own columns' accesses (as pairs where rows have an even
// length: t16 made order 8 float 7% faster with them and tiles from column 0), the launcher.
//
// A block owns an output tile of interior columns and marches along z over a chunk of planes.
// Each plane of the operand goes to shared memory with a halo of r on the four sides (a star
// stencil needs no corners); z neighbours stay in registers. Thread (tx, ty) owns an x pair of
// columns in M consecutive rows, so its x neighbours come two at a time (8- or 16-byte shared
// loads), and the y neighbours among its own rows come from registers: per point, r/2 + r/M
// two-wide shared loads (rounded up) instead of 4r scalar ones. Everything a plane needs from
// global memory (the queue's new plane, the halo, the arrays the result is formed with) is loaded
// one or two planes ahead (Tile::kAhead), so its latency overlaps the arithmetic of the planes
// before it.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "solver/column_pairs.cuh"
#include "solver/cuda_backend.cuh"
#include "solver/z_split.cuh"
#include "stencils/stencil.hpp"

namespace heat {

// What the tiles of both 2.5D pass kernels (this one and paired_passes.cuh's) share: TX x TY
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
  // multiple of 8 floats every tile row's loads start on a 32-byte sector (t14: the pairs 2-3%
  // faster at 600^3 than from column r), for a column of tiles that overlaps the boundary layer.
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

// Two planes ahead in float fit 64 registers per thread with 1024 threads per SM (without the
// bound ptxas takes 74-80, and loses a quarter or half of the warps); in double they would spill.
template <typename T, int Ahead, int Threads>
constexpr int plane_min_blocks() {
  return Ahead > 1 && sizeof(T) == sizeof(float) ? 1024 / Threads : 0;
}

// How many times a 2.5D kernel unrolls its z loop so that every rotating slot of a plane is known
// at compile time: the smallest common multiple of two rotations' periods that holds the longest
// queue (`span` slots).
constexpr int z_unroll(int span, int period_a, int period_b) {
  int common = period_a;
  while (common % period_b) common += period_a;
  return ceil_div(span, common) * common;
}

template <int Radius, typename Value, int TX, int TY, int M, int Ahead = 1>
struct PlaneTile : ColumnPairTile<Radius, Value, TX, TY, M, plane_min_blocks<Value, Ahead, TX * TY>()> {
  using Base = ColumnPairTile<Radius, Value, TX, TY, M, plane_min_blocks<Value, Ahead, TX * TY>()>;
  using Base::R, Base::kTileX, Base::kTileY, Base::kThreads;
  using typename Base::T;
  static constexpr int kAhead = Ahead;  // planes loaded ahead of the one being computed
  // The x halo is padded to an even width so that every pair a thread reads is aligned.
  static constexpr int kPad = pair_reach(R);
  static constexpr int kPitch = kTileX + 2 * kPad;
  static constexpr int kPlane = kPitch * (kTileY + 2 * R);
  static constexpr int kHaloPoints = 2 * R * (kTileX + kTileY);  // strips above, below, left, right
  static constexpr int kHaloPerThread = ceil_div(kHaloPoints, kThreads);
  // Two planes, alternated along z, so one barrier per plane keeps writes off a plane in use.
  static constexpr int kSharedBytes = 2 * kPlane * int(sizeof(T));
  static_assert(kSharedBytes <= 48 * 1024, "static shared memory is limited to 48 KB");
  // The z loop's unrolling (the kernel says why): the queue's 2r+1 planes and A ahead, rotating
  // with the two shared planes and the A+1 slots of what is loaded ahead.
  static constexpr int kUnroll = z_unroll(2 * R + 1 + Ahead, 2, Ahead + 1);
};

// a*Lap at the thread's own pair of columns in M rows of a shared plane (pitch P, own_slot the
// pair's first column in its first row), the z neighbours from queue: x neighbours two at a time,
// the y neighbours among the own rows from registers.
template <int R, int M, int P, typename T, int C, int Q>
__device__ __forceinline__ void pair_laplacians(const T* plane, int own_slot, const T (&queue)[C][Q],
                                                const StencilWeights<R, T>& w, T (&lap)[C]) {
  constexpr int K = pair_reach(R);
  auto pair_at = [&](int row, int column_offset) { return load_pair(plane + own_slot + row * P + column_offset); };
  T x_side[M][2 * K], y_side[2 * R][2];
#pragma unroll
  for (int m = 0; m < M; ++m)
#pragma unroll
    for (int p = 0; p < K; p += 2) {
      const Pair<T> left = pair_at(m, p - K), right = pair_at(m, 2 + p);
      x_side[m][p] = left.x, x_side[m][p + 1] = left.y;
      x_side[m][K + p] = right.x, x_side[m][K + p + 1] = right.y;
    }
#pragma unroll
  for (int i = 0; i < R; ++i) {
    const Pair<T> below = pair_at(i - R, 0), above = pair_at(M + i, 0);
    y_side[i][0] = below.x, y_side[i][1] = below.y;
    y_side[R + i][0] = above.x, y_side[R + i][1] = above.y;
  }
  auto x_at = [&](int m, int e) {
    return e == 0 || e == 1 ? queue[2 * m + e][R] : x_side[m][e < 0 ? K + e : K + e - 2];
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

// The 2r+1 planes (W) of a z queue rotating through Q slots that start at slot `first`, oldest
// first: with `first` known at compile time (an unrolled z loop), a renaming, not a copy.
template <int W, typename T, int C, int Q>
__device__ __forceinline__ void queue_window(const T (&queue)[C][Q], int first, T (&window)[C][W]) {
#pragma unroll
  for (int c = 0; c < C; ++c)
#pragma unroll
    for (int q = 0; q < W; ++q) window[c][q] = queue[c][(first + q) % Q];
}

// A thread's share of a shared plane: its own pairs of columns in M rows of pitch P (the centre of
// each column's window) and its halo points (slot -1: none).
template <int M, int P, typename T, int C, int W, int H>
__device__ __forceinline__ void store_plane_share(T* plane, int own_slot, const T (&window)[C][W],
                                                  const int (&halo_slot)[H], const T (&halo)[H]) {
  constexpr int centre = W / 2;
#pragma unroll
  for (int m = 0; m < M; ++m) store_pair(plane + own_slot + m * P, window[2 * m][centre], window[2 * m + 1][centre]);
#pragma unroll
  for (int i = 0; i < H; ++i)
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

// What a 2.5D kernel of Horner passes (this one, and paired_passes.cuh's two per kernel) reads and
// writes: from `in`, `Passes` passes v = u + c[i] * a*Lap(v before), the last into `out`. `in` is
// u itself for the step's first pass.
template <int R, typename T, int Passes>
struct PassArgs {
  GridDims dims;
  StencilWeights<R, T> weights;
  const T* in;
  const T* u;
  T c[Passes];
  T* out;  // never `in`; `u` only where a pass reads u at no point but the one it writes
  int z_chunk;
};

// A Horner pass's value at a point: u + c * a*Lap where the point is computed; u elsewhere, which
// is the value there of every field a pass writes (they carry u's boundary layer).
template <typename T>
__device__ __forceinline__ T pass_value(bool computed, T u, T c, T lap) {
  return computed ? stage_input(u, c, lap) : u;
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

// An array's own columns on the plane at offset `plane` into slot s of a queue. AlignedPairs: every
// own pair starts on a pair boundary (rows of even length, tiles from an even column, the array
// aligned to a pair), so each pair is one 8- or 16-byte access instead of two.
template <bool AlignedPairs, typename T, int C, int Q>
__device__ __forceinline__ void load_own(const T* array, int plane, const int (&own_at)[C], T (&queue)[C][Q], int s) {
#pragma unroll
  for (int m = 0; m < C / 2; ++m) {
    if constexpr (AlignedPairs) {
      const Pair<T> pair = load_pair(array + plane + own_at[2 * m]);
      queue[2 * m][s] = pair.x, queue[2 * m + 1][s] = pair.y;
    } else {
      queue[2 * m][s] = array[plane + own_at[2 * m]], queue[2 * m + 1][s] = array[plane + own_at[2 * m + 1]];
    }
  }
}

// The computed own columns' results to the plane at offset `plane`. A pair with one column on the
// boundary layer stores there what `result` holds for it, u: the value the array already holds
// (every field a pass writes carries u's boundary layer). So the store stays one predicated
// instruction, where choosing between a pair and a column would branch (t15).
template <bool AlignedPairs, typename T, int C>
__device__ __forceinline__ void store_own(T* array, int plane, const int (&own_at)[C], unsigned computes,
                                          const T (&result)[C]) {
#pragma unroll
  for (int m = 0; m < C / 2; ++m) {
    if constexpr (AlignedPairs) {
      if (computes & (3u << (2 * m))) store_pair(array + plane + own_at[2 * m], result[2 * m], result[2 * m + 1]);
    } else {
#pragma unroll
      for (int c = 2 * m; c < 2 * m + 2; ++c)
        if (computes & (1u << c)) array[plane + own_at[c]] = result[c];
    }
  }
}

// One Horner pass: FromU, `in` is u itself (the step's first pass), so u at the point is the
// queue's centre; otherwise u is loaded too, at the own columns, ahead like everything else.
template <class Tile, bool FromU, bool AlignedPairs>
__global__ void __launch_bounds__(Tile::kThreads, Tile::kMinBlocks)
    plane_stencil_kernel(const __grid_constant__ PassArgs<Tile::R, typename Tile::T, 1> a) {
  using T = typename Tile::T;
  constexpr int R = Tile::R, M = Tile::kRows, P = Tile::kPitch, H = Tile::kHaloPerThread, K = Tile::kPad;
  constexpr int TX = Tile::kTileX, C = 2 * M;  // own column c = 2*row + (0 or 1)
  __shared__ __align__(16) T planes[2][Tile::kPlane];
  const GridDims& d = a.dims;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = Tile::kFirstX + int(blockIdx.x) * TX, y0 = R + int(blockIdx.y) * Tile::kTileY;
  const int z_begin = R + int(blockIdx.z) * a.z_chunk;
  const int z_end = min(z_begin + a.z_chunk, d.nz - R);
  const int stride_y = int(d.stride_y), stride_z = int(d.stride_z);

  int own_at[C];
  const unsigned computes = own_columns<R>(d, x0 + 2 * tx, y0 + ty * M, own_at);
  const int own_slot = (ty * M + R) * P + K + 2 * tx;  // the pair's first column; row m adds m*P

  // The halo points this thread loads, spread over the block: strips above and below the tile
  // first (whole rows, coalesced), then the strips left and right. -1: no point.
  int halo_slot[H];
  int halo_at[H];
#pragma unroll
  for (int i = 0; i < H; ++i) {
    const int h = ty * Tile::kThreadsX + tx + i * Tile::kThreads;
    int x, y;
    ring_point(h, R, 0, TX, TX, Tile::kTileY, x, y);
    const bool stored = h < Tile::kHaloPoints && in_grid(d, x0 + x, y0 + y);
    halo_slot[i] = stored ? (y + R) * P + K + x : -1;
    // A point outside the grid loads the plane's first point instead (no predicate) and is never stored.
    halo_at[i] = stored ? (y0 + y) * stride_y + x0 + x : 0;
  }

  // The arrays seen from the block's first plane, z_begin - r: every index the block needs fits
  // 32 bits (the launcher keeps its chunk of planes under INT_MAX points), so each access is one
  // 32-bit add from a per-block base, and the unrolled planes' offsets are uniform registers.
  const long long block_at = (long long)(z_begin - R) * d.stride_z;
  const T* const in = view_at(a.in, block_at);
  const T* const u = FromU ? in : view_at(a.u, block_at);
  T* const out = view_at(a.out, block_at);
  auto plane_at = [&](int z) { return (z - z_begin + R) * stride_z; };

  // The z queues of the own columns in Q slots: the 2r+1 planes plane z's stencil needs and the A
  // loading for planes z+1..z+A (A = Tile::kAhead). The z loop is unrolled Q times and plane z0+k
  // (k = 0..Q-1) finds plane z+q (q = -r..r) in slot (k+r+q) % Q, so the queue slides by renaming,
  // not by 2r moves per column; what each plane needs besides the queue (its halo, u at the own
  // columns) rotates through A+1 slots the same way, so Q is a multiple of A+1 (and even: the
  // shared planes alternate).
  constexpr int A = Tile::kAhead, Q = Tile::kUnroll;
  T queue[C][Q], halo[A + 1][H], u_ahead[C][A + 1];
  auto fetch = [&](int slot, int newest_slot, int z) {  // plane z's halo and u, plane z + r
    load_own<AlignedPairs>(in, plane_at(z + R), own_at, queue, newest_slot);
    if constexpr (!FromU) load_own<AlignedPairs>(u, plane_at(z), own_at, u_ahead, slot);
#pragma unroll
    for (int i = 0; i < H; ++i) halo[slot][i] = in[plane_at(z) + halo_at[i]];
  };
#pragma unroll
  for (int q = 0; q < 2 * R; ++q) load_own<AlignedPairs>(in, plane_at(z_begin - R + q), own_at, queue, q);
#pragma unroll
  for (int j = 0; j < A; ++j)
    if (j == 0 || z_begin + j < z_end) fetch(j, 2 * R + j, z_begin + j);  // a chunk has a plane or more

  for (int z0 = z_begin;; z0 += Q) {
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const int z = z0 + k;
      if (z >= z_end) return;  // the same for the whole block
      T* const plane = planes[k & 1];
      T here[C][2 * R + 1];  // this plane's z queue, oldest first
      queue_window(queue, k, here);
      store_plane_share<M, P>(plane, own_slot, here, halo_slot, halo[k % (A + 1)]);
      if (z + A < z_end) fetch((k + A) % (A + 1), (k + 2 * R + A) % Q, z + A);
      __syncthreads();

      // The neighbours from the shared plane, two at a time (x pairs, and the pairs of the r rows
      // above and below).
      T lap[C], result[C];
      pair_laplacians<R, M, P>(plane, own_slot, here, a.weights, lap);
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const T u_here = FromU ? here[c][R] : u_ahead[c][k % (A + 1)];
        result[c] = pass_value(computes & (1u << c), u_here, a.c[0], lap[c]);
      }
      store_own<AlignedPairs>(out, plane_at(z), own_at, computes, result);
    }
  }
}

// A 2.5D kernel's launches over a grid's interior: the tiles and the z split, fixed per grid, and
// the kernel that loads and stores the own pairs as single accesses where the rows have an even
// length and the arrays are aligned to a pair (Kernels::kernel<true>), the scalar one otherwise.
// Kernels also names the Tile, the Args, how far a block reads beyond its chunk of planes and the
// dynamic shared memory a block takes (0: its planes are static).
template <class Kernels>
class TileLauncher {
  using Tile = typename Kernels::Tile;
  using Args = typename Kernels::Args;
  static constexpr int kShared = Kernels::kDynamicSharedBytes;

 public:
  TileLauncher(const Grid& g, int device)
      : even_rows_(g.nx % 2 == 0),
        plan_(plan_plane_launch(g, Tile::R, Tile::kFirstX, Tile::kTileX, Tile::kTileY, slots(even_rows_, device),
                                Kernels::kRefill, Kernels::kBeyond)) {}

  void launch(Args args) const {
    args.z_chunk = plan_.z_chunk;
    const bool aligned = even_rows_ && pair_aligned(args.in) && pair_aligned(args.u) && pair_aligned(args.out);
    kernel(aligned)<<<plan_.blocks, dim3(Tile::kThreadsX, Tile::kThreadsY), kShared>>>(args);
    HEAT_CUDA_CHECK_LAUNCH();
  }

 private:
  static auto kernel(bool aligned_pairs) {
    return aligned_pairs ? Kernels::template kernel<true>() : Kernels::template kernel<false>();
  }
  // The blocks the GPU runs at once, both kernels first allowed dynamic shared memory beyond 48 KB.
  static long long slots(bool even_rows, int device) {
    if constexpr (kShared > 48 * 1024)
      for (bool aligned_pairs : {false, true})
        HEAT_CUDA_CHECK(
            cudaFuncSetAttribute(kernel(aligned_pairs), cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
    return resident_blocks(kernel(even_rows), Tile::kThreads, kShared, device);
  }
  template <typename T>
  static bool pair_aligned(const T* p) {
    return reinterpret_cast<std::uintptr_t>(p) % sizeof(Pair<T>) == 0;
  }

  bool even_rows_;
  PlaneLaunch plan_;
};

// One Horner pass per kernel: the block reads the r planes either side of its chunk (2r to fill
// its queue first).
template <class PassTile, bool FromU>
struct PlaneStencil {
  using Tile = PassTile;
  using Args = PassArgs<Tile::R, typename Tile::T, 1>;
  static constexpr int kRefill = 2 * Tile::R, kBeyond = 2 * Tile::R;
  static constexpr int kDynamicSharedBytes = 0;
  template <bool AlignedPairs>
  static auto kernel() {
    return plane_stencil_kernel<Tile, FromU, AlignedPairs>;
  }
};

}  // namespace heat
