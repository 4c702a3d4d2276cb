// Ghosts written by the pass that writes a field (docs/design.md §1, "Boundary"): where every face
// that is not layer is insulated, flux, temperature without a source or periodic, each ghost the
// next pass's stencil reads (the rows of FillRows::StencilRead) is a function of one interior point
// of its row, the one this pass computes: so the thread that stores that point also stores the
// ghosts made from it, and no fill launch runs between the passes. Along an axis with such a face,
// the point m = 1..r inside the face point f (f - outward m) stores its mirror ghost at
// f + outward m (core/boundary_ghosts.hpp's mirror_ghost, from a constant made there, so each ghost
// rounds as the fill's does: the same bits); a temperature face's point stores T (the hold) before
// any ghost reads it; a point of a periodic axis stores itself at every ghost that wraps to it.
// Convective ghosts read r + 1 points of other threads, and temperature with a source a rate at
// the face: those problems keep the separate fill (ghosts_written_by_passes).
#pragma once

#include "backends/cuda/cuda_backend.cuh"
#include "core/boundary_ghosts.hpp"
#include "core/problem.hpp"
#include "stencils/stencil.hpp"

namespace heat {

// One face, as the kernels read it: Layer writes nothing.
struct GhostFace {
  BoundaryKind kind = BoundaryKind::Layer;
  int face_point = 0;  // r at a low face, n - 1 - r at a high one
  int outward = 0;     // -1 at a low face, +1 at a high one
  int period = 0;      // a periodic axis's n - 2r
  double held = 0;     // temperature: T
  double constant[kMaxRadius] = {};  // mirror_constant of ghost m = 1..r
};

// Every face's writes, and along each axis the coordinates near no face (where a point holds and
// writes nothing): [near_below, near_above).
struct GhostWrites {
  GhostFace face[kFaces];
  int n[3] = {0, 0, 0};
  int near_below[3] = {0, 0, 0};
  int near_above[3] = {0, 0, 0};
};

// Whether a pass can write the ghosts its output's readers need (above): every face is layer or of
// the mirror family or periodic, no temperature face has a source, and K is uniform.
inline bool ghosts_written_by_passes(const Problem& p) {
  if (p.materials) return false;
  bool any = false;
  for (const BoundaryCondition& c : p.boundaries) {
    if (c.kind == BoundaryKind::Convective) return false;
    if (c.kind == BoundaryKind::Temperature && p.source) return false;
    any = any || c.kind != BoundaryKind::Layer;
  }
  return any;
}

// p's faces as plain numbers, from face_fill's (the full part: the passes' operands meet the
// conditions as stated).
inline GhostWrites ghost_writes(const Problem& p) {
  GhostWrites w;
  const int r = p.radius();
  const int n[3] = {p.grid.nx, p.grid.ny, p.grid.nz};
  for (int axis = 0; axis < 3; ++axis) {
    w.n[axis] = n[axis];
    w.near_below[axis] = 0;
    w.near_above[axis] = n[axis];
  }
  for (int face = 0; face < kFaces; ++face) {
    if (p.boundaries[face].kind == BoundaryKind::Layer) continue;
    const FaceFill f = face_fill(p, face, FillPart::Full);
    GhostFace& g = w.face[face];
    g.kind = f.kind;
    g.face_point = f.face_point;
    g.outward = f.outward;
    g.period = f.period;
    g.held = f.value;
    for (int m = 1; m <= r; ++m)
      g.constant[m - 1] = f.kind == BoundaryKind::Temperature ? mirror_constant<BoundaryKind::Temperature>(f, 0, m)
                          : f.kind == BoundaryKind::Flux      ? mirror_constant<BoundaryKind::Flux>(f, 0, m)
                                                              : 0;
    // The face point and the r points inside it; on a periodic axis the r points inside each face
    // point are those that store the other face's ghosts.
    if (f.outward < 0)
      w.near_below[f.axis] = f.face_point + r + 1;
    else
      w.near_above[f.axis] = f.face_point - r;
  }
  return w;
}

#if defined(__CUDACC__)

__device__ __forceinline__ bool near_face(const GhostWrites& w, int axis, int at) {
  return at < w.near_below[axis] || at >= w.near_above[axis];
}

// Which of a thread's own columns (own_columns' bits, from (gx, gy0)) are near an x or y face.
template <int C>
__device__ __forceinline__ unsigned columns_near_faces(const GhostWrites& w, int gx, int gy0) {
  unsigned near = 0;
#pragma unroll
  for (int c = 0; c < C; ++c)
    if (near_face(w, 0, gx + c % 2) || near_face(w, 1, gy0 + c / 2)) near |= 1u << c;
  return near;
}

// The value a computed point stores: T where it is a temperature face's point (a point on two such
// faces takes the later axis's T, as the fill leaves it).
template <typename T>
__device__ T held_value(const GhostWrites& w, const int (&at)[3], T value) {
#pragma unroll
  for (int face = 0; face < kFaces; ++face) {
    const GhostFace& f = w.face[face];
    if (f.kind == BoundaryKind::Temperature && at[face / 2] == f.face_point) value = T(f.held);
  }
  return value;
}

__device__ __forceinline__ double mirror_ghost_of(BoundaryKind kind, double mirror, double constant) {
  if (kind == BoundaryKind::Temperature) return mirror_ghost<BoundaryKind::Temperature>(mirror, constant);
  if (kind == BoundaryKind::Flux) return mirror_ghost<BoundaryKind::Flux>(mirror, constant);
  return mirror_ghost<BoundaryKind::Insulated>(mirror, constant);
}

// The ghosts made from the computed point `at` whose (held) value is `value`, into `out`.
template <int R, typename T>
__device__ void write_point_ghosts(const GhostWrites& w, const GridDims& d, T* out, const int (&at)[3], T value) {
  const long long stride[3] = {1, (long long)d.stride_y, (long long)d.stride_z};
  const long long point = at[0] + at[1] * stride[1] + at[2] * stride[2];
#pragma unroll
  for (int axis = 0; axis < 3; ++axis) {
    const GhostFace& low = w.face[2 * axis];
    if (low.kind == BoundaryKind::Periodic) {
      // Ghost g holds the point r + ((g - r) mod period): those below r and those from n - r on.
      for (int g = at[axis] - low.period; g >= 0; g -= low.period) out[point + (g - at[axis]) * stride[axis]] = value;
      for (int g = at[axis] + low.period; g < w.n[axis]; g += low.period)
        out[point + (g - at[axis]) * stride[axis]] = value;
      continue;
    }
#pragma unroll
    for (int side = 0; side < 2; ++side) {
      const GhostFace& f = w.face[2 * axis + side];
      if (f.kind == BoundaryKind::Layer) continue;
      const int m = (f.face_point - at[axis]) * f.outward;  // how far inside the face point
      if (m < 1 || m > R) continue;
      const T ghost = T(mirror_ghost_of(f.kind, double(value), f.constant[m - 1]));
      out[point + 2 * m * f.outward * stride[axis]] = ghost;
    }
  }
}

// A pass's epilogue, for the own columns `near` (computed and near a face) of the thread at
// (gx, gy0) on plane z: first the holds (before the values are stored), then the ghosts.
template <int C, typename T>
__device__ __forceinline__ void hold_face_points(const GhostWrites& w, int gx, int gy0, int z, unsigned near,
                                                 T (&result)[C]) {
#pragma unroll
  for (int c = 0; c < C; ++c)
    if (near & (1u << c)) result[c] = held_value(w, {gx + c % 2, gy0 + c / 2, z}, result[c]);
}
template <int R, int C, typename T>
__device__ __forceinline__ void write_ghosts(const GhostWrites& w, const GridDims& d, T* out, int gx, int gy0, int z,
                                             unsigned near, const T (&result)[C]) {
#pragma unroll
  for (int c = 0; c < C; ++c)
    if (near & (1u << c)) write_point_ghosts<R>(w, d, out, {gx + c % 2, gy0 + c / 2, z}, result[c]);
}

#endif

}  // namespace heat
