#include "check/convergence.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "core/errors.hpp"
#include "backends/cuda/gpu_info.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"
#include "check/analytic.hpp"
#include "check/face_convergence.hpp"
#include "check/material_convergence.hpp"
#include "check/python_plots.hpp"
#include "check/shell_quote.hpp"

namespace heat {
namespace {

// Points per axis in the exact region: enough that a sign or index slip in a backend shows.
constexpr int kExactRegionWidth = 5;

// The spatial study's mode: different wavenumbers and phases on each axis, so no axis or
// symmetry can hide behind another. |k|^2 = 2.
constexpr double kSpaceWavenumber[3] = {1.0, 0.8, 0.6};
constexpr double kModePhase[3] = {0.3, 1.1, -0.7};
// k_x*h at the coarsest level; h halves from there. Below k_x*h ~ 0.2 order 8's error
// (~1e-14) reaches double rounding, so order 8 stops one level earlier.
constexpr double kCoarsestKh = 0.8;
int spatial_levels(int order) { return order == 8 ? 3 : 4; }
// cfl at the finest level, so dt*alpha*|k|^2 <= 3e-3: RK4's error is then below 0.1% of the
// stencil's at every level (the closest is order 8's finest), far too little to move an order.
constexpr double kSpaceFinestCfl = 0.1;
constexpr int kSpaceSteps = 2;

// The temporal study's mode on a unit-spaced grid: k*h near 2 makes lambda large, so that a few
// steps already reach dt*alpha*lambda*steps = kTimeDecayExponent.
constexpr double kTimeWavenumber[3] = {2.0, 1.6, 1.2};
// With z = -0.25/steps, P(z)^steps - e^-0.25 is in its asymptotic regime from one step on
// (observed orders 4.15 and 4.08). Doubling the steps doubles the margin, so the finest level
// is the costly one: 133^3 points for order 8.
constexpr double kTimeDecayExponent = -0.25;
constexpr int kTimeSteps[3] = {1, 2, 4};

}  // namespace

const BackendEntry& find_runnable_backend(const std::string& name) {
  const BackendRegistry& registry = default_registry();
  const BackendEntry* entry = registry.find(name);
  if (!entry) {
    std::string names;
    for (const auto& n : registry.names()) names += (names.empty() ? "" : ", ") + n;
    throw InputError("--backend " + name + " is unknown: this build has " + names);
  }
  if (entry->uses_cuda && gpu_count() == 0)
    throw InputError("--backend " + name + " needs a CUDA GPU: " + query_gpu(0).reason);
  return *entry;
}

namespace {

Grid cube(int points, double h) {
  Grid g;
  g.nx = g.ny = g.nz = points;
  g.hx = g.hy = g.hz = h;
  return g;
}

// Runs `steps` steps of the mode on `problem` and returns the error of its decay factor.
template <typename T>
double measure(const BackendEntry& entry, const BackendOptions& options, const Problem& problem,
               const FourierMode& mode, int steps, double exact_decay) {
  const Field<double> initial = mode_field(problem.grid, mode);
  // The exact solution multiplies the field the backend actually received: u0 rounded to T.
  const Field<double> u0 = field_cast<double>(field_cast<T>(initial));
  Field<T> u = field_cast<T>(initial);
  auto backend = entry.make<T>(problem, options);
  advance(*backend, u, steps);
  return mode_decay_error(u, u0, problem.order, steps, exact_decay);
}

double measure(const ConvergenceRequest& request, const Problem& problem, const FourierMode& mode, int steps,
               double exact_decay) {
  const BackendEntry& entry = find_runnable_backend(request.backend);
  return request.precision == Precision::Float
             ? measure<float>(entry, request.options, problem, mode, steps, exact_decay)
             : measure<double>(entry, request.options, problem, mode, steps, exact_decay);
}

}  // namespace

void fill_observed_orders(ConvergenceStudy& study) {
  auto& levels = study.levels;
  for (std::size_t l = 1; l < levels.size(); ++l) {
    const double ratio = study.kind == StudyKind::Space ? levels[l - 1].h / levels[l].h
                                                        : levels[l - 1].dt / levels[l].dt;
    levels[l].observed_order = std::log(levels[l - 1].error / levels[l].error) / std::log(ratio);
  }
}

ConvergenceStudy spatial_convergence(const ConvergenceRequest& request, int order) {
  ConvergenceStudy study;
  study.kind = StudyKind::Space;
  study.order = order;
  study.expected_order = order;
  FourierMode mode;
  for (int a = 0; a < 3; ++a) mode.wavenumber[a] = kSpaceWavenumber[a], mode.phase[a] = kModePhase[a];

  const int levels = spatial_levels(order);
  const double coarsest_h = kCoarsestKh / kSpaceWavenumber[0];
  const double finest_h = coarsest_h / double(1 << (levels - 1));
  const int points = 2 * exact_region_margin(order, kSpaceSteps) + kExactRegionWidth;
  Problem problem;
  problem.order = order;
  problem.alpha = 1.0;
  // One dt for every level, so that the time error is the same tiny amount at each.
  problem.dt = dt_from_cfl(cube(points, finest_h), problem.alpha, kSpaceFinestCfl);
  const double time = kSpaceSteps * problem.dt;
  for (int l = 0; l < levels; ++l) {
    ConvergenceLevel level;
    level.h = coarsest_h / double(1 << l);
    level.dt = problem.dt;
    level.steps = kSpaceSteps;
    level.points = points;
    problem.grid = cube(points, level.h);
    level.error = measure(request, problem, mode, kSpaceSteps, continuous_decay(problem.alpha, mode, time));
    study.levels.push_back(level);
  }
  fill_observed_orders(study);
  return study;
}

ConvergenceStudy temporal_convergence(const ConvergenceRequest& request, int order) {
  ConvergenceStudy study;
  study.kind = StudyKind::Time;
  study.order = order;
  study.expected_order = 4;
  FourierMode mode;
  for (int a = 0; a < 3; ++a) mode.wavenumber[a] = kTimeWavenumber[a], mode.phase[a] = kModePhase[a];

  Problem problem;
  problem.order = order;
  problem.alpha = 1.0;
  problem.grid = cube(2 * kExactRegionWidth + 1, 1.0);
  const double time = kTimeDecayExponent / (problem.alpha * discrete_symbol(problem.grid, order, mode));
  for (int steps : kTimeSteps) {
    ConvergenceLevel level;
    level.h = 1.0;
    level.steps = steps;
    level.dt = time / steps;
    // Same spacing, so the same discrete problem; the extent only grows to keep the exact
    // region kExactRegionWidth wide as the margin 4*r*steps grows.
    level.points = 2 * exact_region_margin(order, steps) + kExactRegionWidth;
    problem.grid = cube(level.points, level.h);
    problem.dt = level.dt;
    level.error = measure(request, problem, mode, steps, semi_discrete_decay(problem, mode, time));
    study.levels.push_back(level);
  }
  fill_observed_orders(study);
  return study;
}

std::vector<ConvergenceStudy> convergence_studies(const ConvergenceRequest& request) {
  std::vector<ConvergenceStudy> studies;
  for (int order : {2, 4, 6, 8}) studies.push_back(spatial_convergence(request, order));
  for (int order : {2, 4, 6, 8}) studies.push_back(temporal_convergence(request, order));
  const BackendEntry& entry = find_runnable_backend(request.backend);
  if (entry.fills_boundaries)
    for (ConvergenceStudy& s : face_convergence_studies(request)) studies.push_back(std::move(s));
  if (entry.steps_materials && entry.adds_sources)
    for (ConvergenceStudy& s : material_convergence_studies(request)) studies.push_back(std::move(s));
  return studies;
}

std::string format_convergence_table(const std::vector<ConvergenceStudy>& studies) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-11s %5s %9s %11s %11s %6s %6s %11s %9s\n", "study", "order", "expected",
                "h", "dt", "steps", "n", "error", "observed");
  out += line;
  for (const auto& s : studies)
    for (std::size_t l = 0; l < s.levels.size(); ++l) {
      const auto& v = s.levels[l];
      char observed[32] = "-";
      if (l > 0) std::snprintf(observed, sizeof observed, "%.3f", v.observed_order);
      std::snprintf(line, sizeof line, "%-11s %5d %9.0f %11.4e %11.4e %6d %6d %11.3e %9s\n", s.label().c_str(),
                    s.order, s.expected_order, v.h, v.dt, v.steps, v.points, v.error, observed);
      out += line;
    }
  return out;
}

std::string convergence_csv_text(const std::vector<ConvergenceStudy>& studies) {
  std::string csv = "study,order,expected_order,level,h,dt,steps,points,error,observed_order\n";
  char line[256];
  for (const auto& s : studies)
    for (std::size_t l = 0; l < s.levels.size(); ++l) {
      const auto& v = s.levels[l];
      std::snprintf(line, sizeof line, "%s,%d,%g,%zu,%.17g,%.17g,%d,%d,%.17g,", s.label().c_str(), s.order,
                    s.expected_order, l, v.h, v.dt, v.steps, v.points, v.error);
      csv += line;
      if (l > 0) {
        std::ostringstream observed;  // as the stream printed it before: 6 significant digits
        observed << v.observed_order;
        csv += observed.str();
      }
      csv += "\n";
    }
  return csv;
}

void plot_convergence(const std::string& csv_path, const std::string& png_path) {
  const std::string script = HEAT_PLOT_SCRIPT;
  if (!std::filesystem::exists(script))
    throw RunError("the plotting script " + script + " is missing (it is read from the source tree)");
  const std::string python = python_with_matplotlib();
  if (python.empty()) throw RunError(std::string("--plot needs a python3 with matplotlib: ") + kMatplotlibFix);
  const std::string command =
      shell_quote(python) + " " + shell_quote(script) + " " + shell_quote(csv_path) + " " + shell_quote(png_path);
  if (std::system(command.c_str()) != 0) throw RunError("plotting failed: " + command);
}

}  // namespace heat
