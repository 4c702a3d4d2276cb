// Observed orders of accuracy of each face condition (docs/design.md §1, "Boundary"), for any
// backend that fills them: exact solutions of u_t = alpha u_xx on [0, 1] whose faces meet the
// condition, stepped on a grid that varies along x alone (y and z periodic with one point a
// period), the error the largest over the domain's points at the time the slowest mode has
// decayed to about e^-0.5. dt*alpha/h^2 = 0.2, so RK4's error (dt ~ h^2) falls as h^8, below the
// stencil's at every order: expect order p.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "check/convergence.hpp"

namespace heat {

struct FaceCase {
  std::string name;  // as the condition's kind reads ("insulated", ...)
  BoundaryCondition low, high;
  bool periodic = false;
  double wavenumber = 0;  // of the slowest mode, on [0, 1]
  std::function<double(double x, double t)> solution;
  // Where set: the run's end (else the slowest mode's decay to e^-0.5), and the error taken over
  // x <= measured_to alone (a layer face's data, held, strays from the solution beyond it).
  double t_end = 0;
  double measured_to = 1;
  // Where set, the order the closure reaches at most (radiation's: 4, docs/design.md §1).
  int order_cap = 0;
};

// The material the cases are posed in: alpha 0.7, K 2 (so C = K / alpha).
constexpr double kFaceCaseAlpha = 0.7;
constexpr double kFaceCaseConductivity = 2.0;

// periodic, insulated, temperature, flux (heat in at x = 0, none out at x = 1), convective
// (a Robin mode of both faces) and radiation (at x = 0; a layer face at x = 1, too far to reach
// x <= 1/2 by the end).
std::vector<FaceCase> face_cases();

// The largest error over the domain's points of `c` at `order` with `cells` spacings across [0, 1].
double face_case_error(const ConvergenceRequest& request, const FaceCase& c, int order, int cells);

// face_levels(order) levels from coarse_face_cells(order) cells, doubling; the study's condition
// is c.name.
ConvergenceStudy face_convergence(const ConvergenceRequest& request, const FaceCase& c, int order);
// Coarse enough at high order, and few enough levels at order 8 (whose convective error reaches
// 1e-12 at 24 cells), that the finest error stays far above double rounding.
inline int coarse_face_cells(int order) { return order <= 4 ? 16 : 12; }
inline int face_levels(int order) { return order == 8 ? 2 : 3; }

// Every case at orders 2, 4, 6, 8.
std::vector<ConvergenceStudy> face_convergence_studies(const ConvergenceRequest& request);

}  // namespace heat
