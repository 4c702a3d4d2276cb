// The x faces' ghosts made by tiled's single pass itself (one_pass.cuh's kernel built with
// XFaces), where an x face's condition is not layer, so that the operand fill before the pass
// leaves them out (FillRows::StencilReadYZ). A separate fill pays dearly for them: an x face's
// ghosts are r values a row at the row's end, so each row costs partial 32-byte sectors that the
// memory reads before it writes them, rows a plane's stride apart (design.md §1, "Boundary"). In
// the pass they cost no traffic: the block holds the plane's columns in shared memory already.
// - A periodic axis: the strips of halo beside the tile's rows are read from the wrapped columns
//   where they lie on ghost columns, the index map fixed once per thread; at the first and last
//   tile, whose own columns hold the ghosts, the strip moves onto those columns. Those points go
//   to the shared plane after its barrier, over what the own columns put there.
// - A reflecting face (insulated, flux, convective, temperature): after the plane's barrier, the
//   blocks whose plane holds ghost columns of the face make them there from the face's points in
//   the plane (a tile is wider than 2r), a thread a ghost of a row, with the fill's formula
//   (core/boundary_ghosts.hpp's fill_ghost, through SharedPlaneRow); then a second barrier.
// Only the blocks at an x face take that branch. Every stencil of a computed point reads the same
// ghost values as after the fill: each is made from the same points by the same formula, rounded
// once (unfused_product keeps the kernel's contraction out of it), and temperature faces' points
// are still held by the fill. The pass leaves an operand's x ghosts in global memory as they were
// (the pair of a ghost and a computed column at odd r stores the ghost's value of u there), which
// nothing reads: the next pass makes its own, and u, which the fill after the step fills whole,
// is what downloads, snapshots, monitors and exchanges read.
#pragma once

#include "backends/cuda/boundary_fill.cuh"
#include "backends/tiled/column_pairs.cuh"
#include "core/boundary_ghosts.hpp"

namespace heat {

// The x faces' fills (low, high) as the operand fill would make their rows (device_face_fill on
// the stencil's rows); kind Layer where that face is layer.
struct XFaceFills {
  FaceFill face[2];
};

inline XFaceFills x_face_fills(const Problem& p, const DeviceFillArrays& arrays) {
  XFaceFills x;
  for (int face = 0; face < 2; ++face)
    if (p.boundaries[face].kind != BoundaryKind::Layer)
      x.face[face] = device_face_fill(p, face, FillPart::Full, FillRows::StencilRead, arrays);
  return x;
}

// Whether an x face's condition is not layer, so that tiled's single pass makes its ghosts.
inline bool fills_an_x_face(const Problem& p) {
  return p.boundaries[0].kind != BoundaryKind::Layer || p.boundaries[1].kind != BoundaryKind::Layer;
}

// A single pass's arguments with the x faces' fills after them.
template <int R, typename T>
struct XFacePassArgs : PassArgs<R, T, 1> {
  XFaceFills x_faces;
};

// One row of a shared plane, read and written through the field's flat indices: row[i] is the
// slot of the field's point i of the row whose point at column 0 has flat index `base` and would
// lie in slot `first_slot` (which is outside the plane where the tile does not start the row).
template <typename T>
struct SharedPlaneRow {
  T* plane;
  int first_slot;
  long long base;
  HD T& operator[](long long i) const { return plane[first_slot + int(i - base)]; }
};

// The offset from column x to the column a single pass reads for it: on a periodic x axis, a ghost
// column's wrapped column (the index map of the block's loads, fixed once per thread); 0 elsewhere.
__device__ __forceinline__ int wrap_offset(const XFaceFills& faces, int nx, int x) {
  const FaceFill& low = faces.face[0];
  if (low.kind != BoundaryKind::Periodic || (x >= low.radius && x < nx - low.radius)) return 0;
  return low.wrapped(x) - x;
}

// Whether face f's ghost columns lie within r of a tile of tile_x columns from column x0 (where
// the tile's stencils read), f not layer.
__device__ __forceinline__ bool ghosts_beside(const FaceFill& f, int x0, int tile_x, int r) {
  if (f.kind == BoundaryKind::Layer) return false;
  return f.outward < 0 ? x0 - r < f.face_point : x0 + tile_x + r > f.face_point + 1;
}

// Whether the planes of a block whose tile starts at column x0 hold ghost columns of an x face
// that is not layer (the same for the whole block).
__device__ __forceinline__ bool holds_x_ghosts(const XFaceFills& faces, int x0, int tile_x, int r) {
  return ghosts_beside(faces.face[0], x0, tile_x, r) || ghosts_beside(faces.face[1], x0, tile_x, r);
}

__device__ __forceinline__ bool reflects(const FaceFill& f) {
  return f.kind != BoundaryKind::Layer && f.kind != BoundaryKind::Periodic;
}

// Whether they hold ghost columns of a reflecting x face, which the block makes in its planes.
__device__ __forceinline__ bool holds_reflected_ghosts(const XFaceFills& faces, int x0, int tile_x, int r) {
  return (reflects(faces.face[0]) && ghosts_beside(faces.face[0], x0, tile_x, r)) ||
         (reflects(faces.face[1]) && ghosts_beside(faces.face[1], x0, tile_x, r));
}

// The reflecting faces' ghost columns of the tile's rows in shared plane `plane` (the tile from
// column x0 and row y0, the plane's points from flat index plane_at), made from the face's points
// there after the plane's barrier, a thread a ghost of a row, in a block whose plane holds some
// (holds_reflected_ghosts). The caller's barrier follows.
template <class Tile, typename T>
__device__ __forceinline__ void make_reflected_ghosts(const XFaceFills& faces, T* plane, int thread, int x0, int y0,
                                                      int ny, long long plane_at, long long stride_y) {
  constexpr int R = Tile::R, kGhosts = Tile::kTileY * R;  // a face's ghosts in the tile's rows
  static_assert(2 * kGhosts <= Tile::kThreads, "a thread a ghost of either face");
  if (thread >= 2 * kGhosts) return;
  const FaceFill& f = faces.face[thread / kGhosts];
  const int y = thread % kGhosts / R, m = thread % R + 1;
  const int column = f.face_point + f.outward * m;
  if (!reflects(f) || y0 + y >= ny - R || column < x0 - R || column >= x0 + Tile::kTileX + R) return;
  const long long base = plane_at + (y0 + y) * stride_y;
  fill_ghost(f, SharedPlaneRow<T>{plane, (y + R) * Tile::kPitch + Tile::kPad - x0, base}, base, m);
}

}  // namespace heat
