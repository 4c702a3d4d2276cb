// The shape of one tiled kernel: which RK4 stages it fuses, the tiles each stage computes, the
// shared-memory rings between them and the warps that play each role. All compile-time, so the
// kernel's loops and register arrays have constant bounds. benchmarks/tiled_analysis.md derives
// these numbers on paper; the kernel is in tiled_kernel.cuh.
//
// Coordinates are relative to the block's output tile: x in [0, TileX), y in [0, TileY).
// Stage j of the group (0-based) computes its stage field on the output tile grown by
// halo_x(j), halo_y(j), because stage j+1 reads r neighbours of it. Along x the growth is rounded
// up to whole 16-byte vectors so that every item and every ring row stays aligned.
#pragma once

#include "stencils/stencil.hpp"

namespace heat {

HD constexpr int round_up(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }
HD constexpr int ceil_div_hd(int a, int b) { return (a + b - 1) / b; }
// a mod b in [0, b) for any sign of a.
HD constexpr int positive_mod(int a, int b) { return ((a % b) + b) % b; }

constexpr int kWarpSize = 32;
// One block per SM may use this much dynamic shared memory on Hopper (227 KB).
constexpr int kMaxSharedBytesPerBlock = 227 * 1024;
constexpr int kMaxThreadsPerBlock = 1024;
// Registers of one SM sub-partition (a quarter of the SM's 64K), shared by the warps it holds.
constexpr int kRegistersPerSubPartition = 16384;
// Registers a loader thread may spend holding the next plane while the stages work on this one.
constexpr int kLoaderPrefetchRegisters = 72;

template <int R, typename T, int TileX, int TileY, int FirstStage, int LastStage, int ItemsPerThread>
struct GroupGeometry {
  using Value = T;
  static constexpr int kRadius = R;
  static constexpr int kTileX = TileX;
  static constexpr int kTileY = TileY;
  static constexpr int kFirstStage = FirstStage;  // 1-based RK4 stage
  static constexpr int kLastStage = LastStage;
  static constexpr int kItemsPerThread = ItemsPerThread;
  static constexpr int kStages = LastStage - FirstStage + 1;
  // An item is one 16-byte vector of consecutive x points: the unit of every shared-memory access.
  static constexpr int kVector = 16 / int(sizeof(T));
  static constexpr int kPadX = round_up(R, kVector);  // x halo of one stage, whole vectors
  static constexpr int kPadVectors = kPadX / kVector;
  // z neighbours of a stage input live in a per-thread register queue of 2r+1 planes.
  static constexpr int kQueueDepth = 2 * R + 1;
  // A ring plane is written one iteration before its first read (the newest queue entry) and read
  // for the last time r+1 iterations later (as the centre plane), so r+2 slots never collide.
  static constexpr int kRingDepth = R + 2;
  static constexpr bool kStageInputFromGlobal = FirstStage > 1;  // ring 0 holds u + c*k_prev
  static constexpr bool kHasSum = LastStage >= 2;                // k1 + 2k2 + ... is carried
  static constexpr bool kWritesU = LastStage == 4;

  // Stage j centres on plane t - lag(j) in iteration t: each stage waits r planes for its
  // upper z neighbours plus one iteration so that it reads only what the previous iteration wrote.
  HD static constexpr int lag(int j) { return (j + 1) * (R + 1); }
  // The sum of plane p is started in iteration p (by the loader) at the earliest and finished by
  // the last stage in iteration p + lag(kStages-1).
  static constexpr int kSumDepth = kStages * (R + 1) + 1;  // lag(kStages - 1) + 1

  HD static constexpr int halo_x(int j) { return (kStages - 1 - j) * kPadX; }
  HD static constexpr int halo_y(int j) { return (kStages - 1 - j) * R; }
  HD static constexpr int halo_z(int j) { return (kStages - 1 - j) * R; }
  HD static constexpr int out_width(int j) { return TileX + 2 * halo_x(j); }
  HD static constexpr int out_rows(int j) { return TileY + 2 * halo_y(j); }

  // Ring j holds stage j's input (u for stage 1, else u + c*k_prev) on stage j's tile plus r.
  // A ring row is out_width(j) plus one pad of kPadX each side, in vectors.
  HD static constexpr int ring_pitch(int j) { return out_width(j) / kVector + 2 * kPadVectors; }
  HD static constexpr int ring_rows(int j) { return out_rows(j) + 2 * R; }
  HD static constexpr int ring_plane(int j) { return ring_pitch(j) * ring_rows(j); }
  // u at stage j's own points, forwarded stage to stage (stage 1 of a step reads u in its ring).
  HD static constexpr bool has_u_ring(int j) { return j > 0 || kStageInputFromGlobal; }
  HD static constexpr int u_pitch(int j) { return out_width(j) / kVector; }
  HD static constexpr int u_plane(int j) { return has_u_ring(j) ? u_pitch(j) * out_rows(j) : 0; }
  static constexpr int kSumPitch = TileX / kVector;
  static constexpr int kSumPlane = kHasSum ? kSumPitch * TileY : 0;

  // Offsets in 16-byte vectors from the start of dynamic shared memory.
  HD static constexpr int ring_offset(int j) {
    int offset = 0;
    for (int i = 0; i < j; ++i) offset += ring_plane(i) * kRingDepth;
    return offset;
  }
  HD static constexpr int u_offset(int j) {
    int offset = ring_offset(kStages);
    for (int i = 0; i < j; ++i) offset += u_plane(i) * kRingDepth;
    return offset;
  }
  static constexpr int kSumOffset = u_offset(kStages);
  static constexpr int kSharedVectors = kSumOffset + kSumPlane * kSumDepth;
  static constexpr int kSharedBytes = kSharedVectors * 16;

  // The loader brings ring 0's vectors of u, plus k_prev and the partial sum for a later group;
  // as few warps as keep its prefetch within kLoaderPrefetchRegisters, to leave registers to stages.
  static constexpr int kLoaderVectors = ring_plane(0);
  static constexpr int kLoaderArrays = 1 + (kStageInputFromGlobal ? 1 : 0) + (FirstStage >= 3 ? 1 : 0);
  static constexpr int kLoaderWarps =  // a 16-byte vector is 4 registers, for float and double alike
      ceil_div_hd(kLoaderVectors * kLoaderArrays * 4, kLoaderPrefetchRegisters * kWarpSize);

  // Warp roles: loader warps first, then each stage's warps. A stage's lanes walk its ring rows
  // including the pad vectors (idle), so consecutive lanes read consecutive 16-byte vectors.
  HD static constexpr int stage_lanes(int j) { return ring_pitch(j) * out_rows(j); }
  HD static constexpr int stage_warps(int j) { return ceil_div_hd(stage_lanes(j), kWarpSize * ItemsPerThread); }
  HD static constexpr int first_warp(int j) {
    int warp = kLoaderWarps;
    for (int i = 0; i < j; ++i) warp += stage_warps(i);
    return warp;
  }
  static constexpr int kWarps = first_warp(kStages);
  static constexpr int kThreads = kWarps * kWarpSize;
  static constexpr int kLoaderThreads = kLoaderWarps * kWarpSize;
  static constexpr int kLoaderItems = ceil_div_hd(kLoaderVectors, kLoaderThreads);
  // What ptxas may give each thread under __launch_bounds__(kThreads, 1): the warps spread over
  // four sub-partitions, in steps of 8 registers. Queues and neighbours beyond this spill.
  static constexpr int kRegisterCap =
      (kRegistersPerSubPartition / (ceil_div_hd(kWarps, 4) * kWarpSize)) / 8 * 8 > 255
          ? 255
          : (kRegistersPerSubPartition / (ceil_div_hd(kWarps, 4) * kWarpSize)) / 8 * 8;

  // Redundant work: stage points computed per output point, summed over the group's stages.
  static constexpr double computed_per_output() {
    double sum = 0;
    for (int j = 0; j < kStages; ++j) sum += double(out_width(j)) * out_rows(j);
    return sum / (double(TileX) * TileY);
  }

  static_assert(R >= 1 && R <= kMaxRadius, "radius 1..4");
  static_assert(FirstStage >= 1 && LastStage <= 4 && FirstStage <= LastStage, "stages 1..4 in order");
  static_assert(TileX % kVector == 0, "the output tile is whole 16-byte vectors wide");
  // Checked where a kernel is instantiated, so that tools can list shapes that do not fit.
  static constexpr bool kFitsThreads = kThreads <= kMaxThreadsPerBlock;
  static constexpr bool kFitsShared = kSharedBytes <= kMaxSharedBytesPerBlock;
};

}  // namespace heat
