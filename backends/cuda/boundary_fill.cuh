// The boundary fill of a device field (docs/design.md §1, "Boundary"), with the host's semantics
// (backends/cpu/boundary_fill.hpp) and core/boundary_ghosts.hpp's formulas: the ghosts of every
// face whose condition is not layer, in four launches at most. The first holds the temperature
// faces' points; then each axis's faces, x, y and z, a launch each: a periodic face's rows read
// the ghosts of the axes before it (its corners), which the launches before it have filled, and
// no face's rows read its own axis's other face's ghosts. Compiled without contracting
// multiply-adds (backends/CMakeLists.txt), so each ghost rounds as the host's does: the same bits.
#pragma once

#include <cuda_runtime.h>

#include "backends/cuda/device_buffer.cuh"
#include "core/boundary_ghosts.hpp"

namespace heat {

// The faces one launch fills, a block row (blockIdx.y) each.
struct FaceFillList {
  int count = 0;
  FaceFill face[kFaces];
  long long most_rows = 0;
  // Each axis's temperature face points (low, high), -1 where that face is not temperature: a point
  // on two temperature faces takes the later axis's T, as the host's fill, face by face, leaves it.
  int held_point[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
};

class DeviceBoundaryFill {
 public:
  DeviceBoundaryFill() = default;  // fills nothing
  // The fill of `part` of p's conditions, its face lists kept on the current device. `source_rate`:
  // p's source's rate q/C in device memory (double), which a temperature face's full fill reads;
  // needed where p has a source and a temperature face, else null.
  DeviceBoundaryFill(const Problem& p, FillPart part, const double* source_rate = nullptr);

  // Whether a face's condition is not layer: otherwise a fill does nothing.
  bool fills() const { return ghosts_[0].count + ghosts_[1].count + ghosts_[2].count > 0; }
  // Fills the ghosts of `u` (the whole grid or box of the problem, in device memory) on `stream`;
  // launches nothing where every face is layer.
  template <typename T>
  void operator()(T* u, cudaStream_t stream = 0) const;

 private:
  FaceFillList held_, ghosts_[3];        // the temperature faces; each axis's faces that are not layer
  DeviceBuffer<FaceFillList> lists_;     // held_ and ghosts_ on the device, where the kernels read them
};

}  // namespace heat
