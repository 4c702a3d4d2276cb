#include "check/material_convergence.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "backends/cpu/source_step.hpp"
#include "backends/registry.hpp"
#include "core/materials.hpp"
#include "core/time_loop.hpp"

namespace heat {
namespace {

constexpr double kTwoPi = 2 * 3.14159265358979323846;
constexpr double kRate = 0.7;     // a in u = U(x) + a t
constexpr double kEndTime = 0.002;

// K, periodic on the unit cube, and its gradient.
double conductivity_at(double x, double y, double z) {
  return 1.5 + 0.6 * std::sin(kTwoPi * x) * std::cos(kTwoPi * (y + z));
}
void conductivity_gradient(double x, double y, double z, double g[3]) {
  g[0] = 0.6 * kTwoPi * std::cos(kTwoPi * x) * std::cos(kTwoPi * (y + z));
  g[1] = g[2] = -0.6 * kTwoPi * std::sin(kTwoPi * x) * std::sin(kTwoPi * (y + z));
}
double heat_capacity_at(double x, double y, double z) {
  return 2.0 + 0.8 * std::cos(kTwoPi * (x - 2 * y)) * std::sin(kTwoPi * z);
}
// U, its gradient and its Laplacian.
double shape(double x, double y, double z) {
  return std::sin(kTwoPi * x) * std::cos(kTwoPi * y) + 0.5 * std::sin(kTwoPi * z);
}
void shape_gradient(double x, double y, double z, double g[3]) {
  g[0] = kTwoPi * std::cos(kTwoPi * x) * std::cos(kTwoPi * y);
  g[1] = -kTwoPi * std::sin(kTwoPi * x) * std::sin(kTwoPi * y);
  g[2] = 0.5 * kTwoPi * std::cos(kTwoPi * z);
}
double shape_laplacian(double x, double y, double z) {
  return -kTwoPi * kTwoPi * (2 * std::sin(kTwoPi * x) * std::cos(kTwoPi * y) + 0.5 * std::sin(kTwoPi * z));
}

// The problem on `cells` points a period (and the r ghosts of each periodic face, where the
// functions' own values are the wrapped ones), from U at t = 0, to kEndTime at cfl 0.3.
struct MaterialRun {
  Problem problem;
  Field<double> start;
  int steps = 0;
};

MaterialRun material_run(int order, int cells) {
  const int r = order / 2;
  const double h = 1.0 / cells;
  MaterialRun run;
  Problem& p = run.problem;
  p.order = order;
  p.grid = {cells + 2 * r, cells + 2 * r, cells + 2 * r, h, h, h};
  p.boundaries.fill({BoundaryKind::Periodic});
  const auto at = [&](int i) { return (i - r) * h; };
  auto materials = std::make_shared<Materials>();
  materials->conductivity = Field<double>(p.grid);
  materials->heat_capacity = Field<double>(p.grid);
  Field<double> q(p.grid);
  run.start = Field<double>(p.grid);
  for (int k = 0; k < p.grid.nz; ++k)
    for (int j = 0; j < p.grid.ny; ++j)
      for (int i = 0; i < p.grid.nx; ++i) {
        const double x = at(i), y = at(j), z = at(k);
        double gk[3], gu[3];
        conductivity_gradient(x, y, z, gk);
        shape_gradient(x, y, z, gu);
        const double conductivity = conductivity_at(x, y, z), capacity = heat_capacity_at(x, y, z);
        materials->conductivity(i, j, k) = conductivity;
        materials->heat_capacity(i, j, k) = capacity;
        const double divergence =
            gk[0] * gu[0] + gk[1] * gu[1] + gk[2] * gu[2] + conductivity * shape_laplacian(x, y, z);
        q(i, j, k) = capacity * kRate - divergence;
        run.start(i, j, k) = shape(x, y, z);
      }
  p.materials = std::move(materials);
  p.alpha = largest_diffusivity(p, *p.materials);
  run.steps = int(std::ceil(kEndTime / dt_from_cfl(p.grid, p.alpha, 0.3)));
  p.dt = kEndTime / run.steps;
  p.source = make_heat_source(p, q);
  return run;
}

template <typename T>
double run_error(const BackendEntry& entry, const BackendOptions& options, const MaterialRun& run) {
  const Grid& g = run.problem.grid;
  const int r = run.problem.radius();
  Field<T> u = field_cast<T>(run.start);
  advance(*entry.make<T>(run.problem, options), u, run.steps);
  double error = 0;
  for (int k = r; k < g.nz - r; ++k)
    for (int j = r; j < g.ny - r; ++j)
      for (int i = r; i < g.nx - r; ++i)
        error = std::max(error, std::abs(double(u(i, j, k)) - run.start(i, j, k) - kRate * kEndTime));
  return error;
}

}  // namespace

double material_case_error(const ConvergenceRequest& request, int order, int cells) {
  const BackendEntry& entry = find_runnable_backend(request.backend);
  const MaterialRun run = material_run(order, cells);
  return request.precision == Precision::Float ? run_error<float>(entry, request.options, run)
                                               : run_error<double>(entry, request.options, run);
}

ConvergenceStudy material_convergence(const ConvergenceRequest& request, int order) {
  ConvergenceStudy study;
  study.kind = StudyKind::Space;
  study.condition = "materials";
  study.order = order;
  study.expected_order = order;
  for (int l = 0; l < material_levels(order); ++l) {
    const int cells = 12 << l;
    const MaterialRun run = material_run(order, cells);
    ConvergenceLevel level;
    level.h = run.problem.grid.hx;
    level.points = run.problem.grid.nx;
    level.steps = run.steps;
    level.dt = run.problem.dt;
    level.error = material_case_error(request, order, cells);
    study.levels.push_back(level);
  }
  fill_observed_orders(study);
  return study;
}

std::vector<ConvergenceStudy> material_convergence_studies(const ConvergenceRequest& request) {
  std::vector<ConvergenceStudy> studies;
  for (int order : {2, 4, 6, 8}) studies.push_back(material_convergence(request, order));
  return studies;
}

}  // namespace heat
