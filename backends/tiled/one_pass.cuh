// One pass of the step (rk4_forms.hpp: v = u + c * a*Lap(in)) as a 2.5D kernel.
// Four launches of it are the order-8 float step (tiled.cu's table); the copy-engine passes of
// order 6 and 8 double fall back to it where the copy engine cannot read the grid's rows.
//
// The kernel has the shape of NVIDIA's FDTD3d sample:
// - The tile. A block owns an output tile of (2*TX) x (TY*M) interior columns and marches along z
//   over a chunk of planes; the launcher (tile_launcher.cuh) splits z between blocks only as far as
//   it takes to fill the GPU. Thread (tx, ty) owns an x pair of columns in M consecutive rows.
// - The z queue. For each own column the thread keeps in registers the 2r+1 planes of `in` that
//   the stencil needs along z, plus the planes it is loading ahead. The z loop is unrolled so that
//   the queue slides by renaming registers, not by moving 2r values per column.
// - The halo. Each plane of `in` goes to shared memory: the own columns from the queues' centres,
//   and a halo of r on the four sides (a star stencil needs no corners) that the block's threads
//   load in turn. One barrier per plane; two shared planes alternate, so the next plane's stores
//   never overwrite one still being read.
// - The stencil. x neighbours from the shared plane two at a time (8- or 16-byte loads), y
//   neighbours among the own rows from registers and the others from the shared plane, z
//   neighbours from the queue: per point r/2 + r/M two-wide shared loads instead of 4r scalar ones.
// Everything a plane needs from global memory (the queue's newest plane, the halo, u at the own
// columns) is loaded Tile::kAhead planes ahead, so its latency overlaps the planes before it.
#pragma once

#include "backends/cuda/cuda_backend.cuh"
#include "backends/tiled/column_pairs.cuh"
#include "backends/tiled/tile_launcher.cuh"
#include "stencils/stencil.hpp"

namespace heat {

// Two planes ahead in float fit 64 registers per thread with 1024 threads per SM (unbounded, the
// compiler takes more and the SM holds fewer warps); in double that bound would spill.
template <typename T, int Ahead, int Threads>
constexpr int plane_min_blocks() {
  return Ahead > 1 && sizeof(T) == sizeof(float) ? 1024 / Threads : 0;
}

// The tile of one pass: TX x TY threads, each an x pair of columns in M rows, Ahead planes loaded
// ahead; its shared planes hold the tile and a halo of r.
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

// A single pass's arrays as one block sees them, from its first plane z_begin - r: every index the
// block needs fits 32 bits (the launcher keeps its chunk of planes under INT_MAX points), so each
// access is one 32-bit add from a per-block base, and the unrolled planes' offsets are uniform
// registers. `in` is u itself where the pass reads u (FromU); `add` is read by the pass built to add
// a source's increment alone (AddsSource).
template <int R, typename T, bool FromU, bool AddsSource>
struct BlockArrays {
  const T* in;
  const T* u;
  T* out;
  const T* add = nullptr;
  int z_begin, stride_z;

  template <class Args>
  __device__ __forceinline__ BlockArrays(const Args& a, int z_begin, int stride_z)
      : z_begin(z_begin), stride_z(stride_z) {
    const long long block_at = (long long)(z_begin - R) * a.dims.stride_z;
    in = view_at(a.in, block_at);
    u = FromU ? in : view_at(a.u, block_at);
    out = view_at(a.out, block_at);
    if constexpr (AddsSource) add = view_at(a.add, block_at);
  }
  __device__ __forceinline__ int plane_at(int z) const { return (z - z_begin + R) * stride_z; }
};

// A block's march along z in a single pass (one_pass_kernel's, below, and matrix_pass.cuh's), from
// v.z_begin up to z_end. The z queues of the own columns in Q slots: the 2r+1 planes plane z's
// stencil needs and the A loading for planes z+1..z+A (A = Tile::kAhead). The z loop is unrolled Q
// times and plane z0+k (k = 0..Q-1) finds plane z+q (q = -r..r) in slot (k+r+q) % Q, so the queue
// slides by renaming, not by 2r moves per column; what each plane needs besides the queue (its
// halo, u at the own columns) rotates through A+1 slots the same way, so Q is a multiple of A+1
// (and even: the shared planes alternate). Each plane's own pairs and halo go to the shared plane
// of its parity, then one barrier, then plane_pass(z, plane, here, u) computes and stores plane z
// (here: its z window at the own columns, oldest first; u: u there).
template <class Tile, bool FromU, bool AlignedPairs, bool AddsSource, int C, class PlanePass>
__device__ __forceinline__ void march_planes(const BlockArrays<Tile::R, typename Tile::T, FromU, AddsSource>& v,
                                             int z_end, const int (&own_at)[C], int own_slot,
                                             const int (&halo_at)[Tile::kHaloPerThread],
                                             const int (&halo_slot)[Tile::kHaloPerThread],
                                             typename Tile::T (&planes)[2][Tile::kPlane], PlanePass&& plane_pass) {
  using T = typename Tile::T;
  constexpr int R = Tile::R, A = Tile::kAhead, Q = Tile::kUnroll, HaloPerThread = Tile::kHaloPerThread;
  const int z_begin = v.z_begin;
  T queue[C][Q], halo[A + 1][HaloPerThread], u_ahead[C][A + 1];
  auto fetch = [&](int slot, int newest_slot, int z) {  // plane z's halo and u, plane z + r
    load_own<AlignedPairs>(v.in, v.plane_at(z + R), own_at, queue, newest_slot);
    if constexpr (!FromU) load_own<AlignedPairs>(v.u, v.plane_at(z), own_at, u_ahead, slot);
#pragma unroll
    for (int i = 0; i < HaloPerThread; ++i) halo[slot][i] = v.in[v.plane_at(z) + halo_at[i]];
  };
#pragma unroll
  for (int q = 0; q < 2 * R; ++q) load_own<AlignedPairs>(v.in, v.plane_at(z_begin - R + q), own_at, queue, q);
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
      store_plane_share<C / 2, Tile::kPitch>(plane, own_slot, here, halo_slot, halo[k % (A + 1)]);
      if (z + A < z_end) fetch((k + A) % (A + 1), (k + 2 * R + A) % Q, z + A);
      __syncthreads();
      T u[C];
      own_u<FromU>(here, u_ahead, k % (A + 1), u);
      plane_pass(z, plane, here, u);
    }
  }
}

// One pass: FromU, `in` is u itself (the first pass of a factor), so u at the point is the queue's
// centre; otherwise u is loaded too, at the own columns, ahead like everything else. AddsSource:
// the step's last pass with a steady source, which adds a.add at the own columns, loaded once the
// plane's stencil is done: loaded sooner, its registers spill where the a2 tiles are bounded to
// 64 (order 8 in float), and the other warps of the SM hide its latency.
template <class Tile, bool FromU, bool AlignedPairs, bool AddsSource>
__global__ void __launch_bounds__(Tile::kThreads, Tile::kMinBlocks)
    one_pass_kernel(const __grid_constant__ PassArgs<Tile::R, typename Tile::T, 1> a) {
  using T = typename Tile::T;
  constexpr int R = Tile::R, M = Tile::kRows, Pitch = Tile::kPitch, Pad = Tile::kPad;
  constexpr int HaloPerThread = Tile::kHaloPerThread;
  constexpr int TileX = Tile::kTileX, C = 2 * M;  // own column c = 2*row + (0 or 1)
  __shared__ __align__(16) T planes[2][Tile::kPlane];
  const GridDims& d = a.dims;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = Tile::kFirstX + block_tile_x(a.planes) * TileX, y0 = R + block_tile_y(a.planes) * Tile::kTileY;
  int z_begin, z_end;
  block_planes(a.planes, z_begin, z_end);
  const int stride_y = int(d.stride_y), stride_z = int(d.stride_z);

  int own_at[C];
  const unsigned computes = own_columns<R>(d, x0 + 2 * tx, y0 + ty * M, own_at);
  const int own_slot = (ty * M + R) * Pitch + Pad + 2 * tx;  // the pair's first column; row m adds m*Pitch

  // The halo points this thread loads, spread over the block: strips above and below the tile
  // first (whole rows, coalesced), then the strips left and right. -1: no point.
  int halo_slot[HaloPerThread];
  int halo_at[HaloPerThread];
#pragma unroll
  for (int i = 0; i < HaloPerThread; ++i) {
    const int h = ty * Tile::kThreadsX + tx + i * Tile::kThreads;
    int x, y;
    ring_point(h, R, 0, TileX, TileX, Tile::kTileY, x, y);
    const bool stored = h < Tile::kHaloPoints && in_grid(d, x0 + x, y0 + y);
    halo_slot[i] = stored ? (y + R) * Pitch + Pad + x : -1;
    // A point outside the grid loads the plane's first point instead (no predicate) and is never stored.
    halo_at[i] = stored ? (y0 + y) * stride_y + x0 + x : 0;
  }

  const BlockArrays<R, T, FromU, AddsSource> v(a, z_begin, stride_z);
  march_planes<Tile, FromU, AlignedPairs>(
      v, z_end, own_at, own_slot, halo_at, halo_slot, planes,
      [&](int z, const T* plane, const T (&here)[C][2 * R + 1], const T (&u)[C]) {
        // The neighbours from the shared plane, two at a time (x pairs, and the pairs of the r rows
        // above and below).
        T lap[C], result[C];
        pair_laplacians<R, M, Pitch>(plane, own_slot, here, a.weights, lap);
        [[maybe_unused]] T source[C][1];
        if constexpr (AddsSource) load_own<AlignedPairs>(v.add, v.plane_at(z), own_at, source, 0);
        pass_values<AddsSource>(computes, u, a.c[0], lap, source, result);
        store_own<AlignedPairs>(v.out, v.plane_at(z), own_at, computes, result);
      });
}

// One pass per kernel (SinglePassKernels). AddsSource: the step's last pass with a steady source
// (PassArgs::add).
template <class PassTile, bool FromU, bool AddsSource = false>
struct OnePass : SinglePassKernels<PassTile, PassArgs<PassTile::R, typename PassTile::T, 1>> {
  template <bool AlignedPairs>
  static auto kernel() {
    return one_pass_kernel<PassTile, FromU, AlignedPairs, AddsSource>;
  }
};

}  // namespace heat
