// The ghost values of each boundary condition (docs/design.md §1, "Boundary"), one face row at a
// time, written once for the host's fill (backends/cpu/boundary_fill.hpp) and the device's
// (backends/cuda/boundary_fill.cuh). A face row is the line along a face's axis through a point of
// the face plane whose other two coordinates lie in [r, n - r): its r ghosts are the only ones of
// that face a star stencil reads, and they read only the row's own points in [r, n - r) (a
// periodic face's rows also cross the earlier axes' ghosts: face_fill).
#pragma once

#include <type_traits>

#include "core/boundary_conditions.hpp"
#include "core/heat_source.hpp"
#include "core/materials.hpp"
#include "core/problem.hpp"
#include "core/radiation_ghosts.hpp"
#include "stencils/host_device.hpp"

namespace heat {

// What a fill sets: the conditions as given, or their homogeneous part (T, Q and T_INF zero), the
// fill of the difference of two fields that both meet them. Every fill is affine in the field
// (ghost = linear in the row's points + a constant of T, Q or T_INF), and the homogeneous one is
// its linear part.
enum class FillPart { Full, Homogeneous };

// One face's fill as plain numbers, which a kernel takes as they are.
struct FaceFill {
  BoundaryKind kind = BoundaryKind::Layer;
  int axis = 0;
  int radius = 0;
  int face_point = 0;  // along the axis: r at a low face, n - 1 - r at a high one
  int outward = 0;     // -1 at a low face, +1 at a high one
  int period = 0;      // n - 2r: a periodic axis's period
  long long stride = 0;                 // between neighbours along the axis
  long long row_stride[2] = {0, 0};     // between neighbouring rows along the other two axes, lower first
  int row_first[2] = {0, 0};            // the first row along each of them: r, or 0 (below)
  int row_count[2] = {0, 0};            // rows along each of them: n - 2r, or n
  double value = 0;                     // temperature: the held T; radiation: EPS sigma / K
  double t_inf = 0;                     // convective and radiation
  double spacing = 0;                   // flux, radiation, and temperature with a source: h along the axis
  double inward_gradient = 0;           // flux: dT/dn_in = -Q/K (heat into the domain is -K dT/dn_in)
  double weights[kMaxConvectiveRadius][kMaxConvectiveRadius + 1] = {};  // convective_ghost_weights
  // With material fields (Problem::materials, the host's memory; DeviceBoundaryFill puts the
  // device's copies in their place),
  // K varies along the face: a flux face's gradient is -Q/K at each row's face point, a
  // convective face's weights are each row's (Materials::convective_weights), and a temperature
  // face's curvature with a source is -q/K there (rate * C / K).
  const double* conductivity = nullptr;
  const double* heat_capacity = nullptr;
  const double* row_weights = nullptr;
  double flux = 0;  // Q, full part only; radiation: EPS sigma
  // Temperature with a heat source (full part only): the source's rate q/C at each point of the
  // grid, in the memory of whoever fills (face_fill gives the host's; DeviceBoundaryFill puts the
  // device's in its place), and alpha. u_t = 0 and u_yy = u_zz = 0 on the face leave u_xx = -q/K there, which the reflection
  // keeps: ghost m is 2T - u[f+m] - (m h)^2 q/K, exact for a uniform source's steady parabola.
  const double* source_rate = nullptr;
  double alpha = 1;

  HD long long rows() const { return (long long)row_count[0] * row_count[1]; }
  // The flat index of the point at index 0 along the axis of the row i0-th along the lower other
  // axis and i1-th along the higher, counted from their first rows.
  HD long long row_base(int i0, int i1) const {
    return (long long)(row_first[0] + i0) * row_stride[0] + (long long)(row_first[1] + i1) * row_stride[1];
  }
  // The same of row `row`: rows run along the lower other axis first.
  HD long long row_base(long long row) const { return row_base(int(row % row_count[0]), int(row / row_count[0])); }
  HD long long at(long long base, int i) const { return base + i * stride; }
  // The row whose index 0 along the axis is `base`, as rows() counts them.
  HD long long row_index(long long base) const {
    const long long higher = base / row_stride[1];
    const long long lower = base % row_stride[1] / row_stride[0];
    return (lower - row_first[0]) + (higher - row_first[1]) * row_count[0];
  }
  // -Q/K at the row's face point: dT/dn_in of a flux face.
  HD double inward_gradient_at(long long base) const {
    return conductivity ? -flux / conductivity[at(base, face_point)] : inward_gradient;
  }
};

// The other two axes of `axis`, lower first.
HD inline int lower_other_axis(int axis) { return axis == 0 ? 1 : 0; }
HD inline int higher_other_axis(int axis) { return axis == 2 ? 1 : 2; }

inline FaceFill face_fill(const Problem& p, int face, FillPart part) {
  const BoundaryCondition& c = p.boundaries[face];
  const Grid& g = p.grid;
  const int n[3] = {g.nx, g.ny, g.nz};
  const double h[3] = {g.hx, g.hy, g.hz};
  const long long stride[3] = {1, (long long)g.nx, (long long)g.nx * g.ny};
  const bool full = part == FillPart::Full;
  FaceFill f;
  f.kind = c.kind;
  f.axis = face / 2;
  f.radius = p.radius();
  const bool low = face % 2 == 0;
  f.face_point = low ? f.radius : n[f.axis] - 1 - f.radius;
  f.outward = low ? -1 : 1;
  f.period = n[f.axis] - 2 * f.radius;
  f.stride = stride[f.axis];
  const int others[2] = {lower_other_axis(f.axis), higher_other_axis(f.axis)};
  for (int which = 0; which < 2; ++which) {
    // A periodic face's rows also cross the ghosts of the axes filled before it (x, then y, then
    // z), as the halo exchange copies whole planes where z wraps across ranks: what a rank's
    // ghost planes receive is then what a single process's z fill copies, corners included.
    const bool whole = c.kind == BoundaryKind::Periodic && others[which] < f.axis;
    f.row_stride[which] = stride[others[which]];
    f.row_first[which] = whole ? 0 : f.radius;
    f.row_count[which] = whole ? n[others[which]] : n[others[which]] - 2 * f.radius;
  }
  if (c.kind == BoundaryKind::Temperature && full) {
    f.value = c.value;
    if (p.source) {
      f.source_rate = p.source->rate.data();
      f.spacing = h[f.axis];
      f.alpha = p.alpha;
    }
  }
  if (p.materials) {
    f.conductivity = p.materials->conductivity.data();
    f.heat_capacity = p.materials->heat_capacity.data();
  }
  if (c.kind == BoundaryKind::Flux) {
    f.spacing = h[f.axis];
    if (full) f.inward_gradient = -c.value / p.conductivity;
    if (full) f.flux = c.value;
  }
  if (c.kind == BoundaryKind::Radiation) {
    // Not affine in the field: it has no homogeneous part, and runs with sources refuse it.
    f.spacing = h[f.axis];
    f.t_inf = c.t_inf;
    f.flux = c.value * kStefanBoltzmann;
    f.value = f.flux / p.conductivity;
  }
  if (c.kind == BoundaryKind::Convective) {
    if (full) f.t_inf = c.t_inf;
    if (p.materials) f.row_weights = p.materials->convective_weights[face].data();
    const ConvectiveWeights w = convective_ghost_weights(f.radius, c.value / p.conductivity * h[f.axis]);
    for (int m = 0; m < f.radius; ++m)
      for (int j = 0; j <= f.radius; ++j) f.weights[m][j] = w[m][j];
  }
  return f;
}

// A temperature face's point of the row whose index 0 along the axis is `base`, held at T.
template <typename T>
HD inline void hold_face_point(const FaceFill& f, T* u, long long base) {
  u[f.at(base, f.face_point)] = T(f.value);
}

// A radiation face's r ghosts of the row whose index 0 along the axis is `base`, into ghosts[m-1],
// from its face point and the r points inward of it: one solve serves them all.
template <typename T>
HD inline void radiation_row_ghosts(const FaceFill& f, const T* u, long long base, double* ghosts) {
  double inward[kMaxRadiationRadius];
  for (int j = 1; j <= f.radius; ++j) inward[j - 1] = double(u[f.at(base, f.face_point - f.outward * j)]);
  const long long face = f.at(base, f.face_point);
  const double coefficient = f.conductivity ? f.flux / f.conductivity[face] : f.value;
  radiation_ghosts(f.radius, coefficient, f.t_inf, f.spacing, double(u[face]), inward, ghosts);
}

// Ghost m (1 to r) of the row whose index 0 along the axis is `base`, of a face of kind K, from
// the row's points in [r, n - r) (temperature faces' points already held) alone, none of that
// axis's ghosts: a fill may set an axis's ghosts in any order, or all at once. A copy of a point
// (insulated, periodic) is the point as stored, in T; any other kind's formula is computed in
// double, which a fill rounds to T once. `Radius`: the radius where the caller knows it at compile
// time (the device's kernels), so that the convective sum unrolls and its loads are shared by the
// row's ghosts; 0 reads f.radius.
template <BoundaryKind K, int Radius = 0, typename T>
HD inline auto ghost_of_kind(const FaceFill& f, const T* u, long long base, int m) {
  if constexpr (K == BoundaryKind::Periodic) {
    // Period n - 2r: the high face point is the last of the period, not a copy of the low one.
    // The ghost lies within r of [r, n - r): a period or two added or taken away (more only where
    // the period is shorter than r) bring it in, cheaper than a division.
    int wrapped = f.face_point + f.outward * m;
    while (wrapped < f.radius) wrapped += f.period;
    while (wrapped >= f.radius + f.period) wrapped -= f.period;
    return u[f.at(base, wrapped)];
  } else if constexpr (K == BoundaryKind::Insulated) {
    return u[f.at(base, f.face_point - f.outward * m)];
  } else if constexpr (K == BoundaryKind::Convective) {
    const double* weights =
        f.row_weights ? f.row_weights + f.row_index(base) * kConvectiveRowWeights + (m - 1) * (kMaxConvectiveRadius + 1)
                      : f.weights[m - 1];
    const int radius = Radius > 0 ? Radius : f.radius;
    double value = f.t_inf;
    HEAT_UNROLL for (int j = 0; j <= radius; ++j)
      value += weights[j] * (double(u[f.at(base, f.face_point - f.outward * j)]) - f.t_inf);
    return value;
  } else {
    const double mirror = double(u[f.at(base, f.face_point - f.outward * m)]);
    if constexpr (K == BoundaryKind::Temperature) {
      if (!f.source_rate) return 2 * f.value - mirror;
      const long long face = f.at(base, f.face_point);
      const double curvature = f.conductivity ? -f.source_rate[face] * f.heat_capacity[face] / f.conductivity[face]
                                              : -f.source_rate[face] / f.alpha;
      return 2 * f.value - mirror + double(m * m) * f.spacing * f.spacing * curvature;
    } else {
      return mirror - 2 * m * f.spacing * f.inward_gradient_at(base);  // Flux
    }
  }
}

// act(kind) with a face's kind as a compile-time constant (std::integral_constant), so that a
// loop over a row's ghosts inside it does not branch on the kind; any kind not filled otherwise is
// flux's. Radiation is not among them: its solve would widen every kind's registers in the
// device's fill kernel; fill_face_row fills it, on the host and in a device kernel of its own.
template <class Act>
HD inline decltype(auto) with_ghost_kind(BoundaryKind kind, Act&& act) {
  using K = BoundaryKind;
  switch (kind) {
    case K::Periodic: return act(std::integral_constant<K, K::Periodic>{});
    case K::Convective: return act(std::integral_constant<K, K::Convective>{});
    case K::Insulated: return act(std::integral_constant<K, K::Insulated>{});
    case K::Temperature: return act(std::integral_constant<K, K::Temperature>{});
    default: return act(std::integral_constant<K, K::Flux>{});
  }
}

// The r ghosts of the row whose index 0 along the axis is `base`.
template <typename T>
HD inline void fill_face_row(const FaceFill& f, T* u, long long base) {
  if (f.kind == BoundaryKind::Radiation) {
    double ghosts[kMaxRadiationRadius];
    radiation_row_ghosts(f, u, base, ghosts);
    for (int m = 1; m <= f.radius; ++m) u[f.at(base, f.face_point + f.outward * m)] = T(ghosts[m - 1]);
    return;
  }
  with_ghost_kind(f.kind, [&](auto kind) {
    for (int m = 1; m <= f.radius; ++m)
      u[f.at(base, f.face_point + f.outward * m)] = T(ghost_of_kind<decltype(kind)::value>(f, u, base, m));
  });
}

}  // namespace heat
