// A steady source's step increment (core/heat_source.hpp): s = dt phi(dt A) rate with
// phi(z) = 1 + z/2 + z^2/6 + z^3/24, what one RK4 step of u_t = A u + f + rate adds for the source
// (docs/design.md §1, "Sources"). A is alpha Lap under the homogeneous conditions, since the
// affine part f of the faces' conditions is carried by the fill of each operand. Horner's form:
// w = rate, w = rate + (dt/k) A w for k = 4, 3, 2, then s = dt w; three applications of A, each
// operand filled first, in double, once in set-up. With material fields A is (1/C) div(K grad) in
// flux form (material_operator.hpp) and the rate is q/C(x).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "backends/cpu/boundary_fill.hpp"
#include "backends/cpu/interior_points.hpp"
#include "backends/cpu/material_operator.hpp"
#include "core/dispatch.hpp"
#include "core/field.hpp"
#include "core/heat_source.hpp"
#include "stencils/stencil.hpp"

namespace heat {

// `rate` on p's grid, 0 outside the interior; the result is 0 there too.
inline Field<double> source_step_increment(const Problem& p, const Field<double>& rate) {
  Problem linear = p;
  linear.boundaries = homogeneous(p.boundaries);
  linear.source = nullptr;  // what the source adds to a face's fill is affine too
  const bool fills = !all_layer(linear.boundaries);
  const Grid& g = p.grid;
  const std::size_t stride[3] = {1, std::size_t(g.nx), std::size_t(g.nx) * std::size_t(g.ny)};
  Field<double> w = rate;
  Field<double> next(g);  // its layer and ghosts stay 0: the homogeneous problem's
  const HostMaterialFields<double> materials(p);
  with_radius(p.order, [&](auto radius) {
    constexpr int R = decltype(radius)::value;
    const auto weights = make_weights<R, double>(p.alpha, g.hx, g.hy, g.hz);
    const HostMaterialOperator<R, double> flux_form(g, materials);
    const auto apply = [&](const double* in, std::size_t n) {
      if (!materials.empty()) return flux_form(in, n);
      return apply_stencil<R, double>(
          weights, in[n], [&](int axis, int d) { return in[n + d * stride[axis]] + in[n - d * stride[axis]]; });
    };
    for (const double divisor : {4.0, 3.0, 2.0}) {
      if (fills) fill_boundaries(linear, w.data());
      const double c = p.dt / divisor;
      const double* in = w.data();
      const double* q = rate.data();
      double* out = next.data();
      for_interior_points(g, R, [&](std::size_t n) { out[n] = q[n] + c * apply(in, n); });
      std::swap(w, next);
    }
  });
  // Outside the interior w holds the last fill's ghosts: s is the interior's alone, 0 elsewhere.
  Field<double> increment(g);
  const double* from = w.data();
  double* to = increment.data();
  for_interior_points(g, p.radius(), [&](std::size_t n) { to[n] = p.dt * from[n]; });
  return increment;
}

// The source of q (W/m^3 at each point of p's grid; only the body's are read) as a backend takes
// it: rate = q/C on the body (C(x) with material fields), and its step increment; where
// `last_step_dt` > 0 (a last step shortened to land on --t-end), that step's increment too.
inline std::shared_ptr<const HeatSource> make_heat_source(const Problem& p, const Field<double>& q,
                                                          double last_step_dt = 0) {
  auto source = std::make_shared<HeatSource>();
  source->rate = Field<double>(p.grid);
  const double* from = q.data();
  double* rate = source->rate.data();
  const double* capacity = p.materials ? p.materials->heat_capacity.data() : nullptr;
  for_interior_points(p.grid, p.radius(), [&](std::size_t n) {
    rate[n] = from[n] / (capacity ? capacity[n] : p.heat_capacity);
  });
  source->step_increment = source_step_increment(p, source->rate);
  if (last_step_dt > 0) {
    Problem last = p;
    last.dt = last_step_dt;
    source->last_step_dt = last_step_dt;
    source->last_step_increment = source_step_increment(last, source->rate);
  }
  return source;
}

// The increment of a step of p.dt of p's source (Backend::set_step_dt): the one set-up computed
// for that dt, which a rank's box (`whole_grid` false) must take; on a whole grid any other dt's
// computed here.
inline Field<double> source_step_increment_of_dt(const Problem& p, bool whole_grid) {
  const HeatSource& source = *p.source;
  if (p.dt == source.last_step_dt) return source.last_step_increment;
  if (!whole_grid)
    throw std::logic_error("a rank's box takes its source's increment for a step of dt " + std::to_string(p.dt) +
                           " from set-up (make_heat_source's last_step_dt), which computed none");
  return source_step_increment(p, source.rate);
}

}  // namespace heat
