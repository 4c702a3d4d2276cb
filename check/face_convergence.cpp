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
  run.t_end = 0.5 / (kFaceCaseAlpha * c.wavenumber * c.wavenumber);
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
  for (int i = r; i < g.nx - r; ++i)
    error = std::max(error, std::abs(double(u(i, r, r)) - c.solution(face_x(i, r, g.hx), run.t_end)));
  return error;
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
  study.expected_order = order;
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
