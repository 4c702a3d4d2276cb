// A stage role of the tiled kernel: the warps that compute stage j of the group on its tile.
// Each thread owns ItemsPerThread items (16-byte vectors along x at one y) for the whole march, so
// the z neighbours of its points stay in a register queue; x-y neighbours come from ring j.
#pragma once

#include "solver/tiled_plan.cuh"

namespace heat {

template <class Geo, int J>
class StageRole {
  using T = typename Geo::Value;
  static constexpr int R = Geo::kRadius;
  static constexpr int V = Geo::kVector;
  static constexpr int M = Geo::kItemsPerThread;
  static constexpr int P = Geo::kQueueDepth;
  static constexpr int D = Geo::kRingDepth;
  static constexpr int kStage = Geo::kFirstStage + J;  // 1-based RK4 stage
  static constexpr bool kLast = J == Geo::kStages - 1;
  static constexpr bool kUFromQueue = J == 0 && !Geo::kStageInputFromGlobal;  // stage 1: input is u
  static constexpr int kLanes = Geo::stage_warps(J) * kWarpSize;
  static constexpr int kPitch = Geo::ring_pitch(J);

  // Where one item sits. Items walk ring j's rows including the pad vectors, which stay idle.
  struct Item {
    bool active;
    int row, vec;        // row of stage j's tile, vector of ring j's row
    int x_rel, y_rel;    // output-relative position of the item's first point
    unsigned x_interior; // bit p: point p is off the x boundary layer (and inside the grid)
    bool y_interior;
  };

 public:
  __device__ StageRole(const GroupArgs<R, T>& args, const BlockPlan& plan, T* shared, int lane)
      : a_(args), b_(plan), shared_(shared) {
#pragma unroll
    for (int m = 0; m < M; ++m) {
      Item& it = items_[m];
      const int q = lane + m * kLanes;
      it.row = q / kPitch;
      it.vec = q % kPitch;
      it.active = it.row < Geo::out_rows(J) && it.vec >= Geo::kPadVectors && it.vec < kPitch - Geo::kPadVectors;
      it.x_rel = (it.vec - Geo::kPadVectors) * V - Geo::halo_x(J);
      it.y_rel = it.row - Geo::halo_y(J);
      const int gx = plan.tile_x0 + it.x_rel, gy = plan.tile_y0 + it.y_rel;
      it.y_interior = gy >= R && gy < args.dims.ny - R;
      it.x_interior = 0;
#pragma unroll
      for (int p = 0; p < V; ++p)
        if (gx + p >= R && gx + p < args.dims.nx - R) it.x_interior |= 1u << p;
    }
  }

  __device__ void run() {
    for (int t0 = b_.t_first; t0 < b_.t_end; t0 += P) {
      unroll<P>([&](auto phase) {
        const int t = t0 + decltype(phase)::value;
        if (t < b_.t_end) {
          iterate<decltype(phase)::value>(t);
          block_barrier();
        }
      });
    }
  }

 private:
  // Queue slot of plane c + offset in iteration t0 + Phase, where c = t - lag(J).
  template <int Phase>
  __device__ static constexpr int slot(int offset) {
    return positive_mod(Phase - Geo::lag(J) + offset, P);
  }

  template <int Phase>
  __device__ void iterate(int t) {
    const int c = t - Geo::lag(J);
    // The newest plane of the queue, c + r, was written in the previous iteration.
    const T* newest = ring(J, positive_mod(c + R, D));
#pragma unroll
    for (int m = 0; m < M; ++m)
      if (items_[m].active) queue_[m][slot<Phase>(R)] = load_shared(newest + ring_index(items_[m]));
    // Stage j feeds the planes that the stages after it (and the output) need.
    const bool needed = c >= max(0, b_.z_begin - Geo::halo_z(J)) && c < min(a_.dims.nz, b_.z_end + Geo::halo_z(J));
    if (!needed) return;
#pragma unroll
    for (int m = 0; m < M; ++m)
      if (items_[m].active) compute<Phase>(m, c);
  }

  template <int Phase>
  __device__ void compute(int m, int c) {
    const Item& it = items_[m];
    const int ring_slot = positive_mod(c, D);
    const bool plane_interior = c >= R && c < a_.dims.nz - R;
    const unsigned interior = (plane_interior && it.y_interior) ? it.x_interior : 0u;
    const Lanes<T>& centre = queue_[m][slot<Phase>(0)];

    Lanes<T> k{};
    if (interior) {
      // The row through the item, r (rounded up to a vector) each side, and the r rows above
      // and below: the x-y neighbours at the centre plane.
      const T* here = ring(J, ring_slot) + ring_index(it);
      T line[V + 2 * Geo::kPadX];
#pragma unroll
      for (int v = 0; v < 2 * Geo::kPadVectors + 1; ++v) {
        const Lanes<T> part = load_shared(here + (v - Geo::kPadVectors) * V);
#pragma unroll
        for (int p = 0; p < V; ++p) line[v * V + p] = part.v[p];
      }
      // pair_sum(1, d) is u[y+d] + u[y-d]; forming it as the rows arrive keeps r vectors live, not 2r.
      Lanes<T> y_pairs[R];
#pragma unroll
      for (int d = 1; d <= R; ++d) {
        const Lanes<T> above = load_shared(here + d * kPitch * V);
        const Lanes<T> below = load_shared(here - d * kPitch * V);
#pragma unroll
        for (int p = 0; p < V; ++p) y_pairs[d - 1].v[p] = above.v[p] + below.v[p];
      }
#pragma unroll
      for (int p = 0; p < V; ++p) {
        if (!(interior & (1u << p))) continue;
        k.v[p] = apply_stencil<R, T>(a_.weights, centre.v[p], [&](int axis, int d) -> T {
          if (axis == 0) return line[Geo::kPadX + p + d] + line[Geo::kPadX + p - d];
          if (axis == 1) return y_pairs[d - 1].v[p];
          return queue_[m][slot<Phase>(d)].v[p] + queue_[m][slot<Phase>(-d)].v[p];
        });
      }
    }

    const Lanes<T> u = kUFromQueue ? centre : load_shared(u_ring(J, ring_slot) + u_index(J, it.row, it.vec - Geo::kPadVectors));
    Lanes<T> sum{};
    const bool in_tile = it.x_rel >= 0 && it.x_rel < Geo::kTileX && it.y_rel >= 0 && it.y_rel < Geo::kTileY;
    if constexpr (Geo::kHasSum) {
      if (in_tile) {
        T* sum_at = shared_ + (Geo::kSumOffset + positive_mod(c, Geo::kSumDepth) * Geo::kSumPlane +
                               it.y_rel * Geo::kSumPitch + it.x_rel / V) * V;
        if (kStage > 1) sum = load_shared(sum_at);
#pragma unroll
        for (int p = 0; p < V; ++p) sum.v[p] = rk4_accumulate(sum.v[p], kStage - 1, k.v[p]);
        if (!kLast) store_shared(sum_at, sum);
      }
    }

    if constexpr (!kLast) {
      // The next stage's input; on the boundary layer (k = 0) it is u itself.
      Lanes<T> next;
#pragma unroll
      for (int p = 0; p < V; ++p)
        next.v[p] = (interior & (1u << p)) ? stage_input(u.v[p], a_.rk.stage_dt[kStage - 1], k.v[p]) : u.v[p];
      // Stage j's tile is exactly ring j+1's extent: same rows, vectors shifted by the pad.
      store_shared(ring(J + 1, ring_slot) + (it.row * Geo::ring_pitch(J + 1) + it.vec - Geo::kPadVectors) * V, next);
      const int next_row = it.row - R, next_vec = it.vec - 2 * Geo::kPadVectors;
      if (next_row >= 0 && next_row < Geo::out_rows(J + 1) && next_vec >= 0 && next_vec < Geo::u_pitch(J + 1))
        store_shared(u_ring(J + 1, ring_slot) + u_index(J + 1, next_row, next_vec), u);
    } else {
      write_outputs(it, c, interior, u, k, sum);
    }
  }

  // The last stage of the group writes its results at interior points only.
  __device__ void write_outputs(const Item& it, int c, unsigned interior, const Lanes<T>& u, const Lanes<T>& k,
                                const Lanes<T>& sum) {
    if (!interior) return;
    const long long base = c * a_.dims.stride_z + (b_.tile_y0 + it.y_rel) * a_.dims.stride_y + b_.tile_x0 + it.x_rel;
    Lanes<T> first = k;
    if constexpr (Geo::kWritesU) {
#pragma unroll
      for (int p = 0; p < V; ++p) first.v[p] = rk4_finish(u.v[p], a_.rk.dt_over_6, sum.v[p]);
    }
    T* first_out = Geo::kWritesU ? a_.u_out : a_.k_out;
    const bool write_sum = !Geo::kWritesU && Geo::kHasSum;
    if (a_.aligned_rows && interior == (1u << V) - 1) {
      store_global_vector(first_out + base, first);
      if (write_sum) store_global_vector(a_.sum_out + base, sum);
      return;
    }
#pragma unroll
    for (int p = 0; p < V; ++p) {
      if (!(interior & (1u << p))) continue;
      first_out[base + p] = first.v[p];
      if (write_sum) a_.sum_out[base + p] = sum.v[p];
    }
  }

  __device__ T* ring(int j, int ring_slot) const {
    return shared_ + (Geo::ring_offset(j) + ring_slot * Geo::ring_plane(j)) * V;
  }
  __device__ T* u_ring(int j, int ring_slot) const {
    return shared_ + (Geo::u_offset(j) + ring_slot * Geo::u_plane(j)) * V;
  }
  // Element offsets inside one ring plane: ring j has r extra rows above the tile.
  __device__ static int ring_index(const Item& it) { return ((it.row + R) * kPitch + it.vec) * V; }
  __device__ static int u_index(int j, int row, int vec) { return (row * Geo::u_pitch(j) + vec) * V; }

  const GroupArgs<R, T>& a_;
  const BlockPlan& b_;
  T* shared_;
  Item items_[M];
  Lanes<T> queue_[M][P];
};

}  // namespace heat
