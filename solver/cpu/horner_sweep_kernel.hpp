// The body of run_horner_pass (horner_sweep.hpp) for one vector type: included by each
// horner_sweep_*.cpp, which compiles it with its own instruction set. Everything here has
// internal linkage, and it includes no header with inline functions of its own: a function a
// translation unit with wider instructions emitted could otherwise be the copy the linker keeps
// for every caller, and fault on a CPU without them.
//
// A pass is cache-blocked: blocks of whole-vector row segments in x and rows in y, each streamed
// through a chunk of planes in z, so the 2r+1 planes of `in` a plane's stencils read stay in the
// core's L2 cache and every value comes from memory about once per pass. OpenMP spreads the
// blocks over the threads.
#pragma once

#include <omp.h>

#include <cstddef>

#include "solver/cpu/horner_sweep.hpp"
#include "stencils/stencil.hpp"

namespace heat {
namespace {

// Bytes of `in` one block's planes may take in L2 (half of a 1 MiB L2, the rest for the streams).
constexpr std::size_t kBlockCacheBytes = 512 * 1024;
constexpr int kMaxBlockX = 1024;  // points per row segment
constexpr int kMinChunkZ = 16;    // planes per block in z, at least (each chunk reads 2r more)

template <typename V, typename T>
inline V load(const T* at) {
  V v;
  __builtin_memcpy(&v, at, sizeof(V));
  return v;
}

template <typename V, typename T>
inline void store(T* at, V v) {
  __builtin_memcpy(at, &v, sizeof(V));
}

template <typename V, typename T>
inline V broadcast(T value) {
  return V{} + value;
}

// The pass's arguments as vectors: weights broadcast once, strides of the field.
template <int R, typename V, typename T>
struct VectorPass {
  StencilWeights<R, V> weights;
  V c;
  const T* in;
  const T* u;
  T* out;
  std::size_t stride[3];

  explicit VectorPass(const CpuHornerPass<T>& p)
      : c(broadcast<V>(p.c)),
        in(p.in),
        u(p.u),
        out(p.out),
        stride{1, std::size_t(p.nx), std::size_t(p.nx) * std::size_t(p.ny)} {
    weights.center = broadcast<V>(p.center);
    for (int a = 0; a < 3; ++a)
      for (int k = 0; k < R; ++k) weights.axis[a][k] = broadcast<V>(p.axis[a][k]);
  }

  // The pass's values at the vector of points from flat index `at`, by the shared math.
  V at(std::size_t at) const {
    const T* centre = in + at;
    auto pair_sum = [&](int axis, int d) {
      const std::size_t offset = std::size_t(d) * stride[axis];
      return load<V>(centre + offset) + load<V>(centre - offset);
    };
    const V lap = apply_stencil<R, V>(weights, load<V>(centre), pair_sum);
    return stage_input(load<V>(u + at), c, lap);
  }

  // `width` points from `start`, width >= the vector's lanes. Where the width is not a whole
  // number of vectors the last vector overlaps the one before; it is computed before any store of
  // the row, so in place (out == u) it still reads u as it was, and it stores the same values.
  void row(std::size_t start, int width) const {
    constexpr int N = int(sizeof(V) / sizeof(T));
    const int last = width - N;
    const V tail = at(start + std::size_t(last));
    for (int i = 0; i < last; i += N) store(out + start + std::size_t(i), at(start + std::size_t(i)));
    store(out + start + std::size_t(last), tail);
  }
};

// Splits `total` items into `count` parts whose sizes differ by one at most; part i's first.
inline int part_begin(int i, int count, int total) { return int((long long)i * total / count); }

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The block layout of a pass over an interior of w x h x d points.
struct BlockLayout {
  int x_count, y_count, z_count;
  int blocks() const { return x_count * y_count * z_count; }
};

inline BlockLayout block_layout(int w, int h, int d, int radius, std::size_t value_size, int threads) {
  BlockLayout b;
  b.x_count = ceil_div(w, kMaxBlockX);
  const std::size_t row_bytes = std::size_t(ceil_div(w, b.x_count) + 2 * radius) * value_size;
  const long long rows = (long long)(kBlockCacheBytes / ((2 * radius + 1) * row_bytes)) - 2 * radius;
  const int block_rows = rows < 4 ? 4 : rows > 64 ? 64 : int(rows);
  b.y_count = ceil_div(h, block_rows < h ? block_rows : h);
  // Enough blocks that every thread has a few (the last ones even out), in chunks of z that are
  // long beside the 2r planes each chunk reads twice.
  const int wanted = ceil_div(4 * threads, b.x_count * b.y_count);
  const int most = d / kMinChunkZ > 1 ? d / kMinChunkZ : 1;
  b.z_count = wanted < most ? wanted : most;
  return b;
}

template <int R, typename V, typename T>
void sweep(const CpuHornerPass<T>& p) {
  const VectorPass<R, V, T> pass(p);
  const int w = p.nx - 2 * R, h = p.ny - 2 * R, d = p.nz - 2 * R;
  if (w <= 0 || h <= 0 || d <= 0) return;
  const BlockLayout b = block_layout(w, h, d, R, sizeof(T), omp_get_max_threads());
  const int blocks = b.blocks();
#pragma omp parallel for schedule(static)
  for (int n = 0; n < blocks; ++n) {
    const int bx = n % b.x_count, by = (n / b.x_count) % b.y_count, bz = n / (b.x_count * b.y_count);
    const int x0 = R + part_begin(bx, b.x_count, w), x1 = R + part_begin(bx + 1, b.x_count, w);
    const int y0 = R + part_begin(by, b.y_count, h), y1 = R + part_begin(by + 1, b.y_count, h);
    const int z0 = R + part_begin(bz, b.z_count, d), z1 = R + part_begin(bz + 1, b.z_count, d);
    for (int k = z0; k < z1; ++k)
      for (int j = y0; j < y1; ++j)
        pass.row(std::size_t(k) * pass.stride[2] + std::size_t(j) * pass.stride[1] + std::size_t(x0), x1 - x0);
  }
}

template <typename V, typename T>
void sweep_any_radius(const CpuHornerPass<T>& p) {
  switch (p.radius) {
    case 1: return sweep<1, V>(p);
    case 2: return sweep<2, V>(p);
    case 3: return sweep<3, V>(p);
    case 4: return sweep<4, V>(p);
  }
  __builtin_trap();  // the backend only makes passes of a supported order
}

}  // namespace
}  // namespace heat
