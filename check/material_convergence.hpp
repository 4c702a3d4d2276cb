// Observed orders of the flux form div(K grad u) with smooth K(x) and C(x) (docs/design.md §1,
// "Materials"), for any backend that steps material fields and adds sources: the manufactured
// solution u = U(x) + a t of C u_t = div(K grad u) + q on the periodic unit cube, the steady
// source q = C a - div(K grad U) computed from them. The stencil takes a constant to 0 and RK4
// integrates a t exactly, so the error at t is t times the flux form's truncation error on U:
// expect order p.
#pragma once

#include <vector>

#include "check/convergence.hpp"

namespace heat {

// The largest error over the stepped points of the manufactured solution at `order` with `cells`
// spacings a period along each axis.
double material_case_error(const ConvergenceRequest& request, int order, int cells);

// material_levels(order) levels from 12 cells, doubling; the study's condition is "materials".
ConvergenceStudy material_convergence(const ConvergenceRequest& request, int order);
// Order 8 (7.7 at 12 -> 24 cells, not yet asymptotic) and 6 stop at 24: their next level costs
// more than the rest of the study and reaches double rounding.
inline int material_levels(int order) { return order <= 4 ? 3 : 2; }

// Orders 2, 4, 6, 8.
std::vector<ConvergenceStudy> material_convergence_studies(const ConvergenceRequest& request);

}  // namespace heat
