// The step with material fields at order 2 (docs/design.md §1, "Materials", grouping (d)): the
// quadratic factors' four passes in one 2.5D kernel, in four_passes.cuh's shape (its tile, its
// z queues rotating by renaming, its recompute of pass p on (4-p)r columns beyond the output tile),
// with material_pass.cuh's flux form. u, 1/K and 1/C are read once and the new u written once.
//
// Computed where each pass reads them, the pairs' harmonic means would cost 6 divisions a point a
// pass on a region that recomputes its halo ring: more issue slots than the bytes take. Here each
// plane's are computed once, as the plane enters the block, 3 a point (the pairs above it along x,
// y and z), and the four passes read them:
// - x and y: into a ring of shared planes, each read for four iterations. A thread's last pair
//   along x needs 1/K one column right, the next lane's (a shuffle), and its last row's along y
//   one row up, which it loads itself (the rows above its own, a neighbour's).
// - z: into a ring of shared planes too, each thread its own columns', beside 1/C.
// The passes are the factors' (stencils/rk4_forms.hpp: bases u, u, w, w), not Horner's, so that
// each point sums in apply_conductance_stencil's order the very values the single passes sum:
// the step gives their bits.
#pragma once

#include "backends/tiled/column_pairs.cuh"
#include "backends/tiled/four_passes.cuh"
#include "stencils/material_stencil.hpp"

namespace heat {

// What the kernel reads and writes: from u, the factors' four passes (make_factored_constants)
// into `out`. `in` and `u` are both u, as TileLauncher names the arrays it checks for alignment.
template <typename T>
struct MaterialFourPassArgs {
  GridDims dims;
  MaterialWeights<1, T> weights;
  const T* inverse_conductivity;
  const T* inverse_heat_capacity;
  const T* in;
  const T* u;
  T c[4];
  T* out;
  LaunchPlanes planes;     // set by the launcher
  const T* add = nullptr;  // a source's step increment, read by the kernel built to add it alone
};

// The harmonic mean of a pair from its two points' 1/K, as pair_conductance forms it at order 2.
template <typename T>
__device__ __forceinline__ T harmonic_conductance(T inverse_lo, T inverse_hi) {
  return pair_conductance<1, T>(
      1, [](int) { return T(0); }, [&](int m) { return m == 0 ? inverse_lo : inverse_hi; });
}

// A block's shared memory: two sets of the four passes' operand planes (four_passes.cuh's), then
// rings of Q slots, slot s holding one plane: the x and y pairs' M over the region with a pad of
// 2 columns left and one row below (the pairs below the region's first column and row); the z
// pairs' M and 1/C at the region's points alone (each thread reads its own). As register queues
// of the 5 planes the passes read, those two would take 40 registers of a thread's 4 columns in
// float, which spill.
template <class Tile>
struct MaterialFourPassShared {
  using T = typename Tile::T;
  static constexpr int kPitch = Tile::kRegionX + 2;
  static constexpr int kPlane = kPitch * (Tile::kRegionY + 1);
  static constexpr int kOwnPlane = Tile::kRegionX * Tile::kRegionY;
  static constexpr int kBytes = (2 * 4 * Tile::kPlane + Tile::kUnroll * 2 * (kPlane + kOwnPlane)) * int(sizeof(T));
};

template <class Tile, bool AlignedPairs, bool AddsSource>
__global__ void __launch_bounds__(Tile::kThreads, Tile::kMinBlocks)
    material_four_passes_kernel(const __grid_constant__ MaterialFourPassArgs<typename Tile::T> a) {
  using T = typename Tile::T;
  static_assert(Tile::R == 1, "order 2: each pair's M is the harmonic mean of its two points");
  static_assert(Tile::kAhead == 1, "the z queues' slots below assume one plane ahead");
  constexpr int R = 1, M = Tile::kRows, C = 2 * M, Q = Tile::kUnroll, TX = Tile::kThreadsX;
  constexpr int Pitch = Tile::kPitch, Reach = Tile::kReach, Plane = Tile::kPlane;
  static_assert(Q >= 6, "the ring holds the planes of the four passes and the one being made");
  constexpr PairOffsets kOffsets = PairOffsets::kSummed;
  using Shared = MaterialFourPassShared<Tile>;
  constexpr int RingPitch = Shared::kPitch, RingPlane = Shared::kPlane, OwnPlane = Shared::kOwnPlane;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T(*const sets)[4][Plane] = reinterpret_cast<T(*)[4][Plane]>(shared_bytes);
  T(*const ring)[2][RingPlane] = reinterpret_cast<T(*)[2][RingPlane]>(shared_bytes + 2 * 4 * Plane * sizeof(T));
  T(*const own_ring)[2][OwnPlane] =  // [slot][0]: the z pairs' M, [slot][1]: 1/C
      reinterpret_cast<T(*)[2][OwnPlane]>(shared_bytes + (2 * 4 * Plane + Q * 2 * RingPlane) * sizeof(T));
  const GridDims& d = a.dims;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = Tile::kFirstX + block_tile_x(a.planes) * Tile::kTileX, y0 = R + block_tile_y(a.planes) * Tile::kTileY;
  int z_begin, z_end;
  block_planes(a.planes, z_begin, z_end);
  const int a_first = z_begin - 3 * R, a_end = z_end + 3 * R;
  const int stride_z = int(d.stride_z);

  const int region_x = 2 * tx, region_y = ty * M;
  int own_at[C], above_at[2];
  const unsigned computes = own_columns<R>(d, x0 - Reach + region_x, y0 - Reach + region_y, own_at);
  own_columns<R>(d, x0 - Reach + region_x, y0 - Reach + region_y + M, above_at);  // the row above the own rows
  unsigned stores = 0;  // the computed own columns in the output tile
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int x = region_x + c % 2, y = region_y + c / 2;
    const bool in_tile = x >= Reach && x < Reach + Tile::kTileX && y >= Reach && y < Reach + Tile::kTileY;
    if (in_tile) stores |= computes & (1u << c);
  }
  const int own_slot = (region_y + R) * Pitch + Tile::kPad + region_x;
  const int ring_slot = (region_y + 1) * RingPitch + 2 + region_x, own_ring_slot = region_y * Tile::kRegionX + region_x;

  // As four_passes.cuh: every array seen from the block's first plane a_first; a plane beyond the
  // grid reads the grid's nearest, whose values reach no point stored.
  const long long block_at = (long long)a_first * d.stride_z;
  const T* const u = view_at(a.u, block_at);
  const T* const inverse_k = view_at(a.inverse_conductivity, block_at);
  const T* const inverse_c = view_at(a.inverse_heat_capacity, block_at);
  T* const out = view_at(a.out, block_at);
  [[maybe_unused]] const T* add = nullptr;
  if constexpr (AddsSource) add = view_at(a.add, block_at);
  auto plane_at = [&](int z) { return (z - a_first) * stride_z; };
  auto clamped_plane_at = [&](int z) { return plane_at(min(max(z, 0), d.nz - 1)); };

  // Queues at the own columns, iteration k (plane a = z0 + k) finding plane a + e in slot
  // (k + 4 + e) % Q, as the rings do: u and what passes 1-3 computed (queues[p]); 1/K, 1/K on the
  // row above (one pair), and 1/C. All start at zero: the passes' first iterations read slots no
  // plane has filled yet.
  T queues[4][C][Q] = {}, inverse_ks[C][Q] = {}, above[2][Q] = {}, inverse_cs[C][Q] = {};
  auto own_pairs = [&](int slot, int array, int m) { return own_ring[slot][array] + own_ring_slot + m * Tile::kRegionX; };
  auto load_u_and_k = [&](int z, int slot) {
    load_own<AlignedPairs, kOffsets>(u, clamped_plane_at(z), own_at, queues[0], slot);
    load_own<AlignedPairs, kOffsets>(inverse_k, clamped_plane_at(z), own_at, inverse_ks, slot);
  };
  auto load_above_and_c = [&](int z, int slot) {
    load_own<AlignedPairs, kOffsets>(inverse_k, clamped_plane_at(z), above_at, above, slot);
    load_own<AlignedPairs, kOffsets>(inverse_c, clamped_plane_at(z), own_at, inverse_cs, slot);
  };
#pragma unroll
  for (int e = -1; e <= 1; ++e) load_u_and_k(a_first + e, 4 + e);
  load_above_and_c(a_first, 4);
  // Pass 1's first plane reads the z pair below it.
#pragma unroll
  for (int m = 0; m < M; ++m)
    store_pair(own_pairs(3, 0, m), harmonic_conductance(inverse_ks[2 * m][3], inverse_ks[2 * m][4]),
               harmonic_conductance(inverse_ks[2 * m + 1][3], inverse_ks[2 * m + 1][4]));

  for (int z0 = a_first;; z0 += Q) {
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const int za = z0 + k;
      if (za >= a_end) return;  // the same for the whole block
      T(*const planes)[Plane] = sets[k % 2];
      // Pass p's operand plane a - p, which it reads the x-y neighbours of, to shared memory.
#pragma unroll
      for (int p = 0; p < 4; ++p)
#pragma unroll
        for (int m = 0; m < M; ++m)
          store_pair(planes[p] + own_slot + m * Pitch, queues[p][2 * m][(k + 4 - p) % Q],
                     queues[p][2 * m + 1][(k + 4 - p) % Q]);
      // Plane a's M and 1/C to the rings: x and y to one, z and 1/C to the own columns'. The slot
      // held plane a - 6, whose last reader (pass 4) passed a barrier since.
      {
        const int s = (k + 4) % Q;
        T here[C];
#pragma unroll
        for (int c = 0; c < C; ++c) here[c] = inverse_ks[c][s];
#pragma unroll
        for (int m = 0; m < M; ++m) {
          const T right = __shfl_down_sync(0xffffffffu, here[2 * m], 1, TX);
          store_pair(ring[s][0] + ring_slot + m * RingPitch, harmonic_conductance(here[2 * m], here[2 * m + 1]),
                     harmonic_conductance(here[2 * m + 1], right));
          const T up[2] = {m + 1 < M ? here[(2 * m + 2) % C] : above[0][s], m + 1 < M ? here[(2 * m + 3) % C] : above[1][s]};
          store_pair(ring[s][1] + ring_slot + m * RingPitch, harmonic_conductance(here[2 * m], up[0]),
                     harmonic_conductance(here[2 * m + 1], up[1]));
          store_pair(own_pairs(s, 1, m), inverse_cs[2 * m][s], inverse_cs[2 * m + 1][s]);
          store_pair(own_pairs(s, 0, m), harmonic_conductance(here[2 * m], inverse_ks[2 * m][(k + 5) % Q]),
                     harmonic_conductance(here[2 * m + 1], inverse_ks[2 * m + 1][(k + 5) % Q]));
        }
      }
      if (za + 1 < a_end) {
        load_u_and_k(za + 2, (k + 6) % Q);
        load_above_and_c(za + 1, (k + 5) % Q);
      }
      __syncthreads();

      for_each_index<4>([&](auto pass) {
        constexpr int p = decltype(pass)::value;
        const int zp = za - p, centre = (k + 4 - p) % Q;
        const T* const plane = planes[p];
        const T* const mx = ring[centre][0];
        const T* const my = ring[centre][1];
        // Pass 4's plane, where it is stored (as four_passes.cuh).
        [[maybe_unused]] T source[C][1];
        if constexpr (AddsSource && p == 3)
          if (za >= z_begin + 3 * R) load_own<AlignedPairs, kOffsets>(add, plane_at(zp), own_at, source, 0);
        // The operand's x-y neighbours beyond the own columns (columns -1 and 2, rows -1 and M) and
        // the pairs' M, pairs where both columns are read.
        T left[M], right[M], mx_left[M];
        Pair<T> below, beyond, mx_own[M], my_own[M], my_below, mz_own[M], mz_below[M], inverse_c_here[M];
#pragma unroll
        for (int m = 0; m < M; ++m) {
          left[m] = plane[own_slot + m * Pitch - 1];
          right[m] = plane[own_slot + m * Pitch + 2];
          mx_own[m] = load_pair(mx + ring_slot + m * RingPitch);
          mx_left[m] = mx[ring_slot + m * RingPitch - 1];
          my_own[m] = load_pair(my + ring_slot + m * RingPitch);
          mz_own[m] = load_pair(own_pairs(centre, 0, m));
          mz_below[m] = load_pair(own_pairs((centre + Q - 1) % Q, 0, m));
          // 1/C: pass 1's still in registers.
          inverse_c_here[m] = p == 0 ? Pair<T>{inverse_cs[2 * m][centre], inverse_cs[2 * m + 1][centre]}
                                     : load_pair(own_pairs(centre, 1, m));
        }
        below = load_pair(plane + own_slot - Pitch);
        beyond = load_pair(plane + own_slot + M * Pitch);
        my_below = load_pair(my + ring_slot - RingPitch);
        auto column_of = [](const Pair<T>& pair, int j) { return j == 0 ? pair.x : pair.y; };

        T result[C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
          const int m = c / 2, j = c % 2;
          auto operand = [&](int column, int e) { return queues[p][column][(centre + e + Q) % Q]; };
          auto u_at = [&](int axis, int dist) {
            if (axis == 2 || dist == 0) return operand(c, dist);
            if (axis == 0) {
              const int x = j + dist;
              return x < 0 ? left[m] : x > 1 ? right[m] : operand(2 * m + x, 0);
            }
            const int y = m + dist;
            return y < 0 ? column_of(below, j) : y >= M ? column_of(beyond, j) : operand(2 * y + j, 0);
          };
          auto conductance_at = [&](int axis, int, int lo) {
            if (axis == 2) return column_of(lo == 0 ? mz_own[m] : mz_below[m], j);
            if (axis == 0) return lo == 0 ? column_of(mx_own[m], j) : j == 1 ? mx_own[m].x : mx_left[m];
            if (lo == 0) return column_of(my_own[m], j);
            return m > 0 ? column_of(my_own[(m + M - 1) % M], j) : column_of(my_below, j);
          };
          const T divergence = apply_conductance_stencil<R, T>(a.weights, operand(c, 0), u_at, conductance_at);
          const T lap = column_of(inverse_c_here[m], j) * divergence;
          // The factors' bases: u for passes 1 and 2, the first factor's result w for 3 and 4.
          const T base = p < 2 ? queues[0][c][centre] : queues[2][c][centre];
          const bool computed = zp >= R && zp < d.nz - R && (computes & (1u << c));
          if constexpr (AddsSource && p == 3)
            result[c] = pass_value_adding(computed, base, a.c[p], lap, source[c][0]);
          else
            result[c] = pass_value(computed, base, a.c[p], lap);
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

// The step in one kernel, as four_passes.cuh's FourPasses: a block computes 3r planes either side
// of its chunk and reads r more. AddsSource: with a steady source (MaterialFourPassArgs::add).
template <class FusedTile, bool AddsSource = false>
struct MaterialFourPasses {
  using Tile = FusedTile;
  using Args = MaterialFourPassArgs<typename Tile::T>;
  static constexpr int kRefill = 8 * Tile::R, kBeyond = 7 * Tile::R;
  static constexpr int kDynamicSharedBytes = MaterialFourPassShared<Tile>::kBytes;
  template <bool AlignedPairs>
  static auto kernel() {
    return material_four_passes_kernel<Tile, AlignedPairs, AddsSource>;
  }
};

}  // namespace heat
