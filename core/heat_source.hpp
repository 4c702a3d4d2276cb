// Steady heat sources (docs/design.md §1, "Sources"): C u_t = div(K grad u) + q, so
// u_t = alpha Lap u + q/C. What `--source` says (SourceSpec), the values it puts on the grid, and
// what a backend is handed (HeatSource, Problem::source).
//
// A point (i, j, k) lies at (i hx, j hy, k hz), as the snapshots place it (VTKHDF Origin 0). The
// body is the box of the points a run updates, [r h, (n-1-r) h] on each axis: a source acts there
// alone, and its power is counted there with the trapezoid weights of core/body_quadrature.hpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/field.hpp"
#include "core/problem.hpp"

namespace heat {

enum class SourceKind {
  Uniform,   // q = Q W/m^3 everywhere in the body
  Gaussian,  // total power POWER W, exp(-|x - c|^2 / (2 SIGMA^2)) about the point c
  File,      // q from a point array of a VTKHDF file on the run's grid
};

struct SourceSpec {
  SourceKind kind = SourceKind::Uniform;
  double q = 0;                                      // Uniform
  double x = 0, y = 0, z = 0, sigma = 0, power = 0;  // Gaussian
  std::string file, array;                           // File
};

// The source `text` names: uniform:Q, gaussian:X,Y,Z,SIGMA,POWER or file:F.hdf:ARRAY (the array
// after the last colon). InputError naming `option`, the text and the form for anything else: an
// unknown kind, a missing or non-finite number, SIGMA <= 0, an empty file or array name.
SourceSpec parse_source_spec(const std::string& text, const std::string& option = "--source");
// The text parse_source_spec reads back into the same source (numbers exact).
std::string source_spec_text(const SourceSpec& s);

// InputError where a Gaussian's centre lies outside the body of `p`'s grid (the header's box).
void require_source_in_body(const SourceSpec& s, const Problem& p, const std::string& option = "--source");

// Adds a uniform or Gaussian source's q (W/m^3) at every point of the body to `q`.
void add_source_values(const SourceSpec& s, const Problem& p, Field<double>& q);

// What a backend is handed (Problem::source), on the problem's grid (a rank's box: its planes of
// the whole grid's, so bitwise the same on any rank count).
//
// - rate: q/C at each point of the body, 0 elsewhere: what the stage form adds to each stage's
//   alpha Lap (cpu_reference).
// - step_increment: s = dt phi(dt A) rate, phi(z) = 1 + z/2 + z^2/6 + z^3/24, A the Laplacian of
//   the homogeneous problem (homogeneous(Boundaries)): one RK4 step of the linear system with a
//   steady source is P(z) u + s, so the pass form adds s once a step, in its last pass (cpu; a CUDA
//   backend's last pass). Computed once in set-up in double (backends/cpu/source_step.hpp).
// - last_step_dt, last_step_increment: a run whose last step is shortened (--t-end), that step's
//   dt and its increment, computed in set-up as step_increment is; 0 and empty otherwise. A rank's
//   box cannot compute an increment from its planes alone (phi(dt A) reaches 3r planes across its
//   ends), so it takes its planes of the whole grid's, as of step_increment.
struct HeatSource {
  Field<double> rate;
  Field<double> step_increment;
  double last_step_dt = 0;
  Field<double> last_step_increment;

  // The source with each field f as cut(f): a rank's box of it (parallel/decomposition.hpp).
  template <typename Cut>
  HeatSource cut(Cut&& cut) const {
    return {cut(rate), cut(step_increment), last_step_dt,
            last_step_increment.size() ? cut(last_step_increment) : Field<double>()};
  }
};

}  // namespace heat
