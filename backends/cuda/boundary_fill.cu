#include "backends/cuda/boundary_fill.cuh"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "backends/cuda/material_arrays.hpp"
#include "backends/cuda/source_arrays.hpp"
#include "core/dispatch.hpp"
#include "core/materials.hpp"

namespace heat {
namespace {

constexpr int kThreads = 256;
constexpr int kMostBlocksY = 65535;  // CUDA's limit on gridDim.y

// The threads an x face's row takes, a ghost each: r rounded up to a power of two.
__host__ __device__ constexpr int x_row_lanes(int radius) { return radius > 2 ? 4 : radius; }

// The rows a block of fill_ghosts takes of a face of `axis`: an x face's rows run along x, so a
// row's ghosts are neighbours and a warp takes a few whole rows, a lane a ghost; a y or z face's
// rows are neighbours along x, so a warp takes 32 of them, a thread a row.
int ghost_rows_a_block(int axis, int radius) { return axis == 0 ? kThreads / x_row_lanes(radius) : kThreads; }

// Whether a temperature face of a later axis holds the point of row (i0, i1) of face f (its face
// point along f's axis), which it then sets instead.
__device__ bool held_by_later_axis(const FaceFillList& list, const FaceFill& f, int i0, int i1) {
  for (int which = 0; which < 2; ++which) {
    const int axis = which == 0 ? lower_other_axis(f.axis) : higher_other_axis(f.axis);
    const int at = f.row_first[which] + (which == 0 ? i0 : i1);
    if (axis > f.axis && (at == list.held_point[axis][0] || at == list.held_point[axis][1])) return true;
  }
  return false;
}

// The list's face that block blockIdx.x takes.
__device__ int face_of_block(const FaceFillList& list) {
  int k = 0;
  while (int(blockIdx.x) >= list.first_block[k + 1]) ++k;
  return k;
}

// The first of the block's rows along face k's lower other axis.
__device__ int first_row_of_block(const FaceFillList& list, int k) {
  return (int(blockIdx.x) - list.first_block[k]) * list.rows_a_block[k];
}

// The r ghosts of a row of a y or z face, all read before any is written, so that a thread's
// loads are in flight together.
template <int R, typename T>
__device__ void fill_row_loads_first(const FaceFill& f, T* u, long long base) {
  with_ghost_kind(f.kind, [&](auto kind) {
    double value[R];
    HEAT_UNROLL for (int m = 1; m <= R; ++m) value[m - 1] = ghost_of_kind<decltype(kind)::value>(f, u, base, m);
    HEAT_UNROLL for (int m = 1; m <= R; ++m) u[f.at(base, f.face_point + f.outward * m)] = T(value[m - 1]);
  });
}

// Every ghost of the list's faces, at radius R (ghost_rows_a_block).
template <typename T, int R>
__global__ void __launch_bounds__(kThreads) fill_ghosts(const FaceFillList* __restrict__ list, T* __restrict__ u) {
  constexpr int kLanes = x_row_lanes(R);
  const int k = face_of_block(*list);
  const FaceFill& f = list->face[k];
  const bool ghost_a_thread = f.axis == 0;
  const int m = ghost_a_thread ? int(threadIdx.x % kLanes) + 1 : 0;
  const int i0 = first_row_of_block(*list, k) + int(ghost_a_thread ? threadIdx.x / kLanes : threadIdx.x);
  if (m > R || i0 >= f.row_count[0]) return;
  for (int i1 = blockIdx.y; i1 < f.row_count[1]; i1 += gridDim.y) {
    if (ghost_a_thread)
      fill_ghost(f, u, f.row_base(i0, i1), m);
    else
      fill_row_loads_first<R>(f, u, f.row_base(i0, i1));
  }
}

// The list's temperature faces' points, a thread a row, each where no later axis's face holds it.
template <typename T>
__global__ void __launch_bounds__(kThreads) hold_face_points(const FaceFillList* __restrict__ list, T* __restrict__ u) {
  const int k = face_of_block(*list);
  const FaceFill& f = list->face[k];
  const int i0 = first_row_of_block(*list, k) + int(threadIdx.x);
  if (i0 >= f.row_count[0]) return;
  for (int i1 = blockIdx.y; i1 < f.row_count[1]; i1 += gridDim.y)
    if (!held_by_later_axis(*list, f, i0, i1)) hold_face_point(f, u, f.row_base(i0, i1));
}

void add_face(FaceFillList& list, const FaceFill& f, int rows_a_block) {
  list.face[list.count] = f;
  list.rows_a_block[list.count] = rows_a_block;
  list.first_block[list.count + 1] = list.first_block[list.count] + ceil_div(f.row_count[0], rows_a_block);
  ++list.count;
  list.most_lines = std::max(list.most_lines, f.row_count[1]);
}

// Whether any of f's rows crosses the ghosts of an earlier axis (face_fill: a periodic face's).
bool crosses_earlier_ghosts(const FaceFill& f) { return f.row_first[0] == 0 || f.row_first[1] == 0; }

// Only the rows whose other two indices are in [r, n - r) (FillRows::StencilRead).
void keep_stencil_rows(FaceFill& f) {
  for (int which = 0; which < 2; ++which) {
    if (f.row_first[which] != 0) continue;
    f.row_first[which] = f.radius;
    f.row_count[which] -= 2 * f.radius;
  }
}

dim3 blocks_of(const FaceFillList& list) {
  return {unsigned(list.first_block[list.count]), unsigned(std::min(list.most_lines, kMostBlocksY))};
}

// The device's copy of what `host` points at (null stays null): `device`, which must be there.
const double* on_device(const double* host, const double* device, const char* what) {
  if (!host) return nullptr;
  if (!device) throw std::logic_error(std::string("a fill that reads ") + what + " needs it on the device");
  return device;
}

}  // namespace

DeviceFillArrays::DeviceFillArrays(const Problem& p) {
  const std::size_t points = p.grid.points();
  if (fill_reads_source_rate(p)) source_rate_ = DeviceBuffer<double>::copied_from_host(p.source->rate.data(), points);
  if (!p.materials) return;
  const Materials& m = *p.materials;
  if (fill_reads_conductivity(p)) conductivity_ = DeviceBuffer<double>::copied_from_host(m.conductivity.data(), points);
  if (fill_reads_heat_capacity(p))
    heat_capacity_ = DeviceBuffer<double>::copied_from_host(m.heat_capacity.data(), points);
  for (int face = 0; face < kFaces; ++face)
    if (!m.convective_weights[face].empty())
      row_weights_[face] =
          DeviceBuffer<double>::copied_from_host(m.convective_weights[face].data(), m.convective_weights[face].size());
}

DeviceBoundaryFill::DeviceBoundaryFill(const Problem& p, FillPart part, FillRows rows, const DeviceFillArrays* arrays)
    : order_(p.order) {
  const DeviceFillArrays none;
  const DeviceFillArrays& device = arrays ? *arrays : none;
  FaceFillList held, ghosts[3];
  int ghost_lists = 0;
  for (int face = 0; face < kFaces; ++face) {
    const BoundaryKind kind = p.boundaries[face].kind;
    if (kind == BoundaryKind::Layer) continue;
    FaceFill f = face_fill(p, face, part);
    // face_fill points at the host's arrays; the kernels read the device's, those the face's kind
    // reads (a material's K and C are set on every face).
    f.source_rate = on_device(f.source_rate, device.source_rate(), "a source's rate");
    const bool reads_conductivity = kind == BoundaryKind::Flux || f.source_rate;
    f.conductivity = reads_conductivity ? on_device(f.conductivity, device.conductivity(), "K") : nullptr;
    f.heat_capacity = f.source_rate ? on_device(f.heat_capacity, device.heat_capacity(), "C") : nullptr;
    f.row_weights = on_device(f.row_weights, device.row_weights(face), "convective row weights");
    if (rows == FillRows::StencilRead) keep_stencil_rows(f);
    // Rows that cross the earlier axes' ghosts fill in a launch after the one that writes them:
    // a new list where the last holds a face of an earlier axis (its first: faces come in order).
    const bool after_earlier_axes =
        ghost_lists > 0 && crosses_earlier_ghosts(f) && ghosts[ghost_lists - 1].face[0].axis < f.axis;
    if (ghost_lists == 0 || after_earlier_axes) ++ghost_lists;
    add_face(ghosts[ghost_lists - 1], f, ghost_rows_a_block(f.axis, f.radius));
    if (kind != BoundaryKind::Temperature) continue;
    add_face(held, f, kThreads);
    held.held_point[f.axis][face % 2] = f.face_point;
  }
  if (ghost_lists == 0) return;
  holds_ = held.count > 0;
  if (holds_) lists_[launches_++] = held;
  for (int list = 0; list < ghost_lists; ++list) lists_[launches_++] = ghosts[list];
  on_device_ = DeviceBuffer<FaceFillList>(launches_);
  on_device_.copy_from_host(lists_);
}

template <typename T>
void DeviceBoundaryFill::operator()(T* u, cudaStream_t stream) const {
  for (int list = 0; list < launches_; ++list) {
    const FaceFillList* on_device = on_device_.get() + list;
    if (list == 0 && holds_) {
      hold_face_points<T><<<blocks_of(lists_[list]), kThreads, 0, stream>>>(on_device, u);
    } else {
      with_radius(order_, [&](auto radius) {
        fill_ghosts<T, decltype(radius)::value><<<blocks_of(lists_[list]), kThreads, 0, stream>>>(on_device, u);
      });
    }
    HEAT_CUDA_CHECK_LAUNCH();
  }
}

template void DeviceBoundaryFill::operator()<float>(float*, cudaStream_t) const;
template void DeviceBoundaryFill::operator()<double>(double*, cudaStream_t) const;

}  // namespace heat
