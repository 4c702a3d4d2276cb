// Observed orders of accuracy of any registered backend, measured on a Fourier mode
// (check/analytic.hpp says why the mode's solution is known exactly).
//
// Space: h halves from level to level while dt stays fixed and tiny for the mode
// (|dt*alpha*lambda| ~ 1e-3, so RK4's error is ~1e-5 of the stencil's); the error is that of the
// decay factor against the heat equation's exp(-alpha*|k|^2*t). Expect order p.
// Time: h stays fixed while dt halves at a fixed end time; the error is against
// exp(alpha*lambda*t), the exact solution of the spatially discrete system. Expect order 4.
//
// Both measure only in the exact region of analytic.hpp, so each level's grid is just large
// enough for it: 4rN points of margin on each side of a 5-point-wide region. That makes a
// study take well under a second on two cores.
#pragma once

#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/problem.hpp"

namespace heat {

enum class StudyKind { Space, Time };
inline const char* study_name(StudyKind kind) { return kind == StudyKind::Space ? "space" : "time"; }

struct ConvergenceLevel {
  double h = 0;       // x spacing (y and z are the same)
  double dt = 0;
  int steps = 0;
  int points = 0;     // per axis
  double error = 0;   // of the decay factor, relative to the mode's amplitude
  double observed_order = 0;  // log(e_coarse/e_fine)/log(ratio), from the previous level; 0 at the first
};

struct ConvergenceStudy {
  StudyKind kind = StudyKind::Space;
  std::string condition;         // a face condition's study (face_convergence.hpp); empty: the Fourier mode's
  int order = 2;                 // of the stencil
  double expected_order = 2;     // p in space, 4 in time
  std::vector<ConvergenceLevel> levels;
  // The order between the two finest levels: the one closest to the asymptotic regime.
  double finest_order() const { return levels.size() < 2 ? 0 : levels.back().observed_order; }
  // "space", "time", or the face condition's name.
  std::string label() const { return condition.empty() ? study_name(kind) : condition; }
};

// Each level's observed order from the one before it (by h in space, dt in time).
void fill_observed_orders(ConvergenceStudy& study);

struct ConvergenceRequest {
  std::string backend = "cpu";
  Precision precision = Precision::Double;
  BackendOptions options;
};

// The registry's entry; InputError when the name is unknown or the backend needs a GPU this
// machine lacks.
const BackendEntry& find_runnable_backend(const std::string& name);
// Throw InputError for an unknown backend, RunError when the backend fails.
ConvergenceStudy spatial_convergence(const ConvergenceRequest& request, int order);
ConvergenceStudy temporal_convergence(const ConvergenceRequest& request, int order);
// Space and time for orders 2, 4, 6, 8, each face condition's (face_convergence.hpp) where the
// backend fills them, and the material fields' (material_convergence.hpp) where it steps them.
std::vector<ConvergenceStudy> convergence_studies(const ConvergenceRequest& request);

// The table printed by `heatrk4 convergence`.
std::string format_convergence_table(const std::vector<ConvergenceStudy>& studies);
// The table as CSV, one row per level: study,order,expected_order,level,h,dt,steps,points,error,
// observed_order (the command writes it where --csv says, by io/output_target.hpp's rules).
std::string convergence_csv_text(const std::vector<ConvergenceStudy>& studies);
// Draws the log-log plot from that CSV with check/plot_convergence.py, run by
// python_with_matplotlib (check/python_plots.hpp). Throws RunError when there is none or the
// script fails.
void plot_convergence(const std::string& csv_path, const std::string& png_path);

}  // namespace heat
