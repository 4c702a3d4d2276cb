// The tiled kernel: RK4 stages fused on x-y tiles with halos, streamed along z. Every thread of a
// block does the same work: a block owns an x-y region of RX x RY columns (its output tile plus a
// halo of G*r on each side, for G fused stages) and marches along z one plane per iteration. Thread (tx, ty) owns
// the columns (tx, ty + m*TY) for m < M. For each fused stage it keeps that stage's input along
// its columns in a register queue of 2r+1 planes (the z neighbours); the queue's centre goes to a
// shared-memory plane for the x-y neighbours, one barrier per stage. Stage s is centred r planes
// behind stage s-1, whose results it needs r planes ahead, so the output lags the load by G*r.
// Values are formed with stencils/stencil.hpp in the cpu backend's order: k_s is apply_stencil
// over stage_input(u, c, k_{s-1}) at the neighbours, and the RK4 sum is accumulated stage by stage.
#pragma once

#include <algorithm>

#include "solver/cuda_backend.cuh"
#include "stencils/stencil.hpp"

namespace heat {

template <int R, typename T>
struct GroupArgs {
  GridDims dims;
  StencilWeights<R, T> weights;
  Rk4Constants<T> rk;
  const T* u;        // u at the start of the step; never written by this launch
  const T* k_prev;   // k of the stage before the group (groups that start after stage 1)
  const T* sum_in;   // k1 + 2k2 + ... through that stage (groups that start after stage 2)
  T* k_out;          // k of the group's last stage, when the group ends before stage 4
  T* sum_out;        // the partial sum through that stage (after stage 2 or 3)
  T* u_out;          // the new u, when the group ends the step; a different buffer from u
  int z_chunk;       // output planes per block along z
};

// Non-binding prefetches: no register, no wait.
__device__ inline void prefetch_l1(const void* p) { asm volatile("prefetch.global.L1 [%0];" ::"l"(p)); }
__device__ inline void prefetch_l2(const void* p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

template <int Radius, typename Value, int First, int Stages, int RX, int TY, int M>
struct PlaneGroup {
  using T = Value;
  static constexpr int R = Radius;
  static constexpr int kFirst = First;  // 1-based RK4 stage
  static constexpr int kStages = Stages;
  static constexpr bool kEndsStep = First + Stages - 1 == 4;
  static constexpr int kRegionX = RX, kThreadsY = TY, kRows = M, kRegionY = TY * M;
  static constexpr int kHalo = Stages * R;  // stage s's results are needed r further out than s+1's
  static constexpr int kTileX = RX - 2 * kHalo, kTileY = kRegionY - 2 * kHalo;
  static constexpr int kThreads = RX * TY;
  static constexpr int kQueue = 2 * R + 1;
  // The partial RK4 sum of a plane is started by stage 0 and finished (Stages-1)*r planes later.
  static constexpr int kSumDepth = (Stages - 1) * R + 1;
  // Two planes, alternated stage by stage, so one barrier per stage keeps writes off planes in use.
  static constexpr int kSharedBytes = 2 * RX * kRegionY * int(sizeof(T));
  static_assert(kTileX > 0 && kTileY > 0, "the halo leaves no output tile");
  static_assert(RX % 32 == 0 && kThreads <= 1024, "whole warps along x, at most 1024 threads");
};

template <class G>
__global__ void __launch_bounds__(G::kThreads, 1)
    plane_group_kernel(const __grid_constant__ GroupArgs<G::R, typename G::T> a) {
  using T = typename G::T;
  constexpr int R = G::R, S = G::kStages, M = G::kRows, Q = G::kQueue, RX = G::kRegionX, RY = G::kRegionY;
  constexpr int H = G::kHalo;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* const planes = reinterpret_cast<T*>(shared_bytes);
  const GridDims& d = a.dims;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = R + int(blockIdx.x) * G::kTileX - H + tx;
  const bool x_in_grid = gx >= 0 && gx < d.nx;
  const bool x_interior = gx >= R && gx < d.nx - R;
  int gy[M];
#pragma unroll
  for (int m = 0; m < M; ++m) gy[m] = R + int(blockIdx.y) * G::kTileY - H + ty + m * G::kThreadsY;
  const int z_begin = R + int(blockIdx.z) * a.z_chunk;
  const int z_end = min(z_begin + a.z_chunk, d.nz - R);
  auto at = [&](int m, int z) { return (long long)z * d.stride_z + (long long)gy[m] * d.stride_y + gx; };
  auto in_grid = [&](int m, int z) { return x_in_grid && gy[m] >= 0 && gy[m] < d.ny && z >= 0 && z < d.nz; };

  T queue[S][M][Q];
  T sums[M][G::kSumDepth];
#pragma unroll
  for (int m = 0; m < M; ++m) {
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
      for (int q = 0; q < Q; ++q) queue[s][m][q] = T(0);
#pragma unroll
    for (int i = 0; i < G::kSumDepth; ++i) sums[m][i] = T(0);
  }
  int buffer = 0;

  for (int z_load = z_begin - H; z_load < z_end + H; ++z_load) {
    // Planes this block will load soon go to the caches now, so the loads below and in the next
    // iterations hit L1 or L2 instead of waiting on DRAM between two barriers.
#pragma unroll
    for (int m = 0; m < M; ++m) {
      if (in_grid(m, z_load + 1)) prefetch_l1(a.u + at(m, z_load + 1));
      if (in_grid(m, z_load + 3)) prefetch_l2(a.u + at(m, z_load + 3));
      if constexpr (G::kFirst > 1) {
        if (in_grid(m, z_load + 1)) prefetch_l1(a.k_prev + at(m, z_load + 1));
        if (in_grid(m, z_load + 3)) prefetch_l2(a.k_prev + at(m, z_load + 3));
      }
    }
    // Values this iteration needs at the stage centres, issued before the first barrier so their
    // latency overlaps it: u where a stage forms the next input or the new u, and the RK4 sum
    // through the stage before the group (k1 itself after stage 1).
    T u_at[S][M], sum_before[M];
#pragma unroll
    for (int m = 0; m < M; ++m) {
#pragma unroll
      for (int s = 0; s < S; ++s) {
        const int centre_z = z_load - (s + 1) * R;
        const bool needed = (s + 1 < S) ? !(G::kFirst == 1 && s == 0) : G::kEndsStep;
        u_at[s][m] = (needed && in_grid(m, centre_z)) ? a.u[at(m, centre_z)] : T(0);
      }
      const int first_centre = z_load - R;
      sum_before[m] = T(0);
      if (G::kFirst > 1 && in_grid(m, first_centre))
        sum_before[m] = (G::kFirst == 2 ? a.k_prev : a.sum_in)[at(m, first_centre)];
    }
    // The newest plane of the first stage's input: u, or u + c*k_prev for a later group
    // (k_prev is zero on the boundary layer, where that is u). Zero outside the grid.
#pragma unroll
    for (int m = 0; m < M; ++m) {
      T input = T(0);
      if (in_grid(m, z_load)) {
        const long long p = at(m, z_load);
        input = a.u[p];
        if constexpr (G::kFirst > 1) input = stage_input(input, a.rk.stage_dt[G::kFirst - 2], a.k_prev[p]);
      }
#pragma unroll
      for (int q = 0; q + 1 < Q; ++q) queue[0][m][q] = queue[0][m][q + 1];
      queue[0][m][Q - 1] = input;
#pragma unroll
      for (int i = G::kSumDepth - 1; i > 0; --i) sums[m][i] = sums[m][i - 1];
    }

#pragma unroll
    for (int s = 0; s < S; ++s) {
      const int centre_z = z_load - (s + 1) * R;
      const int stage = G::kFirst - 1 + s;  // 0-based RK4 stage
      T* const plane = planes + buffer * RX * RY;
      buffer ^= 1;
#pragma unroll
      for (int m = 0; m < M; ++m) plane[(ty + m * G::kThreadsY) * RX + tx] = queue[s][m][R];
      __syncthreads();

      // Stage s is needed on the output tile grown by (S-1-s)*r: a margin of (s+1)*r in the region.
      const int margin = (s + 1) * R;
      const bool x_active = x_interior && tx >= margin && tx < RX - margin;
      const bool z_interior = centre_z >= R && centre_z < d.nz - R;
#pragma unroll
      for (int m = 0; m < M; ++m) {
        const int y = ty + m * G::kThreadsY;
        const bool active = x_active && z_interior && y >= margin && y < RY - margin && gy[m] >= R && gy[m] < d.ny - R;
        T k = T(0);  // stage fields are zero on the boundary layer
        if (active) {
          const T* centre = plane + y * RX + tx;
          k = apply_stencil<R, T>(a.weights, queue[s][m][R], [&](int axis, int dist) {
            if (axis == 0) return centre[dist] + centre[-dist];
            if (axis == 1) return centre[dist * RX] + centre[-dist * RX];
            return queue[s][m][R + dist] + queue[s][m][R - dist];
          });
        }
        const T sum = rk4_accumulate(s == 0 ? sum_before[m] : sums[m][s * R], stage, k);
        sums[m][s * R] = sum;

        if (s + 1 < S) {
          // The next stage's input at this plane: u + c*k (u itself on the boundary layer).
          const T u_here = (G::kFirst == 1 && s == 0) ? queue[0][m][R] : u_at[s][m];
#pragma unroll
          for (int q = 0; q + 1 < Q; ++q) queue[s + 1][m][q] = queue[s + 1][m][q + 1];
          queue[s + 1][m][Q - 1] = stage_input(u_here, a.rk.stage_dt[stage], k);
        } else if (active && centre_z >= z_begin && centre_z < z_end && tx >= H && tx < RX - H && y >= H &&
                   y < RY - H) {
          const long long p = at(m, centre_z);
          if constexpr (G::kEndsStep) {
            a.u_out[p] = rk4_finish(u_at[s][m], a.rk.dt_over_6, sum);
          } else {
            a.k_out[p] = k;
            if constexpr (G::kFirst + S - 1 >= 2) a.sum_out[p] = sum;  // after stage 1 the sum is k1
          }
        }
      }
    }
  }
}

// Launches one group kernel over a grid: the tiles and the z split.
template <class G>
class PlaneGroupLauncher {
 public:
  PlaneGroupLauncher(const Grid& g, int device) {
    constexpr int R = G::R;
    HEAT_CUDA_CHECK(cudaFuncSetAttribute(plane_group_kernel<G>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         G::kSharedBytes));
    int sms = 0, blocks_per_sm = 0;
    HEAT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    HEAT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, plane_group_kernel<G>,
                                                                  G::kThreads, G::kSharedBytes));
    if (blocks_per_sm < 1) throw RunError("a tiled kernel does not fit on this GPU");
    tiles_x_ = ceil_div(g.nx - 2 * R, G::kTileX);
    tiles_y_ = ceil_div(g.ny - 2 * R, G::kTileY);
    // Each block re-reads 2*G*r planes to fill its pipeline; split z only as far as it takes to
    // give every SM several blocks, choosing the split with the fewest planes on the busiest SM.
    const int inner_z = g.nz - 2 * R;
    const long long slots = (long long)sms * blocks_per_sm, tiles = (long long)tiles_x_ * tiles_y_;
    long long best = -1;
    for (int chunks = 1; chunks <= 16 && chunks <= inner_z; ++chunks) {
      const int chunk = ceil_div(inner_z, chunks);
      const long long waves = (ceil_div(inner_z, chunk) * tiles + slots - 1) / slots;
      const long long cost = waves * (chunk + 2 * G::kHalo);
      if (best < 0 || cost < best) best = cost, z_chunk_ = chunk;
    }
    z_blocks_ = ceil_div(inner_z, z_chunk_);
  }

  void launch(GroupArgs<G::R, typename G::T> args) const {
    args.z_chunk = z_chunk_;
    plane_group_kernel<G><<<dim3(tiles_x_, tiles_y_, z_blocks_), dim3(G::kRegionX, G::kThreadsY), G::kSharedBytes>>>(
        args);
    HEAT_CUDA_CHECK_LAUNCH();
  }

 private:
  int tiles_x_ = 0, tiles_y_ = 0, z_blocks_ = 0, z_chunk_ = 0;
};

}  // namespace heat
