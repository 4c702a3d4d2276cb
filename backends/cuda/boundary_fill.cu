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

// A block is kLines warps: each warp 32 rows along the lower other axis, the warps neighbouring
// lines along the higher (at 600^3, 592 rows a line take 19 warps, 608 threads, where blocks of
// 256 rows along a line took 768).
constexpr int kWarp = 32;
constexpr int kLines = 8;
constexpr int kThreads = kWarp * kLines;
constexpr int kMostBlocksY = 65535;  // CUDA's limit on gridDim.y

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

// The row along face k's lower other axis that thread threadIdx.x of the block takes.
__device__ int row_of_thread(const FaceFillList& list, int k) {
  return (int(blockIdx.x) - list.first_block[k]) * kWarp + int(threadIdx.x) % kWarp;
}

// The thread's first line along the higher other axis; it takes each gridDim.y * kLines-th after.
__device__ int first_line_of_thread() { return int(blockIdx.y) * kLines + int(threadIdx.x) / kWarp; }

// act(f, i0, i1) for each row (i0, i1) of the list's face f that this thread takes.
template <class Act>
__device__ void for_each_row_of_thread(const FaceFillList& list, Act&& act) {
  const int k = face_of_block(list);
  const FaceFill& f = list.face[k];
  const int i0 = row_of_thread(list, k);
  if (i0 >= f.row_count[0]) return;
  for (int i1 = first_line_of_thread(); i1 < f.row_count[1]; i1 += gridDim.y * kLines) act(f, i0, i1);
}

// The 32-byte sector an x face's row's ghosts lie in (a row's r ghosts are neighbours along x).
// Where they lie in one sector whose other values are the row's points in [r, n - r), the row's
// thread writes it whole, those points rewritten with the values they hold (no face's ghosts, and
// a temperature face's points are held before this launch): a partly written sector would
// otherwise be merged in L2 with what DRAM holds. Elsewhere (a row that does not start on a sector,
// where n is no multiple of a sector's values, or ghosts across two sectors) it writes the ghosts
// alone.
template <typename T>
struct GhostSector {
  static constexpr int kValues = 32 / int(sizeof(T));
  long long first_ghost;  // the flat index of the lowest ghost along x
  long long first;        // that of the first value of its sector
  bool whole;             // the sector is written whole
};

template <int R, typename T>
__device__ GhostSector<T> ghost_sector(const FaceFill& f, const T* u, long long base) {
  using S = GhostSector<T>;
  S s;
  s.first_ghost = base + (f.outward < 0 ? f.face_point - R : f.face_point + 1);
  const int misalignment = int(reinterpret_cast<unsigned long long>(u) / sizeof(T) % S::kValues);
  const int offset = int((s.first_ghost + misalignment) % S::kValues);
  s.first = s.first_ghost - offset;
  // The points the row's thread may write: its ghosts and [r, n - r), where n = period + 2r.
  const long long lowest = base + (f.outward < 0 ? 0 : R), end = base + f.period + (f.outward < 0 ? R : 2 * R);
  s.whole = offset + R <= S::kValues && s.first >= lowest && s.first + S::kValues <= end;
  return s;
}

// A sector's values, loaded and stored as two 16-byte vectors.
template <typename T>
struct SectorValues;

template <>
struct SectorValues<float> {
  float value[8];
  __device__ void load(const float* at) {
    const float4 low = reinterpret_cast<const float4*>(at)[0], high = reinterpret_cast<const float4*>(at)[1];
    value[0] = low.x, value[1] = low.y, value[2] = low.z, value[3] = low.w;
    value[4] = high.x, value[5] = high.y, value[6] = high.z, value[7] = high.w;
  }
  __device__ void store(float* at) const {
    reinterpret_cast<float4*>(at)[0] = make_float4(value[0], value[1], value[2], value[3]);
    reinterpret_cast<float4*>(at)[1] = make_float4(value[4], value[5], value[6], value[7]);
  }
};

template <>
struct SectorValues<double> {
  double value[4];
  __device__ void load(const double* at) {
    const double2 low = reinterpret_cast<const double2*>(at)[0], high = reinterpret_cast<const double2*>(at)[1];
    value[0] = low.x, value[1] = low.y, value[2] = high.x, value[3] = high.y;
  }
  __device__ void store(double* at) const {
    reinterpret_cast<double2*>(at)[0] = make_double2(value[0], value[1]);
    reinterpret_cast<double2*>(at)[1] = make_double2(value[2], value[3]);
  }
};

// The ghosts of an x face's row and the sector they lie in, loaded, then stored.
template <int R, BoundaryKind K, typename T>
__device__ void fill_x_row(const FaceFill& f, T* u, long long base) {
  using S = GhostSector<T>;
  const S at = ghost_sector<R>(f, u, base);
  T ghost[R];  // along x: ghost[0] is the lowest
  HEAT_UNROLL for (int g = 0; g < R; ++g) ghost[g] = T(ghost_of_kind<K, R>(f, u, base, f.outward < 0 ? R - g : g + 1));
  if (!at.whole) {
    HEAT_UNROLL for (int g = 0; g < R; ++g) u[at.first_ghost + g] = ghost[g];
    return;
  }
  SectorValues<T> sector;
  sector.load(u + at.first);
  // Selects at each of the sector's places, which keep its values in registers.
  const int offset = int(at.first_ghost - at.first);
  HEAT_UNROLL for (int v = 0; v < S::kValues; ++v) {
    const int g = v - offset;
    T from_ghost = ghost[0];
    HEAT_UNROLL for (int other = 1; other < R; ++other) from_ghost = g == other ? ghost[other] : from_ghost;
    sector.value[v] = g >= 0 && g < R ? from_ghost : sector.value[v];
  }
  sector.store(u + at.first);
}

// The r ghosts of a row of a y or z face, all read before any is written, so that a thread's
// loads are in flight together.
template <int R, BoundaryKind K, typename T>
__device__ void fill_row_loads_first(const FaceFill& f, T* u, long long base) {
  T value[R];
  HEAT_UNROLL for (int m = 1; m <= R; ++m) value[m - 1] = T(ghost_of_kind<K, R>(f, u, base, m));
  HEAT_UNROLL for (int m = 1; m <= R; ++m) u[f.at(base, f.face_point + f.outward * m)] = value[m - 1];
}

// Every ghost of the list's faces, at radius R, a thread a row: a warp's rows are neighbours along
// the face's lower other axis (a y or z face's warp takes 32 neighbours along x, an x face's 32
// rows whose ghost sectors are a row apart).
// Four blocks a SM, every warp slot (64 registers a thread; ptxas, sm_90: no spills). Several
// rows a thread in flight would take 80 to 128 registers (the convective weights and double sums),
// a third of the warps.
template <typename T, int R>
__global__ void __launch_bounds__(kThreads, 4) fill_ghosts(const __grid_constant__ FaceFillList list, T* __restrict__ u) {
  const int k = face_of_block(list);
  const FaceFill& f = list.face[k];
  const int i0 = row_of_thread(list, k);
  if (i0 >= f.row_count[0]) return;
  with_ghost_kind(f.kind, [&](auto kind) {
    constexpr BoundaryKind K = decltype(kind)::value;
    for (int i1 = first_line_of_thread(); i1 < f.row_count[1]; i1 += gridDim.y * kLines) {
      if (f.axis == 0)
        fill_x_row<R, K>(f, u, f.row_base(i0, i1));
      else
        fill_row_loads_first<R, K>(f, u, f.row_base(i0, i1));
    }
  });
}

// The rows of the list's radiation faces, a thread a row, each through fill_face_row: their solve
// (core/radiation_ghosts.hpp) in a kernel of its own, so that fill_ghosts keeps its registers. A
// row's points are in [r, n - r) along every axis (a temperature face's held before), so these
// rows go in the same place in the launch order as the other faces' of their axis.
template <typename T>
__global__ void __launch_bounds__(kThreads) fill_radiation_rows(const __grid_constant__ FaceFillList list, T* __restrict__ u) {
  for_each_row_of_thread(list, [&](const FaceFill& f, int i0, int i1) { fill_face_row(f, u, f.row_base(i0, i1)); });
}

// The list's temperature faces' points, a thread a row, each where no later axis's face holds it.
template <typename T>
__global__ void __launch_bounds__(kThreads) hold_face_points(const __grid_constant__ FaceFillList list, T* __restrict__ u) {
  for_each_row_of_thread(list, [&](const FaceFill& f, int i0, int i1) {
    if (!held_by_later_axis(list, f, i0, i1)) hold_face_point(f, u, f.row_base(i0, i1));
  });
}

void add_face(FaceFillList& list, const FaceFill& f) {
  list.face[list.count] = f;
  list.first_block[list.count + 1] = list.first_block[list.count] + ceil_div(f.row_count[0], kWarp);
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
  return {unsigned(list.first_block[list.count]), unsigned(std::min(ceil_div(list.most_lines, kLines), kMostBlocksY))};
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
  // Each ghost launch's faces: those fill_ghosts fills, and the radiation faces beside them.
  FaceFillList held, ghosts[3], radiating[3];
  int ghost_lists = 0, list_axis[3] = {};
  for (int face = 0; face < kFaces; ++face) {
    const BoundaryKind kind = p.boundaries[face].kind;
    if (kind == BoundaryKind::Layer) continue;
    // Not affine in the field: the stage form fills each stage's input whole (stage_form.hpp).
    if (kind == BoundaryKind::Radiation && part == FillPart::Homogeneous)
      throw std::logic_error(std::string("a radiation face has no homogeneous fill (--bc-") + face_name(face) + ")");
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
    // a new list where the last began with a face of an earlier axis (faces come in order).
    const bool after_earlier_axes = ghost_lists > 0 && crosses_earlier_ghosts(f) && list_axis[ghost_lists - 1] < f.axis;
    if (ghost_lists == 0 || after_earlier_axes) list_axis[ghost_lists++] = f.axis;
    add_face(kind == BoundaryKind::Radiation ? radiating[ghost_lists - 1] : ghosts[ghost_lists - 1], f);
    if (kind != BoundaryKind::Temperature) continue;
    add_face(held, f);
    held.held_point[f.axis][face % 2] = f.face_point;
  }
  if (ghost_lists == 0) return;
  holds_ = held.count > 0;
  if (holds_) lists_[launches_++] = held;
  for (int list = 0; list < ghost_lists; ++list) {
    radiating_[launches_] = radiating[list];
    lists_[launches_++] = ghosts[list];
  }
}

template <typename T>
void DeviceBoundaryFill::operator()(T* u, cudaStream_t stream) const {
  for (int list = 0; list < launches_; ++list) {
    if (list == 0 && holds_) {
      hold_face_points<T><<<blocks_of(lists_[list]), kThreads, 0, stream>>>(lists_[list], u);
      HEAT_CUDA_CHECK_LAUNCH();
      continue;
    }
    if (lists_[list].count > 0) {
      with_radius(order_, [&](auto radius) {
        fill_ghosts<T, decltype(radius)::value><<<blocks_of(lists_[list]), kThreads, 0, stream>>>(lists_[list], u);
      });
      HEAT_CUDA_CHECK_LAUNCH();
    }
    if (radiating_[list].count > 0) {
      fill_radiation_rows<T><<<blocks_of(radiating_[list]), kThreads, 0, stream>>>(radiating_[list], u);
      HEAT_CUDA_CHECK_LAUNCH();
    }
  }
}

template void DeviceBoundaryFill::operator()<float>(float*, cudaStream_t) const;
template void DeviceBoundaryFill::operator()<double>(double*, cudaStream_t) const;

}  // namespace heat
