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
#include <climits>
#include <string>

#include "solver/cuda_backend.cuh"
#include "solver/z_split.cuh"
#include "stencils/stencil.hpp"

namespace heat {

template <int R, typename T>
struct GroupArgs {
  GridDims dims;
  StencilWeights<R, T> weights;
  Rk4Constants<T> rk;
  const T* u;       // u at the start of the step; never written by this launch
  const T* k_prev;  // k of the stage before the group (groups that start after stage 1)
  const T* sum_in;  // k1 + 2k2 + ... through that stage (groups that start after stage 2)
  T* k_out;         // k of the group's last stage, when the group ends before stage 4
  T* sum_out;       // the partial sum through that stage (after stage 2 or 3)
  T* u_out;         // the new u, when the group ends the step; a different buffer from u
  int z_chunk;      // output planes per block along z
};

// A non-binding prefetch into L2: no register, no wait.
__device__ inline void prefetch_l2(const void* p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

template <int Radius, typename Value, int First, int Stages, int RX, int TY, int M, int MinBlocks = 1>
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
  // Blocks per SM the compiler must fit (__launch_bounds__): more warps to hide the barriers, at
  // the price of fewer registers per thread.
  static constexpr int kMinBlocks = MinBlocks;
  static constexpr int kQueue = 2 * R + 1;
  // The partial RK4 sum of a plane is started by stage 0 and finished (Stages-1)*r planes later.
  static constexpr int kSumDepth = (Stages - 1) * R + 1;
  // For a group that starts from u: the u planes kept behind stage 0's window, as far back as
  // the last stage's centre, so u at every stage centre is in registers.
  static constexpr int kOlderU = First == 1 && Stages > 2 ? (Stages - 2) * R : 0;
  // Two planes, alternated stage by stage, so one barrier per stage keeps writes off planes in use.
  static constexpr int kSharedBytes = 2 * RX * kRegionY * int(sizeof(T));
  static_assert(kTileX > 0 && kTileY > 0, "the halo leaves no output tile");
  static_assert(RX % 32 == 0 && kThreads <= 1024, "whole warps along x, at most 1024 threads");
};

// What a thread's column is, worked out once before the z loop rather than on every plane: bit 0,
// inside the grid in x and y; bit 1+s, inside the region where stage s is computed (the interior,
// and the output tile grown by the stages still to come). For the group's last stage that region
// is the output tile itself.
constexpr unsigned kColumnInGrid = 1u;
__host__ __device__ constexpr unsigned column_computes(int stage) { return 2u << stage; }

template <class G>
__global__ void __launch_bounds__(G::kThreads, G::kMinBlocks)
    plane_group_kernel(const __grid_constant__ GroupArgs<G::R, typename G::T> a) {
  using T = typename G::T;
  constexpr int R = G::R, S = G::kStages, M = G::kRows, Q = G::kQueue, RX = G::kRegionX, RY = G::kRegionY;
  constexpr int H = G::kHalo;
  constexpr bool kFromU = G::kFirst == 1;  // the group's first stage input is u itself
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* const planes = reinterpret_cast<T*>(shared_bytes);
  const GridDims& d = a.dims;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int z_begin = R + int(blockIdx.z) * a.z_chunk;
  const int z_end = min(z_begin + a.z_chunk, d.nz - R);
  const int z_first = z_begin - H;  // the first plane the block loads

  // Indices are 32-bit, relative to the block's first plane inside the grid: one integer add per
  // address instead of 64-bit arithmetic (PlaneGroupLauncher keeps the block's span within int).
  const int z_origin = max(z_first, 0);
  const long long origin = (long long)z_origin * d.stride_z;
  const int plane = int(d.stride_z);
  // Each field's origin, once (unused fields are left at u, never at an offset from null).
  const T* const u_base = a.u + origin;
  const T* const k_base = kFromU ? a.u : a.k_prev + origin;
  const T* const sum_base = G::kFirst <= 1 ? a.u : (G::kFirst == 2 ? a.k_prev : a.sum_in) + origin;
  T* const out_base = (G::kEndsStep ? a.u_out : a.k_out) + origin;
  T* const sum_out_base = G::kEndsStep || G::kFirst + S - 1 < 2 ? out_base : a.sum_out + origin;

  int column[M];  // the column's offset within a plane
  unsigned facts[M];
  {
    const int gx = R + int(blockIdx.x) * G::kTileX - H + tx;
#pragma unroll
    for (int m = 0; m < M; ++m) {
      const int y = ty + m * G::kThreadsY;
      const int gy = R + int(blockIdx.y) * G::kTileY - H + y;
      const bool in_grid = gx >= 0 && gx < d.nx && gy >= 0 && gy < d.ny;
      const bool interior = gx >= R && gx < d.nx - R && gy >= R && gy < d.ny - R;
      column[m] = in_grid ? gy * d.nx + gx : 0;
      unsigned f = in_grid ? kColumnInGrid : 0u;
#pragma unroll
      for (int s = 0; s < S; ++s) {
        const int margin = (s + 1) * R;
        if (interior && tx >= margin && tx < RX - margin && y >= margin && y < RY - margin) f |= column_computes(s);
      }
      facts[m] = f;
    }
  }
  auto loads = [&](int m, int z) { return (facts[m] & kColumnInGrid) && unsigned(z) < unsigned(d.nz); };

  // Register queues along each column, oldest plane first: stage s's input (2r+1 planes), the
  // older u planes (G::kOlderU), and the partial RK4 sums of the planes still between stage 0
  // and the last stage (stage s works on the one r*s planes older than stage 0's).
  constexpr int kOlderU = G::kOlderU, D = G::kSumDepth;
  T queue[S][M][Q];
  T older_u[M][kOlderU > 0 ? kOlderU : 1];
  T sums[M][D];
  // The input plane after the current one, loaded an iteration ahead so its latency overlaps the
  // current iteration's barriers: u, and k_prev for a group that starts after stage 1.
  T next_u[M], next_k[M];
#pragma unroll
  for (int m = 0; m < M; ++m) {
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
      for (int q = 0; q < Q; ++q) queue[s][m][q] = T(0);
#pragma unroll
    for (int i = 0; i < D; ++i) sums[m][i] = T(0);
#pragma unroll
    for (int i = 0; i < kOlderU; ++i) older_u[m][i] = T(0);
    const int at = column[m] + (z_first - z_origin) * plane;
    next_u[m] = loads(m, z_first) ? u_base[at] : T(0);
    next_k[m] = T(0);
    if constexpr (!kFromU) next_k[m] = loads(m, z_first) ? k_base[at] : T(0);
  }
  int buffer = 0;

  for (int z_load = z_first; z_load < z_end + H; ++z_load) {
    const int here = (z_load - z_origin) * plane;  // the newest plane, relative to the origin
    T input[M], sum_before[M];
#pragma unroll
    for (int m = 0; m < M; ++m) {
      // The newest plane of the first stage's input: u, or u + c*k_prev (k_prev is zero on the
      // boundary layer, where that is u). Zero outside the grid.
      input[m] = next_u[m];
      if constexpr (!kFromU) input[m] = stage_input(next_u[m], a.rk.stage_dt[G::kFirst - 2], next_k[m]);
      sum_before[m] = T(0);
      const int ahead = column[m] + here + plane;
      const bool load_ahead = loads(m, z_load + 1);
      next_u[m] = load_ahead ? u_base[ahead] : T(0);
      if (loads(m, z_load + 3)) prefetch_l2(u_base + ahead + 2 * plane);
      if constexpr (!kFromU) {
        next_k[m] = load_ahead ? k_base[ahead] : T(0);
        if (loads(m, z_load + 3)) prefetch_l2(k_base + ahead + 2 * plane);
        // A later group reads the RK4 sum through the stage before it (k1 itself after stage 1)
        // before the first barrier, so the latency overlaps it.
        if (loads(m, z_load - R)) sum_before[m] = sum_base[column[m] + here - R * plane];
      }
    }
#pragma unroll
    for (int m = 0; m < M; ++m) {
      if constexpr (kOlderU > 0) slide_in(older_u[m], queue[0][m][0]);
      slide_in(queue[0][m], input[m]);
      slide_in(sums[m], T(0));  // the newest slot is set by stage 0 below
    }

#pragma unroll
    for (int s = 0; s < S; ++s) {
      const int centre_z = z_load - (s + 1) * R;
      const int stage = G::kFirst - 1 + s;  // 0-based RK4 stage
      // u at this stage's centre, where it forms the next input or the new u: in registers for a
      // group that starts from u (in stage 0's window for s <= 1, behind it after), else loaded
      // before the barrier so the latency overlaps it.
      T u_centre[M];
#pragma unroll
      for (int m = 0; m < M; ++m) {
        if constexpr (kFromU) {
          u_centre[m] =
              s == 0 ? queue[0][m][R] : (s == 1 ? queue[0][m][0] : older_u[m][s > 1 ? kOlderU - (s - 1) * R : 0]);
        } else {
          const bool needed = s + 1 < S || G::kEndsStep;
          u_centre[m] = (needed && loads(m, centre_z)) ? u_base[column[m] + here - (s + 1) * R * plane] : T(0);
        }
      }
      T* const shared_plane = planes + buffer * RX * RY;
      buffer ^= 1;
#pragma unroll
      for (int m = 0; m < M; ++m) shared_plane[(ty + m * G::kThreadsY) * RX + tx] = queue[s][m][R];
      __syncthreads();

      const bool z_interior = centre_z >= R && centre_z < d.nz - R;
#pragma unroll
      for (int m = 0; m < M; ++m) {
        const int y = ty + m * G::kThreadsY;
        const bool active = z_interior && (facts[m] & column_computes(s));
        T k = T(0);  // stage fields are zero on the boundary layer
        if (active) {
          const T* centre = shared_plane + y * RX + tx;
          k = apply_stencil<R, T>(a.weights, queue[s][m][R], [&](int axis, int dist) {
            if (axis == 0) return centre[dist] + centre[-dist];
            if (axis == 1) return centre[dist * RX] + centre[-dist * RX];
            return queue[s][m][R + dist] + queue[s][m][R - dist];
          });
        }
        T& partial = sums[m][D - 1 - s * R];
        const T sum = rk4_accumulate(s == 0 ? sum_before[m] : partial, stage, k);
        partial = sum;

        if (s + 1 < S) {
          // The next stage's input at this plane: u + c*k (u itself on the boundary layer).
          slide_in(queue[s + 1][m], stage_input(u_centre[m], a.rk.stage_dt[stage], k));
        } else if (active && centre_z >= z_begin && centre_z < z_end) {
          // The last stage is computed exactly on the output tile: store this block's planes.
          const int at = column[m] + here - S * R * plane;
          if constexpr (G::kEndsStep) {
            out_base[at] = rk4_finish(u_centre[m], a.rk.dt_over_6, sum);
          } else {
            out_base[at] = k;
            if constexpr (G::kFirst + S - 1 >= 2) sum_out_base[at] = sum;  // after stage 1 the sum is k1
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
    HEAT_CUDA_CHECK(
        cudaFuncSetAttribute(plane_group_kernel<G>, cudaFuncAttributeMaxDynamicSharedMemorySize, G::kSharedBytes));
    const long long slots = resident_blocks(plane_group_kernel<G>, G::kThreads, G::kSharedBytes, device);
    // The kernel indexes a block's span of planes with 32-bit integers: the z split below keeps
    // (chunk + 2*halo + 3) planes within int, which needs the pipeline's planes to fit at least.
    const long long plane = (long long)g.nx * g.ny;
    const long long max_span = INT_MAX / plane;
    if (max_span < 2 * G::kHalo + 4)
      throw RunError("tiled needs an x-y plane of at most " + std::to_string(INT_MAX / (2 * G::kHalo + 4)) +
                     " points at order " + std::to_string(2 * R) + "; this grid has " + std::to_string(plane));
    tiles_x_ = ceil_div(g.nx - 2 * R, G::kTileX);
    tiles_y_ = ceil_div(g.ny - 2 * R, G::kTileY);
    const int inner_z = g.nz - 2 * R;
    const long long tiles = (long long)tiles_x_ * tiles_y_;
    const int longest = int(std::min<long long>(inner_z, max_span - 2 * G::kHalo - 3));
    z_chunk_ = choose_z_chunk(inner_z, tiles, slots, 2 * G::kHalo, longest);
    z_blocks_ = ceil_div(inner_z, z_chunk_);
  }

  void launch(GroupArgs<G::R, typename G::T> args) const {
    args.z_chunk = z_chunk_;
    plane_group_kernel<G>
        <<<dim3(tiles_x_, tiles_y_, z_blocks_), dim3(G::kRegionX, G::kThreadsY), G::kSharedBytes>>>(args);
    HEAT_CUDA_CHECK_LAUNCH();
  }

 private:
  int tiles_x_ = 0, tiles_y_ = 0, z_blocks_ = 0, z_chunk_ = 0;
};

}  // namespace heat
