// The x and y neighbour sums of a stencil pass as products on the FP64 tensor cores (DMMA,
// mma.m8n8k4), in double, for the kernels that use them (matrix_pass.cuh: one pass per kernel;
// matrix_pairs.cuh: a factor per kernel).
//
// Along one axis the stencil on 8 consecutive points is an 8 x (8 + 2r) band of weights, so an
// 8x8 block of a plane's points gets its x sums as In(8 x W) * Bx(W x 8) and its y sums as
// By(8 x W) * In(W x 8), W = 8 + 2r rounded up to the product's depth of 4: 2W/4 products per 64
// points (8 at order 8) and one 8-byte shared load per product and thread. The band's zeros cost
// product slots, not instructions. A warp computes a block; lane (g = lane / 4, t = lane % 4)
// holds the x pair 2t, 2t+1 of its row g, which is where the product's accumulator holds them.
#pragma once

#include "backends/cuda/cuda_backend.cuh"
#include "stencils/stencil.hpp"

namespace heat {

// The products' depth: 8 outputs need 8 + 2r inputs along the axis, in steps of 4.
constexpr int matrix_window(int r) { return (8 + 2 * r + 3) / 4 * 4; }

// A shared plane's pitch, in doubles: at least `span`, and 4 or 12 modulo 16, so that the 16 lanes
// of a half-warp (4 rows g by 4 columns t, either way round) hit 16 different bank pairs.
constexpr int matrix_plane_pitch(int span) {
  int pitch = span;
  while (pitch % 16 != 4 && pitch % 16 != 12) ++pitch;
  return pitch;
}

// d += a * b for one 8x4 by 4x8 product: lane (g, t) gives A[g][t] and B[t][g] and holds D[g][2t],
// D[g][2t+1] (PTX ISA, "Matrix fragments for mma.m8n8k4 with .f64").
__device__ __forceinline__ void dmma_8x8x4(double& d0, double& d1, double a, double b) {
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
      : "+d"(d0), "+d"(d1)
      : "d"(a), "d"(b));
}

// The weight along `axis` between points `offset` apart (the centre's on x alone, 0 beyond r).
template <int R>
__device__ __forceinline__ double band_weight(const StencilWeights<R, double>& w, int axis, int offset) {
  const int k = offset < 0 ? -offset : offset;
  if (k == 0) return axis == 0 ? w.center : 0.0;
  return k <= R ? w.axis[axis][k - 1] : 0.0;
}

// Lane (g, t)'s share of the band matrices, Bx[4s + t][g] and By[g][4s + t]: the same for every
// block and plane, so held in registers for the kernel's life.
template <int R>
struct BandFragments {
  static constexpr int kSteps = matrix_window(R) / 4;
  double x[kSteps], y[kSteps];
  __device__ __forceinline__ BandFragments(const StencilWeights<R, double>& w, int g, int t) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      x[s] = band_weight<R>(w, 0, 4 * s + t - R - g);
      y[s] = band_weight<R>(w, 1, 4 * s + t - R - g);
    }
  }
};

// Where lane (g, t)'s operands of the 8x8 block from (block_x, block_y) start in a plane whose
// point (x, y) is at slot(x, y): row g of the block from x = -r on (x sums) and column g from
// y = -r on (y sums); step s adds 4s columns or rows, lane t one more.
struct BlockOperands {
  int x, y;
};
template <int R, class Slot>
__device__ __forceinline__ BlockOperands block_operands(Slot&& slot, int block_x, int block_y, int g, int t) {
  return {slot(block_x - R + t, block_y + g), slot(block_x + g, block_y - R + t)};
}

// The z neighbour sums at lane (g, t)'s two points of a block, on the CUDA cores from their z
// windows (`z_window` [0] and [1], oldest first).
template <int R>
__device__ __forceinline__ void block_z_sums(const StencilWeights<R, double>& w, const double (*z_window)[2 * R + 1],
                                             double (&z_sum)[2]) {
#pragma unroll
  for (int c = 0; c < 2; ++c) {
    z_sum[c] = 0;
#pragma unroll
    for (int dist = 1; dist <= R; ++dist)
      z_sum[c] += w.axis[2][dist - 1] * (z_window[c][R + dist] + z_window[c][R - dist]);
  }
}

// lap = z_sum + the block's x and y sums from `plane` at lane (g, t)'s two points: z_sum starts the
// x products' accumulator, y's accumulates apart, so that the two chains of dependent products
// overlap. The centre weight rides in Bx.
template <int R, int Pitch>
__device__ __forceinline__ void add_block_products(const double* plane, BlockOperands at, const BandFragments<R>& band,
                                                   const double (&z_sum)[2], double (&lap)[2]) {
  double y_sum[2] = {0, 0};
  lap[0] = z_sum[0], lap[1] = z_sum[1];
#pragma unroll
  for (int s = 0; s < BandFragments<R>::kSteps; ++s) {
    dmma_8x8x4(lap[0], lap[1], plane[at.x + 4 * s], band.x[s]);
    dmma_8x8x4(y_sum[0], y_sum[1], band.y[s], plane[at.y + 4 * s * Pitch]);
  }
#pragma unroll
  for (int c = 0; c < 2; ++c) lap[c] += y_sum[c];
}

// a*Lap at lane (g, t)'s two points of a block: both of the above.
template <int R, int Pitch>
__device__ __forceinline__ void block_laplacians(const double* plane, BlockOperands at, const BandFragments<R>& band,
                                                 const StencilWeights<R, double>& w,
                                                 const double (*z_window)[2 * R + 1], double (&lap)[2]) {
  double z_sum[2];
  block_z_sums<R>(w, z_window, z_sum);
  add_block_products<R, Pitch>(plane, at, band, z_sum, lap);
}

}  // namespace heat
