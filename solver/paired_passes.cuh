// Two of the step's Horner passes (linear_stages.cuh) in one 2.5D kernel: v_a = u + c_a * a*Lap(in),
// then v_b = u + c_b * a*Lap(v_a), so a step is two kernels (passes 1-2 from u, passes 3-4 from
// v2) moving 5 arrays per point instead of the single passes' 11. The price is the first pass on
// the output tile's ring of width r as well (the second pass's neighbours), computed by the block
// that needs it.
//
// A block owns an output tile and marches along z; thread (tx, ty) owns an x pair of columns in M
// rows, as in plane_stencil.cuh. Iteration `a` computes the first pass on plane a at the own
// columns and, r planes behind (plane b = a - r), the first pass on the ring and then the second
// pass on the own columns. Planes of `in` go to a ring of r+1 shared planes with a halo of 2r (the
// ring's own neighbours); the first pass's plane b goes to one shared plane with a halo of r. z
// neighbours stay in registers: `in` at the own columns (planes a-r..a+r) and at the ring points
// (b-r..b+r), the first pass at the own columns (b-r..b+r).
#pragma once

#include "solver/cuda_backend.cuh"
#include "solver/plane_stencil.cuh"
#include "solver/z_split.cuh"
#include "stencils/stencil.hpp"

namespace heat {

// MinBlocks: unbounded, the order 4 float kernel from v2 takes 74 registers, one 512-thread block
// per SM (tiled.cu bounds it to two).
template <int Radius, typename Value, int TX, int TY, int M, int MinBlocks = 0>
struct PairTile : ColumnPairTile<Radius, Value, TX, TY, M, MinBlocks> {
  using Base = ColumnPairTile<Radius, Value, TX, TY, M, MinBlocks>;
  using Base::R, Base::kTileX, Base::kTileY, Base::kThreads;
  using typename Base::T;
  static constexpr int kReach = (R + 1) / 2 * 2;  // x pairs read this far either side, even
  // Planes of `in`: the tile with a halo of 2r (even, so the own pairs stay aligned).
  static constexpr int kPadIn = 2 * R;
  static constexpr int kPitchIn = kTileX + 2 * kPadIn;
  static constexpr int kPlaneIn = kPitchIn * (kTileY + 4 * R);
  static constexpr int kSlotsIn = R + 1;  // planes b..a: two barriers per plane keep writes off them
  static constexpr int kHaloIn = kPlaneIn - kTileX * kTileY;
  static constexpr int kHaloInPerThread = (kHaloIn + kThreads - 1) / kThreads;
  // The first pass's plane: the tile with a halo of r (no corners).
  static constexpr int kPitchV = kTileX + 2 * kReach;
  static constexpr int kPlaneV = kPitchV * (kTileY + 2 * R);
  static constexpr int kRingRowPoints = 2 * R * kTileX;
  static constexpr int kRing = kRingRowPoints + 2 * R * kTileY;
  static constexpr int kRingPerThread = (kRing + kThreads - 1) / kThreads;
  static constexpr int kSharedBytes = (kSlotsIn * kPlaneIn + kPlaneV) * int(sizeof(T));
  static_assert(kSharedBytes <= 48 * 1024, "static shared memory is limited to 48 KB");
};

template <int R, typename T>
struct PairArgs {
  GridDims dims;
  StencilWeights<R, T> weights;
  const T* in;  // the first pass's operand: u, or v2 for passes 3-4
  const T* u;   // the step's u, the base of both passes
  T c_first, c_second;
  T* out;  // never `in` or `u`: neighbouring blocks still read them
  int z_chunk;
};

// FromU: `in` is u itself (passes 1-2), so u at every point the passes need is in the queues;
// otherwise (passes 3-4) u is loaded at those points a plane ahead.
template <class Tile, bool FromU>
__global__ void __launch_bounds__(Tile::kThreads, Tile::kMinBlocks)
    paired_passes_kernel(const __grid_constant__ PairArgs<Tile::R, typename Tile::T> a) {
  using T = typename Tile::T;
  constexpr int R = Tile::R, M = Tile::kRows, C = 2 * M, Q = 2 * R + 1;
  constexpr int PI = Tile::kPitchIn, PV = Tile::kPitchV, S = Tile::kSlotsIn;
  constexpr int H = Tile::kHaloInPerThread, G = Tile::kRingPerThread;
  constexpr int TXC = Tile::kTileX, TYC = Tile::kTileY;
  __shared__ __align__(16) T in_planes[S][Tile::kPlaneIn];
  __shared__ __align__(16) T v_plane[Tile::kPlaneV];
  const GridDims& d = a.dims;
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * Tile::kThreadsX + tx;
  const int x0 = R + int(blockIdx.x) * TXC, y0 = R + int(blockIdx.y) * TYC;
  const int z_begin = R + int(blockIdx.z) * a.z_chunk;
  const int z_end = min(z_begin + a.z_chunk, d.nz - R);
  const int stride_y = int(d.stride_y);  // in-plane offsets fit an int (the launcher checks)
  auto in_grid = [&](int x, int y) { return x >= 0 && x < d.nx && y >= 0 && y < d.ny; };
  auto interior = [&](int x, int y) { return x >= R && x < d.nx - R && y >= R && y < d.ny - R; };
  // A field at (plane, in-plane offset); zero for planes outside the grid.
  auto at = [&](const T* field, int plane, int offset) {
    return unsigned(plane) < unsigned(d.nz) ? field[(long long)plane * d.stride_z + offset] : T(0);
  };

  // Own columns c = 2*row + (0 or 1).
  const int gx = x0 + 2 * tx, gy0 = y0 + ty * M;
  const int column = gy0 * stride_y + gx;
  auto own_at = [&](int c) { return column + (c / 2) * stride_y + c % 2; };
  unsigned loads = 0, computes = 0;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    if (in_grid(gx + c % 2, gy0 + c / 2)) loads |= 1u << c;
    if (interior(gx + c % 2, gy0 + c / 2)) computes |= 1u << c;
  }
  const int own_in_slot = (ty * M + 2 * R) * PI + Tile::kPadIn + 2 * tx;
  const int own_v_slot = (ty * M + R) * PV + Tile::kReach + 2 * tx;

  // The halo of `in` this thread loads: strips of 2r rows above and below (full width), then 2r
  // columns left and right of the tile's rows. -1: outside the grid.
  int halo_slot[H], halo_at[H];
#pragma unroll
  for (int i = 0; i < H; ++i) {
    constexpr int W = PI, rows = 4 * R * W;
    const int h = t + i * Tile::kThreads;
    int x, y;
    if (h < rows) {
      const int row = h / W;
      x = h % W - 2 * R;
      y = row < 2 * R ? row - 2 * R : TYC + row - 2 * R;
    } else {
      const int e = (h - rows) % (4 * R);
      y = (h - rows) / (4 * R);
      x = e < 2 * R ? e - 2 * R : TXC + e - 2 * R;
    }
    halo_slot[i] = h < Tile::kHaloIn && in_grid(x0 + x, y0 + y) ? (y + 2 * R) * PI + Tile::kPadIn + x : -1;
    halo_at[i] = (y0 + y) * stride_y + x0 + x;
  }
  // The ring points whose first pass this thread computes (strips of r above and below, r left
  // and right; no corners): their slots in both kinds of plane, whether computed or u itself.
  int ring_in_slot[G], ring_v_slot[G], ring_at[G];
  unsigned ring_exists = 0, ring_computes = 0;
#pragma unroll
  for (int i = 0; i < G; ++i) {
    const int h = t + i * Tile::kThreads;
    int x, y;
    if (h < Tile::kRingRowPoints) {
      const int row = h / TXC;
      x = h % TXC;
      y = row < R ? row - R : TYC + row - R;
    } else {
      const int e = (h - Tile::kRingRowPoints) % (2 * R);
      y = (h - Tile::kRingRowPoints) / (2 * R);
      x = e < R ? e - R : TXC + e - R;
    }
    if (h < Tile::kRing && in_grid(x0 + x, y0 + y)) ring_exists |= 1u << i;
    if (h < Tile::kRing && interior(x0 + x, y0 + y)) ring_computes |= 1u << i;
    ring_in_slot[i] = (y + 2 * R) * PI + Tile::kPadIn + x;
    ring_v_slot[i] = (y + R) * PV + Tile::kReach + x;
    ring_at[i] = (y0 + y) * stride_y + x0 + x;
  }

  // Queues, oldest plane first: `in` at the own columns (planes a-r..a+r), the first pass at the
  // own columns (b-r..b+r) and `in` at the ring points (b-r..b+r).
  T in_q[C][Q], v_q[C][Q], ring_q[G][Q];
  const int a_first = z_begin - R;
#pragma unroll
  for (int c = 0; c < C; ++c)
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      in_q[c][q] = q > 0 && (loads & (1u << c)) ? at(a.in, a_first - R - 1 + q, own_at(c)) : T(0);
      v_q[c][q] = T(0);
    }
#pragma unroll
  for (int i = 0; i < G; ++i)
#pragma unroll
    for (int q = 0; q < Q; ++q) ring_q[i][q] = T(0);

  // Loaded a plane ahead: the own columns' newest plane of `in` (a + r), the halo of plane a, and
  // u where the passes need it when `in` is not u (own columns at a and b, ring points at b).
  struct Ahead {
    T newest[C], halo[H], u_a[C], u_b[C], ring_u_b[G];
  } ahead;
  auto fetch = [&](int za) {
#pragma unroll
    for (int c = 0; c < C; ++c) {
      ahead.newest[c] = (loads & (1u << c)) ? at(a.in, za + R, own_at(c)) : T(0);
      if constexpr (!FromU) {
        ahead.u_a[c] = (loads & (1u << c)) ? at(a.u, za, own_at(c)) : T(0);
        ahead.u_b[c] = (computes & (1u << c)) ? at(a.u, za - R, own_at(c)) : T(0);
      }
    }
#pragma unroll
    for (int i = 0; i < H; ++i) ahead.halo[i] = halo_slot[i] >= 0 ? at(a.in, za, halo_at[i]) : T(0);
    if constexpr (!FromU)
#pragma unroll
      for (int i = 0; i < G; ++i) ahead.ring_u_b[i] = (ring_exists & (1u << i)) ? at(a.u, za - R, ring_at[i]) : T(0);
  };
  fetch(a_first);

  for (int za = a_first; za < z_end + R; ++za) {
    const int zb = za - R;
    T* const plane_a = in_planes[za % S];
    const T* const plane_b = in_planes[(za + S - R) % S];
    T u_a[C], u_b[C], ring_u_b[G];
#pragma unroll
    for (int c = 0; c < C; ++c) slide_in(in_q[c], ahead.newest[c]);
#pragma unroll
    for (int c = 0; c < C; ++c) {
      u_a[c] = FromU ? in_q[c][R] : ahead.u_a[c];
      u_b[c] = FromU ? in_q[c][0] : ahead.u_b[c];
    }
#pragma unroll
    for (int i = 0; i < G; ++i) ring_u_b[i] = FromU ? T(0) : ahead.ring_u_b[i];
#pragma unroll
    for (int m = 0; m < M; ++m) store_pair(plane_a + own_in_slot + m * PI, in_q[2 * m][R], in_q[2 * m + 1][R]);
#pragma unroll
    for (int i = 0; i < H; ++i)
      if (halo_slot[i] >= 0) plane_a[halo_slot[i]] = ahead.halo[i];
    if (za + 1 < z_end + R) fetch(za + 1);
    __syncthreads();

    // The first pass on plane a at the own columns (u itself on the boundary layer).
    {
      T lap[C];
      pair_laplacians<R, M, PI>(plane_a, own_in_slot, in_q, a.weights, lap);
      const bool z_inside = za >= R && za < d.nz - R;
#pragma unroll
      for (int c = 0; c < C; ++c)
        slide_in(v_q[c], z_inside && (computes & (1u << c)) ? stage_input(u_a[c], a.c_first, lap[c]) : u_a[c]);
    }
#pragma unroll
    for (int i = 0; i < G; ++i) slide_in(ring_q[i], (ring_exists & (1u << i)) ? plane_a[ring_in_slot[i]] : T(0));
    if (zb < z_begin) continue;  // the first r planes fill the queues (uniform across the block)

      // The first pass on plane b at the ring points, then the plane to shared memory.
#pragma unroll
    for (int i = 0; i < G; ++i) {
      if (!(ring_exists & (1u << i))) continue;
      const T base = FromU ? ring_q[i][R] : ring_u_b[i];
      T v = base;
      if (ring_computes & (1u << i)) {
        const T* centre = plane_b + ring_in_slot[i];
        const T lap = apply_stencil<R, T>(a.weights, ring_q[i][R], [&](int axis, int dist) {
          if (axis == 0) return centre[dist] + centre[-dist];
          if (axis == 1) return centre[dist * PI] + centre[-dist * PI];
          return ring_q[i][R + dist] + ring_q[i][R - dist];
        });
        v = stage_input(base, a.c_first, lap);
      }
      v_plane[ring_v_slot[i]] = v;
    }
#pragma unroll
    for (int m = 0; m < M; ++m) store_pair(v_plane + own_v_slot + m * PV, v_q[2 * m][R], v_q[2 * m + 1][R]);
    __syncthreads();

    // The second pass on plane b at the own columns.
    T lap[C];
    pair_laplacians<R, M, PV>(v_plane, own_v_slot, v_q, a.weights, lap);
    const long long plane_at = (long long)zb * d.stride_z;
#pragma unroll
    for (int c = 0; c < C; ++c)
      if (computes & (1u << c)) a.out[plane_at + own_at(c)] = stage_input(u_b[c], a.c_second, lap[c]);
  }
}

// Launches one kernel of the pair over a grid's interior: the tiles and the z split, fixed per grid.
template <class Tile, bool FromU>
class PairedPassesLauncher {
 public:
  // Each block computes 2r planes beyond its chunk and loads 2r more to fill its queues.
  PairedPassesLauncher(const Grid& g, int device)
      : plan_(plan_plane_launch(g, Tile::R, Tile::kTileX, Tile::kTileY,
                                resident_blocks(paired_passes_kernel<Tile, FromU>, Tile::kThreads, 0, device),
                                4 * Tile::R)) {}

  void launch(PairArgs<Tile::R, typename Tile::T> args) const {
    args.z_chunk = plan_.z_chunk;
    paired_passes_kernel<Tile, FromU><<<plan_.blocks, dim3(Tile::kThreadsX, Tile::kThreadsY)>>>(args);
    HEAT_CUDA_CHECK_LAUNCH();
  }

 private:
  PlaneLaunch plan_;
};

}  // namespace heat
