// The loader role of the tiled kernel (tiled_kernel.cuh): the warps that stream each plane of u
// (and, for a group that starts after stage 1, of k_prev and the partial sum) into ring 0.
#pragma once

#include "solver/tiled_plan.cuh"

namespace heat {

// Reads one vector of a field at grid point (gx..gx+V-1, gy, plane); zero outside the grid.
template <typename T>
__device__ inline Lanes<T> load_field_vector(const T* field, const GridDims& d, bool aligned_rows, int plane, int gy,
                                             int gx) {
  constexpr int V = Vector16<T>::kWidth;
  Lanes<T> out{};
  if (gy < 0 || gy >= d.ny) return out;
  const T* row = field + plane * d.stride_z + gy * d.stride_y;
  if (aligned_rows) {
    if (gx >= 0 && gx < d.nx) out = load_global_vector(row + gx);
    return out;
  }
#pragma unroll
  for (int p = 0; p < V; ++p)
    if (gx + p >= 0 && gx + p < d.nx) out.v[p] = __ldg(row + gx + p);
  return out;
}

template <class Geo>
class LoaderRole {
  using T = typename Geo::Value;
  static constexpr int R = Geo::kRadius;
  static constexpr int V = Geo::kVector;
  static constexpr int N = Geo::kLoaderItems;

 public:
  __device__ LoaderRole(const GroupArgs<R, T>& args, const BlockPlan& plan, T* shared)
      : a_(args), b_(plan), shared_(shared) {}

  // Prefetches plane t+1 into registers while the stages work on plane t.
  __device__ void run() {
    if (needed(b_.t_first)) fetch(b_.t_first);
    for (int t = b_.t_first; t < b_.t_end; ++t) {
      if (needed(t)) store(t);
      if (needed(t + 1)) fetch(t + 1);
      block_barrier();
    }
  }

 private:
  __device__ bool needed(int plane) const { return plane >= b_.load_begin && plane < b_.load_end; }

  // Ring-0 vector e sits at (row, vec); its output-relative position follows from the halos.
  __device__ static int row_of(int e) { return e / Geo::ring_pitch(0); }
  __device__ static int vec_of(int e) { return e % Geo::ring_pitch(0); }
  __device__ static int y_rel(int e) { return row_of(e) - R - Geo::halo_y(0); }
  __device__ static int x_rel(int e) { return (vec_of(e) - Geo::kPadVectors) * V - Geo::halo_x(0); }
  __device__ static bool in_tile(int e) {
    return y_rel(e) >= 0 && y_rel(e) < Geo::kTileY && x_rel(e) >= 0 && x_rel(e) < Geo::kTileX;
  }

  __device__ void fetch(int plane) {
#pragma unroll
    for (int n = 0; n < N; ++n) {
      const int e = int(threadIdx.x) + n * Geo::kLoaderThreads;
      if (e >= Geo::kLoaderVectors) continue;
      const int gy = b_.tile_y0 + y_rel(e), gx = b_.tile_x0 + x_rel(e);
      u_[n] = load_field_vector(a_.u, a_.dims, a_.aligned_rows, plane, gy, gx);
      if constexpr (Geo::kStageInputFromGlobal)
        k_[n] = load_field_vector(a_.k_prev, a_.dims, a_.aligned_rows, plane, gy, gx);
      if constexpr (Geo::kFirstStage >= 3)
        if (in_tile(e)) sum_[n] = load_field_vector(a_.sum_in, a_.dims, a_.aligned_rows, plane, gy, gx);
    }
  }

  __device__ void store(int plane) {
    const int slot = plane % Geo::kRingDepth;  // planes here are >= 0
    T* ring = shared_ + (Geo::ring_offset(0) + slot * Geo::ring_plane(0)) * V;
#pragma unroll
    for (int n = 0; n < N; ++n) {
      const int e = int(threadIdx.x) + n * Geo::kLoaderThreads;
      if (e >= Geo::kLoaderVectors) continue;
      if constexpr (!Geo::kStageInputFromGlobal) {
        store_shared(ring + e * V, u_[n]);
      } else {
        // The first stage's input u + c*k_prev, formed once per point here (k_prev is zero on the
        // boundary layer, where this is u).
        Lanes<T> input;
#pragma unroll
        for (int p = 0; p < V; ++p)
          input.v[p] = stage_input(u_[n].v[p], a_.rk.stage_dt[Geo::kFirstStage - 2], k_[n].v[p]);
        store_shared(ring + e * V, input);
        const int row = row_of(e) - R, vec = vec_of(e) - Geo::kPadVectors;  // in stage 0's tile
        if (row >= 0 && row < Geo::out_rows(0) && vec >= 0 && vec < Geo::u_pitch(0))
          store_shared(shared_ + (Geo::u_offset(0) + slot * Geo::u_plane(0) + row * Geo::u_pitch(0) + vec) * V, u_[n]);
        if (in_tile(e)) {
          const int sum_slot = plane % Geo::kSumDepth;
          const int index = Geo::kSumOffset + sum_slot * Geo::kSumPlane + y_rel(e) * Geo::kSumPitch + x_rel(e) / V;
          // Through stage 1 the sum is k1 itself.
          store_shared(shared_ + index * V, Geo::kFirstStage == 2 ? k_[n] : sum_[n]);
        }
      }
    }
  }

  const GroupArgs<R, T>& a_;
  const BlockPlan& b_;
  T* shared_;
  Lanes<T> u_[N];
  Lanes<T> k_[Geo::kStageInputFromGlobal ? N : 1];
  Lanes<T> sum_[Geo::kFirstStage >= 3 ? N : 1];
};

}  // namespace heat
