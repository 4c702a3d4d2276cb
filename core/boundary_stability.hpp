// The time step the faces' conditions allow (docs/design.md §1, "Stability"). A convective face's
// ghosts grow with its Biot number H h / K (a radiation face's with 4 EPS sigma T^3 h / K), and
// so does the largest eigenvalue of the operator beside it: a step stable inside the domain can
// blow up at the face.
#pragma once

#include "core/problem.hpp"

namespace heat {

// A bound on the magnitude of every eigenvalue of one axis's operator, in units of 1/h^2, from the
// rows beside a face with condition `c` and the rows inside (Gershgorin: the largest sum of
// |coefficients| over a row, the ghosts written as the points they are filled from). Inside, and
// beside every face but a convective one, it is the stencil symbol's largest magnitude: a central
// stencil's coefficients alternate in sign, so the symbol at theta = pi is the sum of their
// magnitudes, and a reflection folds a ghost's coefficient onto a point of the other sign or
// drops it, which never adds to a row's sum. A radiation face is bounded as a convective face of
// its largest linearised coefficient (face_heat_transfer).
double face_eigenvalue_bound(int order, const BoundaryCondition& c, double h, double conductivity,
                             double hottest = 0);

// The heat transfer coefficient H of a convective face; of a radiation face, h_rad = 4 EPS sigma
// T^3 at T = max(hottest, T_INF), `hottest` the largest temperature the run starts from: the
// linearised coefficient of its ghosts (core/radiation_ghosts.hpp), largest while the field stays
// within the range it starts in and T_INF, as a solution of the heat equation does (the maximum
// principle; a radiation face draws the field towards T_INF); 0 for the others.
double face_heat_transfer(const BoundaryCondition& c, double hottest);

// The largest stable cfl (dt*alpha*S) of problem `p`: max_stable_cfl(order) where no face lowers
// it, else RK4's real stability limit over dt*alpha * sum over axes of bound/h^2. The limit
// assumes real eigenvalues, as the stencil's are; tests/test_boundary_stability.cpp steps at it.
// `hottest`: as face_heat_transfer takes it.
double stable_cfl_limit(const Problem& p, double hottest = 0);

// The face whose condition sets stable_cfl_limit(p) below max_stable_cfl(p.order), or -1.
int face_limiting_cfl(const Problem& p, double hottest = 0);

}  // namespace heat
