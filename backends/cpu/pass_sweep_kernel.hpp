// The body of run_pass_sweep (pass_sweep.hpp) for one vector type: included by each
// pass_sweep_*.cpp, which compiles it with its own instruction set. Everything here has
// internal linkage, and it includes no header with inline functions of its own: a function that
// a translation unit with wider instructions emitted could otherwise be the copy the linker keeps
// for every caller, and fault on a CPU without them.
//
// A sweep is cache-blocked: blocks of row segments in x and rows in y, each streamed through a
// chunk of planes in z, so that the 2r+1 planes a plane's stencils read stay in the core's L2
// cache and every array value comes from memory about once per sweep. OpenMP spreads the blocks
// over the threads. A sweep of two passes computes the first into a ring of 2r+1 planes of the
// block's region (the block and r around it, recomputed by each neighbour for itself), from which
// the second pass reads it. Blocks go to whichever thread is free (blocks at the grid's faces,
// where the first pass copies its base instead of computing, cost less than the others); a block's
// values depend only on the sweep's inputs, so which thread computes it changes no bit.
#pragma once

#include <omp.h>
#include <stdlib.h>
#if defined(__FMA__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstddef>

#include "backends/cpu/pass_sweep.hpp"
#include "stencils/rk4_forms.hpp"
#include "stencils/stencil.hpp"

namespace heat {
namespace {

// Bytes of the planes one block reads with the stencil (its operand's planes in a single pass,
// the ring of two): within a 1 MiB L2, with room for the streams of the base and the output (the best
// measured among 192 KiB to 2 MiB: benchmarks/cpu_model.md).
constexpr std::size_t kBlockCacheBytes = 768 * 1024;

// Vectors whose multiply-adds are explicit: `acc += w * x` and `base + c * x`, as the shared
// math writes them (stencils/stencil.hpp, stencils/rk4_forms.hpp), become one fused multiply-add
// each, and nothing else does. Left to the compiler's contraction, different inlined copies of the
// same expression were seen to fuse different products, so a point's value depended on the code
// path that computed it.
template <typename Raw>
struct Lanes {
  Raw v;
};
template <typename Raw>
struct Product {
  Raw a, b;
  operator Lanes<Raw>() const { return {a * b}; }
};

// AVX2 and AVX-512 vectors of float and double.
typedef float Floats8 __attribute__((vector_size(32)));
typedef double Doubles4 __attribute__((vector_size(32)));
typedef float Floats16 __attribute__((vector_size(64)));
typedef double Doubles8 __attribute__((vector_size(64)));
#if defined(__FMA__)
inline Floats8 fused_multiply_add(Floats8 a, Floats8 b, Floats8 c) { return _mm256_fmadd_ps(a, b, c); }
inline Doubles4 fused_multiply_add(Doubles4 a, Doubles4 b, Doubles4 c) { return _mm256_fmadd_pd(a, b, c); }
#endif
#if defined(__AVX512F__)
inline Floats16 fused_multiply_add(Floats16 a, Floats16 b, Floats16 c) { return _mm512_fmadd_ps(a, b, c); }
inline Doubles8 fused_multiply_add(Doubles8 a, Doubles8 b, Doubles8 c) { return _mm512_fmadd_pd(a, b, c); }
#endif

template <typename Raw>
inline Product<Raw> operator*(Lanes<Raw> a, Lanes<Raw> b) {
  return {a.v, b.v};
}
template <typename Raw>
inline Lanes<Raw> operator+(Lanes<Raw> a, Lanes<Raw> b) {
  return {a.v + b.v};
}
template <typename Raw>
inline Lanes<Raw> operator+(Lanes<Raw> acc, Product<Raw> p) {
  return {fused_multiply_add(p.a, p.b, acc.v)};
}
template <typename Raw>
inline Lanes<Raw>& operator+=(Lanes<Raw>& acc, Product<Raw> p) {
  return acc = acc + p;
}

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

// `value` in every lane of V: T itself, or Lanes of a vector of T.
template <typename V, typename T>
inline V broadcast(T value) {
  if constexpr (sizeof(V) == sizeof(T)) return value;
  else return V{decltype(V::v){} + value};
}

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }
inline int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
// Splits `total` items into `count` parts whose sizes differ by one at most; part i's first.
inline int part_begin(int i, int count, int total) { return int((long long)i * total / count); }

// One pass's weights and constant as vectors, and the pass over one row segment.
template <int R, typename V, typename T>
struct PassVectors {
  static constexpr int kLanes = int(sizeof(V) / sizeof(T));
  StencilWeights<R, V> weights;
  V c;

  PassVectors(const CpuPassSweep<T>& s, T c_value) : c(broadcast<V>(c_value)) {
    weights.center = broadcast<V>(s.center);
    for (int a = 0; a < 3; ++a)
      for (int k = 0; k < R; ++k) weights.axis[a][k] = broadcast<V>(s.axis[a][k]);
  }

  // The pass at the vector of points from i, by the shared math. in[R + d] is the row's first
  // point in the operand's plane z + d (d = -r..r), in_row the distance between the operand's rows.
  V at(const T* const* in, std::size_t in_row, const T* base, int i) const {
    const T* centre = in[R] + i;
    auto pair_sum = [&](int axis, int d) {
      if (axis == 0) return load<V>(centre + d) + load<V>(centre - d);
      if (axis == 1) return load<V>(centre + std::size_t(d) * in_row) + load<V>(centre - std::size_t(d) * in_row);
      return load<V>(in[R + d] + i) + load<V>(in[R - d] + i);
    };
    const V lap = apply_stencil<R, V>(weights, load<V>(centre), pair_sum);
    return base_plus_lap(load<V>(base + i), c, lap);
  }

  // `width` points (at least a vector's) of a row into out, plus `add` where it is not null. Where
  // the width is not a whole number of vectors the last vector overlaps the one before; it is
  // computed before any store of the row, so in place (out == base) it still reads the base as it
  // was, and it stores the same values.
  void row(const T* const* in, std::size_t in_row, const T* base, const T* add, T* out, int width) const {
    const int last = width - kLanes;
    if (!add) {
      const V tail = at(in, in_row, base, last);
      for (int i = 0; i < last; i += kLanes) store(out + i, at(in, in_row, base, i));
      store(out + last, tail);
      return;
    }
    const auto added = [&](int i) { return at(in, in_row, base, i) + load<V>(add + i); };
    const V tail = added(last);
    for (int i = 0; i < last; i += kLanes) store(out + i, added(i));
    store(out + last, tail);
  }
};

// The blocks of a sweep over an interior of w x h x d points, and each block's part of it.
struct BlockLayout {
  int w, h, d, x_count, y_count, z_count;
  int blocks() const { return x_count * y_count * z_count; }
  int block_x(int n, int i) const { return part_begin(n % x_count + i, x_count, w); }
  int block_y(int n, int i) const { return part_begin((n / x_count) % y_count + i, y_count, h); }
  int block_z(int n, int i) const { return part_begin(n / (x_count * y_count) + i, z_count, d); }
};

// Blocks whose stencil planes (2r+1 of the block and r around it) fit kBlockCacheBytes: whole
// rows where 16 of them fit, so that a block's part of a plane is one stretch of memory, which the
// hardware prefetcher streams (row segments of a few cache lines it did not: a step took twice as
// long); otherwise as many segments as keep 16 rows. Then the parts in y and chunks in z that
// balance the threads best against what a sweep of two passes computes twice (r rows and planes
// around every block), with at least four blocks per thread where the grid allows: with fewer,
// one slow block holds every thread up.
inline BlockLayout block_layout(int w, int h, int d, int radius, std::size_t value_size, int lanes, int threads) {
  BlockLayout b{w, h, d, 1, 1, 1};
  const double planes = double(2 * radius + 1) * double(value_size);
  constexpr int kMinRows = 16;
  const int widest = int(double(kBlockCacheBytes) / (planes * (kMinRows + 2 * radius))) - 2 * radius;
  b.x_count = clamp(ceil_div(w, widest > lanes ? widest : lanes), 1, w / lanes);
  const int region_x = ceil_div(w, b.x_count) + 2 * radius;
  const int rows = int(double(kBlockCacheBytes) / (planes * double(region_x))) - 2 * radius;
  const int fewest_y = ceil_div(h, clamp(rows, 4, h));
  // The cache's split in y, then more parts (up to four times as many) only while the blocks are
  // too few for the threads.
  const int wanted = 4 * threads;
  auto search = [&](int most_y, bool more) {
    double best = 0;
    for (int y_count = fewest_y; y_count <= most_y; ++y_count)
      for (int z_count = 1; z_count <= (d + 7) / 8; ++z_count) {
        const int blocks = b.x_count * y_count * z_count;
        const double imbalance = double(ceil_div(blocks, threads)) * threads / blocks;
        const double too_few = more && blocks < wanted ? double(wanted) / blocks : 1.0;
        const double twice = (1.0 + double(radius) * z_count / d) * (more ? 1.0 + double(radius) * y_count / h : 1.0);
        const double cost = too_few * imbalance * twice;
        if (best == 0 || cost < best) {
          best = cost;
          b.y_count = y_count;
          b.z_count = z_count;
        }
      }
  };
  search(fewest_y, false);
  if (b.blocks() < wanted) search(std::max(fewest_y, std::min(4 * fewest_y, h / kMinRows)), true);
  return b;
}

// One pass: in the grid, the operand's planes are nx*ny apart and its rows nx.
template <int R, typename V, typename T>
void one_pass(const CpuPassSweep<T>& s, const BlockLayout& b) {
  const std::size_t nx = std::size_t(s.nx), plane = nx * std::size_t(s.ny);
#pragma omp parallel for schedule(dynamic, 1)
  for (int n = 0; n < b.blocks(); ++n) {
    // Its own copy, which no store can alias, so the weights stay in registers.
    const PassVectors<R, V, T> pass(s, s.c[0]);
    const int x0 = R + b.block_x(n, 0), x1 = R + b.block_x(n, 1);
    for (int k = R + b.block_z(n, 0); k < R + b.block_z(n, 1); ++k)
      for (int j = R + b.block_y(n, 0); j < R + b.block_y(n, 1); ++j) {
        const std::size_t at = std::size_t(k) * plane + std::size_t(j) * nx + std::size_t(x0);
        const T* in[2 * R + 1];
        for (int dz = -R; dz <= R; ++dz) in[R + dz] = s.in + at + std::ptrdiff_t(dz) * std::ptrdiff_t(plane);
        pass.row(in, nx, s.base + at, s.add ? s.add + at : nullptr, s.out + at, x1 - x0);
      }
  }
}

// Two passes: the first into a ring of planes per thread, the second from it. False when a
// thread's ring could not be allocated (nothing is written then).
template <int R, typename V, typename T>
bool two_passes(const CpuPassSweep<T>& s, const BlockLayout& b) {
  const int nx = s.nx, ny = s.ny, nz = s.nz;
  const std::size_t plane = std::size_t(nx) * std::size_t(ny);
  // A ring row holds the region's columns from `pad` on, placed so that the block's first column
  // starts a vector: the second pass, which reads the ring 6r+1 times per point, loads whole
  // aligned vectors but for its x neighbours. The pad (a vector or more) also takes the first
  // pass's vectors that start before the region (below). Rows and planes are whole vectors.
  constexpr int N = PassVectors<R, V, T>::kLanes;
  constexpr int pad = N + (N - R % N) % N;
  const int region_x = ceil_div(b.w, b.x_count) + 2 * R, region_y = ceil_div(b.h, b.y_count) + 2 * R;
  const std::size_t pitch = std::size_t(ceil_div(pad + region_x, N) * N);
  const std::size_t ring_plane = pitch * std::size_t(region_y);
  bool failed = false;
#pragma omp parallel
  {
    constexpr std::size_t kAlign = 64;
    const std::size_t bytes = ((2 * R + 1) * ring_plane * sizeof(T) + kAlign - 1) / kAlign * kAlign;
    T* const ring = static_cast<T*>(aligned_alloc(kAlign, bytes));
    if (!ring) {
#pragma omp atomic write
      failed = true;
    }
#pragma omp barrier
    if (!failed) {
#pragma omp for schedule(dynamic, 1)
      for (int n = 0; n < b.blocks(); ++n) {
        const PassVectors<R, V, T> first(s, s.c[0]), second(s, s.c[1]);
        const int x0 = R + b.block_x(n, 0), x1 = R + b.block_x(n, 1);
        const int y0 = R + b.block_y(n, 0), y1 = R + b.block_y(n, 1);
        const int z0 = R + b.block_z(n, 0), z1 = R + b.block_z(n, 1);
        // The region the first pass covers: the block and r around it, all within the grid.
        const int xa = x0 - R, xb = x1 + R, ya = y0 - R, yb = y1 + R;
        const int cols = xb - xa;
        // The first pass's interior columns in the region (the rest is the boundary, where it is the base).
        const int lo = xa > R ? xa : R, hi = xb < nx - R ? xb : nx - R;
        auto slot = [&](int z) { return ring + std::size_t(z % (2 * R + 1)) * ring_plane; };
        for (int z = z0 - R; z < z1 + R; ++z) {
          T* const ring_plane_z = slot(z);
          const bool z_inside = z >= R && z < nz - R;
          for (int y = ya; y < yb; ++y) {
            T* const ring_row = ring_plane_z + std::size_t(y - ya) * pitch + std::size_t(pad - xa);  // at x = 0
            const std::size_t at = std::size_t(z) * plane + std::size_t(y) * std::size_t(nx);
            const T* const base_row = s.base + at;
            if (!z_inside || y < R || y >= ny - R) {
              __builtin_memcpy(ring_row + xa, base_row + xa, std::size_t(cols) * sizeof(T));
              continue;
            }
            // The first pass starts where its operand's vector does, so that it loads whole vectors
            // where the grid's rows are too; what it computes before lo is replaced below.
            const int start = lo - int(reinterpret_cast<__UINTPTR_TYPE__>(s.in + at + lo) / sizeof(T) % N);
            const T* in[2 * R + 1];
            for (int dz = -R; dz <= R; ++dz)
              in[R + dz] = s.in + at + std::ptrdiff_t(dz) * std::ptrdiff_t(plane) + start;
            first.row(in, std::size_t(nx), base_row + start, nullptr, ring_row + start, hi - start);
            __builtin_memcpy(ring_row + xa, base_row + xa, std::size_t(lo - xa) * sizeof(T));
            __builtin_memcpy(ring_row + hi, base_row + hi, std::size_t(xb - hi) * sizeof(T));
          }
          const int zc = z - R;  // the plane the second pass can now compute
          if (zc < z0) continue;
          for (int y = y0; y < y1; ++y) {
            const std::size_t in_at = std::size_t(y - ya) * pitch + std::size_t(pad + R);  // at x0
            const T* in[2 * R + 1];
            for (int dz = -R; dz <= R; ++dz) in[R + dz] = slot(zc + dz) + in_at;
            const std::size_t at = std::size_t(zc) * plane + std::size_t(y) * std::size_t(nx) + std::size_t(x0);
            second.row(in, pitch, s.base + at, s.add ? s.add + at : nullptr, s.out + at, x1 - x0);
          }
        }
      }
    }
    free(ring);
  }
  return !failed;
}

template <int R, typename V, typename T>
bool sweep(const CpuPassSweep<T>& s) {
  const int w = s.nx - 2 * R, h = s.ny - 2 * R, d = s.nz - 2 * R;
  if (w <= 0 || h <= 0 || d <= 0) return true;
  constexpr int kLanes = int(sizeof(V) / sizeof(T));
  const BlockLayout b = block_layout(w, h, d, R, sizeof(T), kLanes, omp_get_max_threads());
  if (s.passes == 2) return two_passes<R, V>(s, b);
  one_pass<R, V>(s, b);
  return true;
}

template <typename V, typename T>
bool sweep_any_radius(const CpuPassSweep<T>& s) {
  switch (s.radius) {
    case 1: return sweep<1, V>(s);
    case 2: return sweep<2, V>(s);
    case 3: return sweep<3, V>(s);
    case 4: return sweep<4, V>(s);
  }
  __builtin_trap();  // the backend makes sweeps of a supported order only
}

}  // namespace
}  // namespace heat
