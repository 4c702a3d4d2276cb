#include "parallel/face_packing.hpp"

#include <algorithm>

#include "backends/cuda/cuda_check.cuh"

namespace heat {

namespace {

constexpr int kThreads = 256;
constexpr int kMostPlaneBlocks = 65535;  // gridDim.y's limit; the kernel loops over the planes beyond

// Block (x, y, z) copies values [x * kThreads, (x + 1) * kThreads) of each of the planes y, y +
// gridDim.y, ... of side z's block: a plane of the face is extent[0] * extent[1] values, in the
// packed run one after the other.
template <typename T, bool Pack>
__global__ void copy_face(const T* __restrict__ from, T* __restrict__ to, FaceCopies c) {
  const int plane_values = c.extent[0] * c.extent[1];
  const int i = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (i >= plane_values) return;
  const int row = i / c.extent[0], column = i - row * c.extent[0];
  const std::size_t box_at = c.box_at[blockIdx.z] + std::size_t(column) + std::size_t(row) * std::size_t(c.stride_y);
  const std::size_t packed_at = c.packed_at[blockIdx.z] + std::size_t(i);
  for (int z = int(blockIdx.y); z < c.extent[2]; z += int(gridDim.y)) {
    const std::size_t strided = box_at + std::size_t(z) * std::size_t(c.stride_z);
    const std::size_t packed = packed_at + std::size_t(z) * std::size_t(plane_values);
    if constexpr (Pack)
      to[packed] = from[strided];
    else
      to[strided] = from[packed];
  }
}

template <typename T, bool Pack>
void launch_copy_face(const T* from, T* to, const FaceCopies& c, cudaStream_t stream) {
  const int plane_values = c.extent[0] * c.extent[1];
  if (c.sides == 0 || plane_values == 0 || c.extent[2] == 0) return;
  const dim3 grid(unsigned(ceil_div(plane_values, kThreads)), unsigned(std::min(c.extent[2], kMostPlaneBlocks)),
                  unsigned(c.sides));
  copy_face<T, Pack><<<grid, kThreads, 0, stream>>>(from, to, c);
  HEAT_CUDA_CHECK_LAUNCH();
}

}  // namespace

template <typename T>
void pack_face(const T* box, T* packed, const FaceCopies& copies, cudaStream_t stream) {
  launch_copy_face<T, true>(box, packed, copies, stream);
}

template <typename T>
void unpack_face(const T* packed, T* box, const FaceCopies& copies, cudaStream_t stream) {
  launch_copy_face<T, false>(packed, box, copies, stream);
}

template void pack_face(const float*, float*, const FaceCopies&, cudaStream_t);
template void pack_face(const double*, double*, const FaceCopies&, cudaStream_t);
template void unpack_face(const float*, float*, const FaceCopies&, cudaStream_t);
template void unpack_face(const double*, double*, const FaceCopies&, cudaStream_t);

}  // namespace heat
