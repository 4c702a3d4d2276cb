#include "backends/cuda/boundary_fill.cuh"

#include <stdexcept>

namespace heat {
namespace {

constexpr int kThreads = 256;
constexpr unsigned long long kMostBlocksX = 1 << 14;

// Whether a temperature face of a later axis holds the point of row `row` of face f (its face
// point along f's axis), which it then sets instead.
__device__ bool held_by_later_axis(const FaceFillList& list, const FaceFill& f, long long row) {
  for (int which = 0; which < 2; ++which) {
    const int axis = which == 0 ? lower_other_axis(f.axis) : higher_other_axis(f.axis);
    const int at = f.row_coordinate(row, which);
    if (axis > f.axis && (at == list.held_point[axis][0] || at == list.held_point[axis][1])) return true;
  }
  return false;
}

// Face blockIdx.y of the list, its rows grid-stride along x: rows run along the lower other
// axis first, so a warp's rows of a y or z face are neighbours along x.
template <typename T, bool Hold>
__global__ void fill_face_rows(const FaceFillList* __restrict__ list, T* __restrict__ u) {
  const FaceFill& f = list->face[blockIdx.y];
  const long long rows = f.rows();
  for (long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; row < rows;
       row += (long long)gridDim.x * blockDim.x) {
    if constexpr (Hold) {
      if (!held_by_later_axis(*list, f, row)) hold_face_point(f, u, f.row_base(row));
    } else {
      fill_face_row(f, u, f.row_base(row));
    }
  }
}

void add_face(FaceFillList& list, const FaceFill& f) {
  list.face[list.count++] = f;
  if (f.rows() > list.most_rows) list.most_rows = f.rows();
}

template <typename T, bool Hold>
void launch_fill(const FaceFillList& list, const FaceFillList* on_device, T* u, cudaStream_t stream) {
  if (list.count == 0) return;
  const dim3 blocks(grid_stride_blocks(list.most_rows, kThreads, kMostBlocksX), list.count);
  fill_face_rows<T, Hold><<<blocks, kThreads, 0, stream>>>(on_device, u);
  HEAT_CUDA_CHECK_LAUNCH();
}

}  // namespace

DeviceBoundaryFill::DeviceBoundaryFill(const Problem& p, FillPart part, const double* source_rate) {
  for (int face = 0; face < kFaces; ++face) {
    const BoundaryKind kind = p.boundaries[face].kind;
    if (kind == BoundaryKind::Layer) continue;
    FaceFill f = face_fill(p, face, part);
    if (f.source_rate) {
      // face_fill points at the host's rate; the kernels read the device's.
      if (!source_rate) throw std::logic_error("a temperature face's fill with a source needs its rate on the device");
      f.source_rate = source_rate;
    }
    add_face(ghosts_[f.axis], f);
    if (kind != BoundaryKind::Temperature) continue;
    add_face(held_, f);
    held_.held_point[f.axis][face % 2] = f.face_point;
  }
  if (!fills()) return;
  lists_ = DeviceBuffer<FaceFillList>(4);
  const FaceFillList all[4] = {held_, ghosts_[0], ghosts_[1], ghosts_[2]};
  lists_.copy_from_host(all);
}

template <typename T>
void DeviceBoundaryFill::operator()(T* u, cudaStream_t stream) const {
  launch_fill<T, true>(held_, lists_.get(), u, stream);
  for (int axis = 0; axis < 3; ++axis) launch_fill<T, false>(ghosts_[axis], lists_.get() + 1 + axis, u, stream);
}

template void DeviceBoundaryFill::operator()<float>(float*, cudaStream_t) const;
template void DeviceBoundaryFill::operator()<double>(double*, cudaStream_t) const;

}  // namespace heat
