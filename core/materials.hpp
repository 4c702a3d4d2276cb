// Materials that vary in space (docs/design.md §1, "Materials"): C(x) u_t = div(K(x) grad u) + q,
// with the conductivity K and the volumetric heat capacity C (rho c_p) as fields on the grid. What
// a backend is handed (Problem::materials), its checks and the time step it allows; the operator is
// stencils/material_stencil.hpp's.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/boundary_conditions.hpp"
#include "core/field.hpp"
#include "core/problem.hpp"

namespace heat {

struct Materials {
  // K and C at every point of the grid. The ghosts of a face whose condition is not layer hold the
  // body's values there as the field's ghosts do (mirrored; wrapped where periodic), so that a
  // reflected field sees a reflected material (fill_material_ghosts).
  Field<double> conductivity;
  Field<double> heat_capacity;
  // A convective face's ghost weights (convective_ghost_weights) at each of its rows, in the order
  // FaceFill::row_index counts them, kMaxConvectiveRadius x (kMaxConvectiveRadius + 1) each: the
  // Biot number H h / K varies with K at the row's face point. Empty for the other faces.
  std::array<std::vector<double>, kFaces> convective_weights;
};

// The weights of one row in Materials::convective_weights.
constexpr int kConvectiveRowWeights = kMaxConvectiveRadius * (kMaxConvectiveRadius + 1);

// InputError naming `what` and the first point (i,j,k), in memory order, where `f` is zero,
// negative or not finite: a conductivity or heat capacity must be positive everywhere.
void require_positive_everywhere(const Field<double>& f, const Grid& g, const std::string& what);

// Sets the convective weights of every convective face of `p` from its materials' conductivity at
// each row's face point (whose ghosts the caller has filled).
void set_convective_weights(const Problem& p, Materials& m);

// The smallest and largest value of `f` over the points a run of `p` steps.
struct ValueRange {
  double low = 0, high = 0;
};
ValueRange stepped_range(const Problem& p, const Field<double>& f);

// The largest K/C over the points a run steps: the diffusivity by which --cfl sets dt.
double largest_diffusivity(const Problem& p, const Materials& m);

// The largest stable cfl (dt * largest_diffusivity * S) of `p` with its materials: RK4's real
// stability limit over dt times a bound on the operator's eigenvalues, Gershgorin's row sums of
// the flux form, (1/C) sum over axes of sum_k |c_k| (M_up + M_down) + |sum_k c_k (M_up + M_down)|,
// over h^2. Within r points of a convective face the axis's sum is scaled as face_eigenvalue_bound
// scales the constant stencil's at that row's Biot number (K at its face point): a bound for the
// rows the ghosts enter, by analogy with the constant case rather than proven for a varying K. With
// constant fields it is stable_cfl_limit's.
double material_cfl_limit(const Problem& p);

}  // namespace heat
