// The tiled kernel: one launch runs RK4 stages FirstStage..LastStage for an x-y tile of the grid,
// marching along z one plane per iteration. Warp roles, one barrier per iteration:
//   loader warps   read plane t of u (and of k_prev, sum_in) from global memory into ring 0;
//   stage j warps  compute k at plane t - lag(j) on their tile, from ring j (x-y neighbours) and a
//                  register queue of the 2r+1 planes of their own column (z neighbours), and write
//                  the next stage's input u + c*k into ring j+1 (or the group's outputs).
// Every value is formed with the functions of stencils/stencil.hpp in the order the cpu backend
// uses: k_s at a point is apply_stencil over stage_input(u, c, k_{s-1}) at its neighbours.
#pragma once

#include "solver/cuda_backend.cuh"
#include "solver/errors.hpp"
#include "solver/tiled_loader.cuh"
#include "solver/tiled_stage.cuh"

namespace heat {

template <class Geo, int J>
__device__ void run_stage_role(const GroupArgs<Geo::kRadius, typename Geo::Value>& args, const BlockPlan& plan,
                               typename Geo::Value* shared, int warp) {
  if constexpr (J < Geo::kStages) {
    if (warp < Geo::first_warp(J + 1)) {
      StageRole<Geo, J> role(args, plan, shared, int(threadIdx.x) - Geo::first_warp(J) * kWarpSize);
      role.run();
    } else {
      run_stage_role<Geo, J + 1>(args, plan, shared, warp);
    }
  }
}

template <class Geo>
__global__ void __launch_bounds__(Geo::kThreads, 1)
    tiled_group_kernel(const __grid_constant__ GroupArgs<Geo::kRadius, typename Geo::Value> args) {
  using T = typename Geo::Value;
  extern __shared__ float4 shared_vectors[];  // float4 only for the 16-byte alignment
  T* shared = reinterpret_cast<T*>(shared_vectors);
  // Zeroed once, so that pad columns and not-yet-written planes read as finite numbers.
  for (int v = threadIdx.x; v < Geo::kSharedVectors; v += Geo::kThreads)
    shared_vectors[v] = make_float4(0.f, 0.f, 0.f, 0.f);
  block_barrier();
  const BlockPlan plan = make_block_plan<Geo>(args.dims, args.z_chunk);
  const int warp = threadIdx.x / kWarpSize;
  if (warp < Geo::kLoaderWarps) {
    LoaderRole<Geo> loader(args, plan, shared);
    loader.run();
  } else {
    run_stage_role<Geo, 0>(args, plan, shared, warp);
  }
}

// How one group kernel is launched on a grid: the tiles, and how many z chunks per tile column.
template <class Geo>
class GroupLauncher {
 public:
  // Raises the shared-memory limit and picks the z split for this grid and device.
  GroupLauncher(const Grid& g, int device) {
    static_assert(Geo::kFitsThreads, "too many warps for one block: use more items per thread");
    static_assert(Geo::kFitsShared, "the rings do not fit in one SM's shared memory: use a smaller tile");
    constexpr int R = Geo::kRadius;
    HEAT_CUDA_CHECK(cudaFuncSetAttribute(tiled_group_kernel<Geo>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         Geo::kSharedBytes));
    int sms = 0, blocks_per_sm = 0;
    HEAT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    HEAT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, tiled_group_kernel<Geo>,
                                                                  Geo::kThreads, Geo::kSharedBytes));
    if (blocks_per_sm < 1)
      throw RunError("tiled kernel (" + std::to_string(Geo::kThreads) + " threads, " +
                     std::to_string(Geo::kSharedBytes) + " bytes of shared memory) does not fit on this GPU");
    tiles_x_ = ceil_div(g.nx - R, Geo::kTileX);  // tiles start at x = 0: see make_block_plan
    tiles_y_ = ceil_div(g.ny - 2 * R, Geo::kTileY);
    const int inner_z = g.nz - 2 * R;
    // Each block pays a pipeline fill of about lag(last) + stages*r iterations; more chunks fill
    // the last wave of blocks better. Pick the split with the fewest iterations on the busiest SM.
    const int fill = Geo::lag(Geo::kStages - 1) + Geo::kStages * R;
    const long long slots = (long long)sms * blocks_per_sm;
    long long best = -1;
    for (int chunks = 1; chunks <= 16 && chunks <= inner_z; ++chunks) {
      const int chunk = ceil_div(inner_z, chunks);
      const long long waves = (ceil_div(inner_z, chunk) * (long long)tiles_x_ * tiles_y_ + slots - 1) / slots;
      const long long cost = waves * (chunk + fill);
      if (best < 0 || cost < best) best = cost, z_chunk_ = chunk;
    }
    z_blocks_ = ceil_div(inner_z, z_chunk_);
  }

  void launch(GroupArgs<Geo::kRadius, typename Geo::Value> args) const {
    args.z_chunk = z_chunk_;
    const dim3 grid(tiles_x_, tiles_y_, z_blocks_);
    tiled_group_kernel<Geo><<<grid, Geo::kThreads, Geo::kSharedBytes>>>(args);
    HEAT_CUDA_CHECK_LAUNCH();
  }

 private:
  int tiles_x_ = 0, tiles_y_ = 0, z_blocks_ = 0, z_chunk_ = 0;
};

}  // namespace heat
