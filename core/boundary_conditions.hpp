// The condition on each of the six faces of the domain (docs/design.md §1, "Boundary"): what a
// run's options say and a snapshot records. The ghost points each condition needs are filled
// between stages (core/boundary_ghosts.hpp's formulas, by backends/cpu/boundary_fill.hpp on the
// host and backends/cuda/boundary_fill.cuh on the device), so the stencil code never branches on
// them.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace heat {

enum class BoundaryKind {
  Layer,        // the outer r points keep their initial values (the default)
  Temperature,  // the face point held at `value`
  Insulated,    // no heat crosses the face
  Flux,         // `value` is the heat flux into the domain per unit area
  Convective,   // `value` is H; heat into the domain H*(t_inf - u) per unit area
  Periodic,     // the opposite face is this face's neighbour
  Radiation,    // `value` is the emissivity EPS; heat into the domain EPS sigma (t_inf^4 - u^4) per unit area
};

// The Stefan-Boltzmann constant, W m^-2 K^-4: a radiation face's temperatures are absolute.
constexpr double kStefanBoltzmann = 5.670374419e-8;

struct BoundaryCondition {
  BoundaryKind kind = BoundaryKind::Layer;
  double value = 0;  // T, Q, H or EPS by kind
  double t_inf = 0;  // Convective and Radiation

  bool operator==(const BoundaryCondition& o) const {
    return kind == o.kind && value == o.value && t_inf == o.t_inf;
  }
};

// Faces in the order x-low, x-high, y-low, y-high, z-low, z-high: face 2a is axis a's low face.
constexpr int kFaces = 6;
using Boundaries = std::array<BoundaryCondition, kFaces>;

// "x-low" ... "z-high", as the options --bc-x-low ... name them.
const char* face_name(int face);

inline bool all_layer(const Boundaries& b) {
  for (const BoundaryCondition& c : b)
    if (c.kind != BoundaryKind::Layer) return false;
  return true;
}

// Whether a face of `b` is a radiation face, whose fill is not affine in the field.
inline bool any_radiation(const Boundaries& b) {
  for (const BoundaryCondition& c : b)
    if (c.kind == BoundaryKind::Radiation) return true;
  return false;
}

// The conditions of the homogeneous problem, whose fill is linear: every value that makes a face's
// fill affine set to 0 (temperature T, flux Q, convective T_INF), the rest as it is (H, insulated,
// periodic; a layer face's layer then holds zeros). A filled operator Lap_bc v = A v + f has A as
// its Laplacian with these conditions (docs/design.md §1, "Sources").
Boundaries homogeneous(const Boundaries& b);

// The condition `text` names (layer, temperature:T, insulated, flux:Q, convective:H,T_INF,
// radiation:EPS,T_INF, periodic); InputError naming `option`, the text and what is allowed for
// anything else (an unknown name, a missing or non-finite number, a negative H, EPS outside
// [0, 1], a negative T_INF of radiation).
BoundaryCondition parse_boundary_condition(const std::string& text, const std::string& option);
// The text parse_boundary_condition reads back into the same condition (numbers to 17 digits).
std::string boundary_condition_text(const BoundaryCondition& c);

// A convective face's ghosts from the face point and the r points inward of it (j = 0 the face):
// ghost m = T_INF + sum_j weights[m-1][j] * (u_j - T_INF). They are the values at -m of the
// polynomial of degree 2r (in units of h) through those points that meets the condition in its
// odd derivatives up to 2r - 1: v^(2i+1) = beta v^(2i) at the face, v = u - T_INF, beta = H/K. A
// solution of the heat equation meets them all: v_x = beta v on the face gives
// v_xxx = (v_x)_t/alpha - (v_x)_yy - (v_x)_zz = beta v_xx, and so on up. At beta = 0 the weights
// are the even reflection's.
constexpr int kMaxConvectiveRadius = 4;
using ConvectiveWeights = std::array<std::array<double, kMaxConvectiveRadius + 1>, kMaxConvectiveRadius>;
ConvectiveWeights convective_ghost_weights(int radius, double beta_times_h);

// InputError where a face is periodic and its partner is not, or where an axis with a
// reflecting condition (every kind but layer and periodic) has fewer than 3r + 1 points.
void require_consistent_boundaries(const Boundaries& b, const std::array<int, 3>& points, int radius);

}  // namespace heat
