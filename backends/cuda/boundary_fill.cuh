// The boundary fill of a device field (docs/design.md §1, "Boundary"), with the host's semantics
// (backends/cpu/boundary_fill.hpp) and core/boundary_ghosts.hpp's formulas: the ghosts of every
// face whose condition is not layer. Each ghost is made from its row's points in [r, n - r) along
// the axis, which are no face's ghosts (but on a periodic face's rows across the earlier axes'
// ghosts, below), so every face's ghosts fill in one launch, a thread a row: an x face's row's
// ghosts are neighbours, in one 32-byte sector where the row starts on one, which its thread loads
// and stores whole (the row's points in it rewritten as they are), so that no sector is written
// in part; a y or z face's rows are neighbours along x, so a warp's accesses coalesce, each
// thread's r loads issued before its r stores. Two things order launches: the temperature faces'
// points are held first, in a launch of their own, since other faces' rows read them; and a
// periodic face's rows as the host fills them cross the ghosts of the axes before it (edges and
// corners), so they fill after the launch of those axes: 1 to 4 launches (four: y and z periodic
// beside a temperature x face). A field that only the next stencil reads (a pass's operand, a
// stage field) needs no edges (FillRows::StencilRead): one launch, two with a temperature face.
// A radiation face's rows (fill_face_row: an r x r solve a row) go in a kernel of their own beside
// the launch of their axis's faces, so that the other kinds' kernel keeps its registers.
// The fill moves about (2r + 1) * 6/n of a field, an x face's rows in whole sectors (at order 8
// in float a row reads two and writes one). Compiled without contracting multiply-adds
// (backends/CMakeLists.txt), so each ghost rounds as the host's does: the same bits.
#pragma once

#include <cuda_runtime.h>

#include "backends/cuda/device_buffer.cuh"
#include "core/boundary_ghosts.hpp"

namespace heat {

// The rows a fill covers: the host's (Whole: a periodic face's rows also cross the earlier axes'
// ghosts, for a field that is downloaded, compared or exchanged whole), or only those whose other
// two indices are in [r, n - r), the ghosts a star stencil reads (StencilRead).
enum class FillRows { Whole, StencilRead };

// The faces one launch fills, passed to its kernel as a parameter. Block (x, y) takes face k where
// first_block[k] <= x < first_block[k + 1]: a row a thread, 32 rows from (x - first_block[k]) * 32
// on along the lower other axis (a warp), on 8 lines from 8y on along the higher (a warp a line;
// and again each 8 gridDim.y lines on).
struct FaceFillList {
  int count = 0;
  FaceFill face[kFaces];
  int first_block[kFaces + 1] = {};
  int most_lines = 0;  // rows along the higher other axis, the most of any face
  // Each axis's temperature face points (low, high), -1 where that face is not temperature: a point
  // on two temperature faces takes the later axis's T, as the host's fill, face by face, leaves it.
  int held_point[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
};
static_assert(sizeof(FaceFillList) <= 4096, "a kernel's parameters fit in 4 KB on every CUDA version");

// The device's copies of what p's fill reads beside the field, in double as the host's fill reads
// them (face_fill points at the host's): the source's rate where a temperature face meets a
// source, and with material fields K (a flux face's gradient -Q/K, a temperature face's curvature
// -q/K with a source), C (that curvature's q = rate * C) and each convective face's row weights.
// Uploaded once; empty where p's fill reads none of them (material_arrays.hpp, source_arrays.hpp).
class DeviceFillArrays {
 public:
  DeviceFillArrays() = default;
  explicit DeviceFillArrays(const Problem& p);
  const double* source_rate() const { return source_rate_.get(); }
  const double* conductivity() const { return conductivity_.get(); }
  const double* heat_capacity() const { return heat_capacity_.get(); }
  const double* row_weights(int face) const { return row_weights_[face].get(); }

 private:
  DeviceBuffer<double> source_rate_, conductivity_, heat_capacity_, row_weights_[kFaces];
};

class DeviceBoundaryFill {
 public:
  DeviceBoundaryFill() = default;  // fills nothing
  // The fill of `part` of p's conditions on `rows`, its face lists kept on the current device; a
  // radiation face's only as FillPart::Full (its fill is not affine: logic_error).
  // `arrays`: the device's copies of what the fill reads beside the field (DeviceFillArrays(p));
  // null where p's fill reads none (no source beside a temperature face, no material fields).
  DeviceBoundaryFill(const Problem& p, FillPart part, FillRows rows = FillRows::Whole,
                     const DeviceFillArrays* arrays = nullptr);

  // Whether a face's condition is not layer: otherwise a fill does nothing.
  bool fills() const { return launches_ > 0; }
  // Fills the ghosts of `u` (the whole grid or box of the problem, in device memory) on `stream`;
  // launches nothing where every face is layer.
  template <typename T>
  void operator()(T* u, cudaStream_t stream = 0) const;

 private:
  static constexpr int kMostLists = 4;
  // The temperature faces' points (if any), then the ghosts: one list, or one per axis where a
  // periodic face's rows cross the ghosts of the axes before it. Each goes to its kernel as a
  // parameter (4 KB at most: about 2 KB). A ghost launch's radiation faces are in radiating_ at
  // its index, filled by a kernel of their own beside it.
  FaceFillList lists_[kMostLists], radiating_[kMostLists];
  int launches_ = 0;
  bool holds_ = false;  // lists_[0] holds temperature faces' points
  int order_ = 2;       // the kernels' radius, order_ / 2
};

}  // namespace heat
