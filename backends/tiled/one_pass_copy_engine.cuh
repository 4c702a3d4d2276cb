// One pass like one_pass.cuh's, with the planes of its operand brought into shared
// memory by the copy engine (TMA, plane_copies.hpp) instead of by the threads: one thread asks
// for a box of each plane, the tile with its halo, Depth planes before the block needs it, and
// the block waits on that plane's mbarrier. The threads then load nothing of the operand from
// global memory, hold no halo or loaded-ahead planes of it in registers, and store nothing to
// shared memory; their z queues fill from the shared planes. u (passes 2-4) is still loaded by
// the threads, ahead, as in one_pass.cuh. Used where the copy engine can read the grid's
// rows (plane_copies_possible); elsewhere the launcher runs one_pass.cuh's kernel.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <cuda/ptx>
#include <initializer_list>
#include <utility>
#include <vector>

#include "backends/tiled/one_pass.cuh"
#include "backends/tiled/plane_copies.hpp"

namespace heat {

// A ring of kStages shared planes, each a box of the tile with a halo of r (x padded to even, as in
// PlaneTile) at a 128-byte boundary: the r+1 planes an iteration keeps alive (from z, whose x-y
// neighbours it reads, to z + r, its z queue's newest) and Depth more in flight.
template <int Radius, typename Value, int TX, int TY, int M, int Depth, int Ahead>
struct CopyEngineTile : ColumnPairTile<Radius, Value, TX, TY, M, 0> {
  using Base = ColumnPairTile<Radius, Value, TX, TY, M, 0>;
  using Base::R, Base::kTileX, Base::kTileY, Base::kThreads;
  using typename Base::T;
  // What the launcher runs where the copy engine cannot read the grid.
  using Fallback = PlaneTile<Radius, Value, TX, TY, M, Ahead>;
  static constexpr int kDepth = Depth, kAhead = Ahead;
  static constexpr int kPad = pair_reach(R);
  static constexpr int kPitch = kTileX + 2 * kPad;  // a box row
  static constexpr int kBoxRows = kTileY + 2 * R;
  static constexpr int kPlaneBytes = kPitch * kBoxRows * int(sizeof(T));
  static constexpr int kStageValues = ceil_div(kPlaneBytes, 128) * 128 / int(sizeof(T));
  static constexpr int kStages = R + 1 + Depth;
  // The ring and its mbarriers, and 128 bytes to align the ring's start.
  static constexpr int kSharedBytes = kStages * (kStageValues * int(sizeof(T)) + 8) + 128;
  // The z queue's 2r+1 planes rotate by renaming over the unrolled loop, with u's A+1 slots.
  static constexpr int kUnroll = z_unroll(2 * R + 1, Ahead + 1, 1);
  static_assert(kPitch * sizeof(T) % 16 == 0 && kPitch <= 256 && kBoxRows <= 256, "the copy engine's box limits");
};

template <int R, typename T>
struct CopyEngineArgs {
  PassArgs<R, T, 1> pass;
  CUtensorMap in_map;  // pass.in's plane_box_map: boxes of (kPitch x kBoxRows) points
};

// Planes j = 0, 1, ... of a block are z = z_begin - r + j, up to z_end - 1 + r; plane j goes to
// stage j % Stages and is phase j / Stages of that stage's mbarrier. Iteration z (plane j = z - z_begin + r)
// waits for plane j + r, moves its own pairs into the z queue, and reads plane j's x-y neighbours;
// after the block's barrier that ends it no thread reads planes up to j again, so thread 0 asks
// for the planes up to j + Stages, into the stages those planes free. The first 2r planes fill the
// queue before the loop (Stages may be less than 2r: the first r planes' stages are refilled midway).
// AddsSource: the step's last pass with a steady source, as in one_pass.cuh.
template <class Tile, bool FromU, bool AddsSource>
__global__ void __launch_bounds__(Tile::kThreads)
    copy_engine_pass_kernel(const __grid_constant__ CopyEngineArgs<Tile::R, typename Tile::T> args) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using T = typename Tile::T;
  constexpr int R = Tile::R, M = Tile::kRows, Pitch = Tile::kPitch, Pad = Tile::kPad, C = 2 * M;
  constexpr int Stages = Tile::kStages, A = Tile::kAhead, Q = Tile::kUnroll;
  extern __shared__ unsigned char shared_bytes[];
  const auto& a = args.pass;
  const GridDims& d = a.dims;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const bool issuer = tx == 0 && ty == 0;
  const int x0 = Tile::kFirstX + block_tile_x(a.planes) * Tile::kTileX, y0 = R + block_tile_y(a.planes) * Tile::kTileY;
  int z_begin, z_end;
  block_planes(a.planes, z_begin, z_end);
  const int planes = z_end - z_begin + 2 * R;
  const int stride_z = int(d.stride_z);

  // The ring from the first 128-byte boundary of the block's shared memory, its mbarriers after it.
  const unsigned shared_at = unsigned(__cvta_generic_to_shared(shared_bytes));
  T* const ring = reinterpret_cast<T*>(shared_bytes + ((128 - shared_at % 128) % 128));
  uint64_t* const arrived = reinterpret_cast<uint64_t*>(ring + Stages * Tile::kStageValues);
  auto stage = [&](int j) { return ring + (j % Stages) * Tile::kStageValues; };
  auto copy_plane = [&](int j) {  // the issuer only
    const int coords[3] = {x0 - Pad, y0 - R, z_begin - R + j};
    uint64_t* const bar = arrived + j % Stages;
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, bar,
                                         uint32_t(Tile::kPlaneBytes));
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, stage(j), &args.in_map, coords,
                                    bar);
  };
  auto await_plane = [&](int j) {
    while (!cuda::ptx::mbarrier_try_wait_parity(arrived + j % Stages, uint32_t(j / Stages % 2))) {
    }
    return stage(j);
  };

  int next_copy = 0;  // the issuer's next plane to ask for
  auto copy_up_to = [&](int last) {
    if (issuer)
      for (; next_copy < planes && next_copy <= last; ++next_copy) copy_plane(next_copy);
  };
  if (issuer) {
    for (int s = 0; s < Stages; ++s) cuda::ptx::mbarrier_init(arrived + s, 1);
    // The copy engine (the async proxy) must see the initialised mbarriers.
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  copy_up_to(Stages - 1);
  __syncthreads();  // no thread waits on an mbarrier before it is initialised

  int own_at[C];
  const unsigned computes = own_columns<R>(d, x0 + 2 * tx, y0 + ty * M, own_at);
  const int own_slot = (ty * M + R) * Pitch + Pad + 2 * tx;  // the pair's first column in a box; row m adds m*Pitch

  const long long block_at = (long long)(z_begin - R) * d.stride_z;
  const T* const u = view_at(a.u, block_at);
  T* const out = view_at(a.out, block_at);
  [[maybe_unused]] const T* add = nullptr;
  if constexpr (AddsSource) add = view_at(a.add, block_at);
  auto plane_at = [&](int z) { return (z - z_begin + R) * stride_z; };

  T queue[C][Q], u_ahead[C][A + 1];
  auto queue_own = [&](const T* box, int slot) {
#pragma unroll
    for (int m = 0; m < M; ++m) {
      const Pair<T> pair = load_pair(box + own_slot + m * Pitch);
      queue[2 * m][slot] = pair.x, queue[2 * m + 1][slot] = pair.y;
    }
  };
  // The queue's first 2r planes; the first r are read by then, so their stages take the next r.
#pragma unroll
  for (int q = 0; q < R; ++q) queue_own(await_plane(q), q);
  __syncthreads();
  copy_up_to(R - 1 + Stages);
#pragma unroll
  for (int q = R; q < 2 * R; ++q) queue_own(await_plane(q), q);
  if constexpr (!FromU)
#pragma unroll
    for (int j = 0; j < A; ++j)
      if (j == 0 || z_begin + j < z_end) load_own<true>(u, plane_at(z_begin + j), own_at, u_ahead, j);

  for (int z0 = z_begin;; z0 += Q) {
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const int z = z0 + k, j = z - z_begin + R;
      if (z >= z_end) return;  // the same for the whole block; every plane asked for has arrived
      [[maybe_unused]] T source[C][1];
      if constexpr (AddsSource) load_own<true>(add, plane_at(z), own_at, source, 0);
      queue_own(await_plane(j + R), (k + 2 * R) % Q);
      if constexpr (!FromU)
        if (z + A < z_end) load_own<true>(u, plane_at(z + A), own_at, u_ahead, (k + A) % (A + 1));
      T here[C][2 * R + 1];
      queue_window(queue, k, here);
      T lap[C], u_here[C], result[C];
      pair_laplacians<R, M, Pitch>(stage(j), own_slot, here, a.weights, lap);
      own_u<FromU>(here, u_ahead, k % (A + 1), u_here);
      pass_values<AddsSource>(computes, u_here, a.c[0], lap, source, result);
      store_own<true>(out, plane_at(z), own_at, computes, result);
      __syncthreads();  // planes up to j are read
      copy_up_to(j + Stages);
    }
  }
#else
  __trap();  // built for Hopper only (CMakeLists.txt); the launcher never runs it elsewhere
#endif
}

// The passes of one kind (the first, from u, the later ones, or the last adding a source) through
// copy_engine_pass_kernel where the copy engine can read the grid and the arrays are aligned to 16
// bytes, through one_pass.cuh's kernel otherwise. The maps of the operands (`in`) the passes will
// read are made once, here.
template <class Tile, bool FromU, bool AddsSource = false>
class CopyEngineLauncher {
  using T = typename Tile::T;
  using Args = PassArgs<Tile::R, T, 1>;

 public:
  CopyEngineLauncher(const Grid& g, int device, std::initializer_list<const T*> operands) : fallback_(g, device) {
    if (!plane_copies_possible(g, sizeof(T), device)) return;
    constexpr auto kernel = copy_engine_pass_kernel<Tile, FromU, AddsSource>;
    HEAT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Tile::kSharedBytes));
    plan_ = PlaneLaunch(g, Tile::R, Tile::kFirstX, Tile::kTileX, Tile::kTileY,
                        resident_blocks(kernel, Tile::kThreads, Tile::kSharedBytes, device), 2 * Tile::R, 2 * Tile::R);
    for (const T* in : operands) maps_.emplace_back(in, plane_box_map(in, sizeof(T), g, Tile::kPitch, Tile::kBoxRows));
  }

  void launch(Args args, const LaunchShare& share, cudaStream_t stream) const {
    const CUtensorMap* map = map_of(args.in);
    if (map == nullptr || !aligned(args.u) || !aligned(args.out) || !aligned(args.add))
      return fallback_.launch(args, share, stream);
    const dim3 blocks = plan_.blocks(share, args);
    if (blocks.z == 0) return;
    copy_engine_pass_kernel<Tile, FromU, AddsSource>
        <<<blocks, dim3(Tile::kThreadsX, Tile::kThreadsY), Tile::kSharedBytes, stream>>>({args, *map});
    HEAT_CUDA_CHECK_LAUNCH();
  }

 private:
  const CUtensorMap* map_of(const T* in) const {
    for (const auto& [field, map] : maps_)
      if (field == in && aligned(in)) return &map;
    return nullptr;
  }
  static bool aligned(const T* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

  TileLauncher<OnePass<typename Tile::Fallback, FromU, AddsSource>> fallback_;
  PlaneLaunch plan_;
  std::vector<std::pair<const T*, CUtensorMap>> maps_;  // empty where the copy engine cannot read the grid
};

}  // namespace heat
