// The kernels that pack a box's faces across x and y into contiguous blocks and unpack received
// blocks into its ghost points, for GPU ranks on a rank grid (grid_halo_exchange.hpp): a face is
// no run of memory (an x face is rows of a few values each), the routes move runs. One kernel for
// both directions, a thread a value, consecutive threads on consecutive values of the face's
// rows, so that each warp's accesses to the packed block coalesce and those to the box fall in
// as few sectors as the face's rows allow (docs/design.md §7 says why a kernel and not the copy
// engines' strided copies).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace heat {

// One face's blocks on up to two sides of a box: `extent` points (along x, y, z) of the box, whose
// rows are stride_y and planes stride_z values apart, from box_at[side] on; contiguous in the
// packed buffer from packed_at[side] on.
struct FaceCopies {
  int sides = 0;  // 0 to 2
  std::size_t box_at[2] = {}, packed_at[2] = {};
  int extent[3] = {};
  long long stride_y = 0, stride_z = 0;
};

// Each side's block of `box` into `packed`, on `stream`; launches nothing without a side.
template <typename T>
void pack_face(const T* box, T* packed, const FaceCopies& copies, cudaStream_t stream);
// Each side's run of `packed` into its block of `box`, on `stream`.
template <typename T>
void unpack_face(const T* packed, T* box, const FaceCopies& copies, cudaStream_t stream);

}  // namespace heat
