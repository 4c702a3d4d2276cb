#include "check/face_convergence.hpp"

#include <algorithm>
#include <cmath>

#include "backends/registry.hpp"
#include "core/time_loop.hpp"

namespace heat {
namespace {

constexpr double kPi = 3.14159265358979323846;

double decay(double k, double t) { return std::exp(-kFaceCaseAlpha * k * k * t); }

// x of point i along an axis whose low face point is index r.
double face_x(int i, int r, double h) { return (i - r) * h; }

// The run of `c` at `order` with `cells` spacings across [0, 1], to the time its slowest mode has
// decayed to about e^-0.5.
struct FaceRun {
  Problem problem;
  int steps = 0;
  double t_end = 0;
};

FaceRun face_run(const FaceCase& c, int order, int cells) {
  const int r = order / 2;
  const double h = 1.0 / cells;
  FaceRun run;
  Problem& p = run.problem;
  p.order = order;
  // Reflected faces are points: cells + 1 of them. Periodic: cells points, the high face point
  // one h short of the low one's image.
  const int nx = (c.periodic ? cells : cells + 1) + 2 * r;
  p.grid = {nx, 2 * r + 1, 2 * r + 1, h, h, h};
  p.alpha = kFaceCaseAlpha;
  p.conductivity = kFaceCaseConductivity;
  p.heat_capacity = kFaceCaseConductivity / kFaceCaseAlpha;
  const BoundaryCondition periodic{BoundaryKind::Periodic};
  p.boundaries = {c.low, c.high, periodic, periodic, periodic, periodic};
  run.t_end = c.t_end > 0 ? c.t_end : 0.5 / (kFaceCaseAlpha * c.wavenumber * c.wavenumber);
  // Only x varies, so the x axis alone bounds dt.
  run.steps = int(std::ceil(run.t_end / (0.2 * h * h / kFaceCaseAlpha)));
  p.dt = run.t_end / run.steps;
  return run;
}

template <typename T>
double case_error(const BackendEntry& entry, const BackendOptions& options, const FaceCase& c, const FaceRun& run) {
  const Grid& g = run.problem.grid;
  const int r = run.problem.radius();
  Field<T> u(g);
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) u(i, j, k) = T(c.solution(face_x(i, r, g.hx), 0.0));
  advance(*entry.make<T>(run.problem, options), u, run.steps);
  double error = 0;
  for (int i = r; i < g.nx - r && face_x(i, r, g.hx) <= c.measured_to; ++i)
    error = std::max(error, std::abs(double(u(i, r, r)) - c.solution(face_x(i, r, g.hx), run.t_end)));
  return error;
}

// A radiation face at x = 0 (dT/dn_in = u_x = G(u), G(T) = c (T^4 - T_INF^4), c = EPS sigma / K)
// and the solution of u_t = alpha u_xx whose face value rises as f(t) = T0 + s t: marching the heat
// equation sideways from the face's value f and gradient G(f),
//   u = sum_k x^2k/(2k)! f^(k)/alpha^k + x^(2k+1)/(2k+1)! (G(f))^(k)/alpha^k,
// which ends, G being a quartic and f linear: u = f + s x^2/(2 alpha) + sum_{k<=4} x^(2k+1)/(2k+1)!
// G^(k)(f) s^k/alpha^k. Nothing holds x = 1 to it, so that face is a layer, and the run ends while
// what its held data sends inward is far below the error at x <= 1/2: at t = 0.002 the diffusion
// length sqrt(alpha t) is 0.037, a 13th of the way. EPS 0.9, T_INF 250 K and T0 350 K put the
// cell Biot number 4 c T^3 h at 0.28 on 16 cells.
FaceCase radiation_case() {
  const double eps = 0.9, t_inf = 250, t0 = 350, rate = 1000;  // rate: s, K/s
  const double c = eps * kStefanBoltzmann / kFaceCaseConductivity;
  const auto solution = [=](double x, double t) {
    const double f = t0 + rate * t;
    // G^(k)(f) for k = 0..4.
    const double g[5] = {c * (f * f * f * f - t_inf * t_inf * t_inf * t_inf), 4 * c * f * f * f, 12 * c * f * f,
                         24 * c * f, 24 * c};
    double u = f + rate * x * x / (2 * kFaceCaseAlpha);
    double term = x;  // x^(2k+1)/(2k+1)! (s/alpha)^k
    for (int k = 0; k <= 4; ++k) {
      u += term * g[k];
      term *= x * x / ((2 * k + 2) * (2 * k + 3)) * rate / kFaceCaseAlpha;
    }
    return u;
  };
  FaceCase radiation{"radiation", {BoundaryKind::Radiation, eps, t_inf}, {}, false, 0, solution};
  radiation.t_end = 0.002;
  radiation.measured_to = 0.5;
  // The linearised closure meets q^(5) = b q^(4) where the nonlinear condition gives
  // u_xxxxx = G' u_xxxx + G'' u_xx^2: its ghosts are right to O(h^5), order 4 at p >= 4.
  radiation.order_cap = 4;
  return radiation;
}

}  // namespace

std::vector<FaceCase> face_cases() {
  const double k = 2 * kPi;
  std::vector<FaceCase> cases;
  cases.push_back({"periodic", {BoundaryKind::Periodic}, {BoundaryKind::Periodic}, true, k,
                   [k](double x, double t) { return std::cos(k * x + 0.3) * decay(k, t); }});
  cases.push_back({"insulated", {BoundaryKind::Insulated}, {BoundaryKind::Insulated}, false, k,
                   [k](double x, double t) { return 0.25 + std::cos(k * x) * decay(k, t); }});
  cases.push_back({"temperature", {BoundaryKind::Temperature, 0.5}, {BoundaryKind::Temperature, 0.5}, false, k,
                   [k](double x, double t) { return 0.5 + std::sin(k * x) * decay(k, t); }});
  // Heat Q in at x = 0, none out at x = 1: u = Q t / C + Q (x - 1)^2 / (2 K), plus a cosine mode.
  // A constant flux makes every odd derivative but the first vanish at the face
  // (u_xxx = (u_x)_t / alpha), so the corrected even reflection is exact to the stencil's order.
  const double q = 1.5;
  cases.push_back({"flux", {BoundaryKind::Flux, q}, {BoundaryKind::Insulated}, false, k, [k, q](double x, double t) {
                     const double capacity = kFaceCaseConductivity / kFaceCaseAlpha;
                     return q * t / capacity + q * (x - 1) * (x - 1) / (2 * kFaceCaseConductivity) +
                            std::cos(k * x) * decay(k, t);
                   }});
  // cos(k (x - 1/2)) is a Robin mode of both faces when H = K k tan(k/2) (heat in -K u_x = H (T_INF - u)).
  const double robin_k = 0.8 * kPi, t_inf = 0.75;
  const BoundaryCondition robin{BoundaryKind::Convective, kFaceCaseConductivity * robin_k * std::tan(robin_k / 2), t_inf};
  cases.push_back({"convective", robin, robin, false, robin_k, [robin_k, t_inf](double x, double t) {
                     return t_inf + std::cos(robin_k * (x - 0.5)) * decay(robin_k, t);
                   }});
  cases.push_back(radiation_case());
  return cases;
}

double face_case_error(const ConvergenceRequest& request, const FaceCase& c, int order, int cells) {
  const BackendEntry& entry = find_runnable_backend(request.backend);
  const FaceRun run = face_run(c, order, cells);
  return request.precision == Precision::Float ? case_error<float>(entry, request.options, c, run)
                                               : case_error<double>(entry, request.options, c, run);
}

ConvergenceStudy face_convergence(const ConvergenceRequest& request, const FaceCase& c, int order) {
  ConvergenceStudy study;
  study.kind = StudyKind::Space;
  study.condition = c.name;
  study.order = order;
  study.expected_order = c.order_cap > 0 ? std::min(order, c.order_cap) : order;
  for (int l = 0; l < face_levels(order); ++l) {
    ConvergenceLevel level;
    const int cells = coarse_face_cells(order) << l;
    const FaceRun run = face_run(c, order, cells);
    level.h = run.problem.grid.hx;
    level.points = run.problem.grid.nx;
    level.steps = run.steps;
    level.dt = run.problem.dt;
    level.error = face_case_error(request, c, order, cells);
    study.levels.push_back(level);
  }
  fill_observed_orders(study);
  return study;
}

std::vector<ConvergenceStudy> face_convergence_studies(const ConvergenceRequest& request) {
  std::vector<ConvergenceStudy> studies;
  for (const FaceCase& c : face_cases())
    for (int order : {2, 4, 6, 8}) studies.push_back(face_convergence(request, c, order));
  return studies;
}

}  // namespace heat
