#include "core/monitors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/body_quadrature.hpp"
#include "core/comma_numbers.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "stencils/stencil.hpp"

namespace heat {

std::vector<Probe> parse_probes(const std::string& text) {
  const std::vector<double> numbers = finite_comma_numbers(text, [&](const std::string& item) {
    return "--probe " + text + ": '" + item + "' is not a finite number: give X,Y,Z (physical coordinates), one " +
           "--probe a point";
  });
  if (numbers.size() % 3 != 0)
    throw InputError("--probe " + text + " holds " + std::to_string(numbers.size()) +
                     " numbers: give X,Y,Z, three numbers a point");
  std::vector<Probe> probes;
  for (std::size_t n = 0; n < numbers.size(); n += 3) probes.push_back({numbers[n], numbers[n + 1], numbers[n + 2]});
  return probes;
}

std::string probes_text(const std::vector<Probe>& probes) {
  std::string text;
  for (const Probe& q : probes)
    text += (text.empty() ? "" : ",") + number_text(q.x) + "," + number_text(q.y) + "," + number_text(q.z);
  return text;
}

namespace {

struct Axis {
  int n = 0, r = 0;
  double h = 1;
  BoundaryCondition low, high;

  bool periodic() const { return low.kind == BoundaryKind::Periodic; }
  // The first and last point the run steps.
  int first() const { return r; }
  int last() const { return n - 1 - r; }
  // The trapezoid weight of point i in [first, last].
  double weight(int i) const { return trapezoid_weight(i, n, r, low, high); }
  // The weight of the rows through point i of a face of another axis: 0 where a temperature
  // face holds the point (its rate is 0, so no heat crosses there).
  double row_weight(int i) const {
    if ((i == first() && low.kind == BoundaryKind::Temperature) || (i == last() && high.kind == BoundaryKind::Temperature))
      return 0;
    return weight(i);
  }
  // The grid indices a probe interpolates between: from the low end to the high end (on a
  // periodic axis n - r, the low face point's image).
  int low_end() const { return low.kind == BoundaryKind::Layer ? 0 : r; }
  int high_end() const {
    if (periodic()) return n - r;
    return high.kind == BoundaryKind::Layer ? n - 1 : last();
  }
};

std::array<Axis, 3> axes_of(const Problem& p) {
  const Grid& g = p.grid;
  const int n[3] = {g.nx, g.ny, g.nz};
  const double h[3] = {g.hx, g.hy, g.hz};
  std::array<Axis, 3> axes;
  for (int a = 0; a < 3; ++a) axes[a] = {n[a], p.radius(), h[a], p.boundaries[2 * a], p.boundaries[2 * a + 1]};
  return axes;
}

const std::size_t kNoPoint = std::numeric_limits<std::size_t>::max();

// Trilinear interpolation of u at q, within probe_extents.
template <typename T>
double interpolate(const Problem& p, const std::array<Axis, 3>& axes, const T* u, const Probe& q) {
  const double at[3] = {q.x, q.y, q.z};
  int below[3], above[3];
  double fraction[3];
  for (int a = 0; a < 3; ++a) {
    const Axis& axis = axes[a];
    const double s = at[a] / axis.h;
    below[a] = std::clamp(int(std::floor(s)), axis.low_end(), axis.high_end() - 1);
    fraction[a] = std::clamp(s - below[a], 0.0, 1.0);
    above[a] = axis.periodic() && below[a] + 1 == axis.high_end() ? axis.r : below[a] + 1;
  }
  double sum = 0;
  for (int corner = 0; corner < 8; ++corner) {
    int index[3];
    double weight = 1;
    for (int a = 0; a < 3; ++a) {
      const bool up = (corner >> a) & 1;
      index[a] = up ? above[a] : below[a];
      weight *= up ? fraction[a] : 1 - fraction[a];
    }
    if (weight != 0) sum += weight * double(u[p.grid.index(index[0], index[1], index[2])]);
  }
  return sum;
}

// Calls body(base, area) for each row of face `face`'s axis through the points the run steps:
// `base` the flat index of the row's point at index 0 of the axis, `area` the trapezoid rule's
// share of the face it stands for.
template <typename Body>
void for_face_rows(const Problem& p, const std::array<Axis, 3>& axes, int face, Body&& body) {
  const int axis = face / 2;
  const int b = axis == 0 ? 1 : 0, c = axis == 2 ? 1 : 2;
  for (int j = axes[c].first(); j <= axes[c].last(); ++j)
    for (int i = axes[b].first(); i <= axes[b].last(); ++i) {
      const double area = axes[b].row_weight(i) * axes[b].h * axes[c].row_weight(j) * axes[c].h;
      if (area == 0) continue;
      int index[3] = {0, 0, 0};
      index[b] = i;
      index[c] = j;
      body(p.grid.index(index[0], index[1], index[2]), area);
    }
}

// Heat per unit time into the body through a temperature face, per unit area, times h/K: the
// change its rows' points other than the held face point f get from the stencil's reach across
// f. Summing the Laplacian over a row telescopes into a term at each end; with the odd reflection
// (v = u - T: v[f] = 0, v[f-m] = -v[f+m]) the low end's is -sum_k c_k (v[f+k] + 2 sum_{m<k} v[f+m]).
template <typename T>
double temperature_face_term(const T* row, std::size_t stride, int face_point, int inward, int r, double held) {
  const auto v = [&](int m) { return double(row[std::size_t(face_point + inward * m) * stride]) - held; };
  double term = 0;
  for (int k = 1; k <= r; ++k) {
    double inner = 0;
    for (int m = 1; m < k; ++m) inner += v(m);
    term -= stencil_coefficient(r, k) * (v(k) + 2 * inner);
  }
  return term;
}

template <typename T>
double heat_in_through(const Problem& p, const std::array<Axis, 3>& axes, const T* u, int face) {
  const BoundaryCondition& c = p.boundaries[face];
  const int axis = face / 2;
  const bool low = face % 2 == 0;
  const Axis& a = axes[axis];
  const int face_point = low ? a.first() : a.last();
  const std::size_t stride = axis == 0 ? 1 : axis == 1 ? std::size_t(p.grid.nx) : std::size_t(p.grid.nx) * p.grid.ny;
  double sum = 0;
  switch (c.kind) {
    case BoundaryKind::Layer: return std::numeric_limits<double>::quiet_NaN();
    case BoundaryKind::Insulated:
    case BoundaryKind::Periodic: return 0;
    case BoundaryKind::Flux:
      for_face_rows(p, axes, face, [&](std::size_t, double area) { sum += area; });
      return c.value * sum;
    case BoundaryKind::Convective:
      for_face_rows(p, axes, face, [&](std::size_t base, double area) {
        sum += area * (c.t_inf - double(u[base + std::size_t(face_point) * stride]));
      });
      return c.value * sum;
    case BoundaryKind::Temperature:
      for_face_rows(p, axes, face, [&](std::size_t base, double area) {
        sum += area * temperature_face_term(u + base, stride, face_point, low ? 1 : -1, a.r, c.value);
      });
      return p.conductivity / a.h * sum;
  }
  return 0;
}

}  // namespace

std::array<AxisExtent, 3> probe_extents(const Problem& p) {
  const std::array<Axis, 3> axes = axes_of(p);
  std::array<AxisExtent, 3> extents;
  for (int a = 0; a < 3; ++a) extents[a] = {axes[a].low_end() * axes[a].h, axes[a].high_end() * axes[a].h};
  return extents;
}

void require_probes_inside(const Problem& p, const std::vector<Probe>& probes) {
  const std::array<AxisExtent, 3> extents = probe_extents(p);
  const double h[3] = {p.grid.hx, p.grid.hy, p.grid.hz};
  for (const Probe& q : probes) {
    const double at[3] = {q.x, q.y, q.z};
    bool inside = true;
    // A probe a rounding away from the end is on it (1e-9 of a cell).
    for (int a = 0; a < 3; ++a)
      inside = inside && at[a] >= extents[a].low - 1e-9 * h[a] && at[a] <= extents[a].high + 1e-9 * h[a];
    if (inside) continue;
    std::string bounds;
    const char* names[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a)
      bounds += std::string(a ? ", " : "") + names[a] + " in [" + number_text(extents[a].low) + ", " +
                number_text(extents[a].high) + "]";
    throw InputError("--probe " + probes_text({q}) + " lies outside the domain (" + bounds +
                     "; point (i, j, k) is at (i*hx, j*hy, k*hz))");
  }
}

template <typename T>
MonitorValues measure_monitors(const Problem& p, const T* u, const std::vector<Probe>& probes) {
  const std::array<Axis, 3> axes = axes_of(p);
  MonitorValues m;
  for (const Probe& q : probes) m.probes.push_back(interpolate(p, axes, u, q));
  const Axis &x = axes[0], &y = axes[1], &z = axes[2];
  double low = std::numeric_limits<double>::infinity(), high = -low, weighted = 0, weights = 0;
#pragma omp parallel for collapse(2) reduction(min : low) reduction(max : high) reduction(+ : weighted, weights)
  for (int k = z.first(); k <= z.last(); ++k)
    for (int j = y.first(); j <= y.last(); ++j) {
      const double row_weight = z.weight(k) * y.weight(j);
      const T* row = u + p.grid.index(0, j, k);
      for (int i = x.first(); i <= x.last(); ++i) {
        const double value = double(row[i]);
        low = std::min(low, value);
        high = std::max(high, value);
        weighted += row_weight * x.weight(i) * value;
        weights += row_weight * x.weight(i);
      }
    }
  m.min = low;
  m.max = high;
  m.mean = weighted / weights;
  m.total_heat = p.heat_capacity * weighted * x.h * y.h * z.h;
  for (int face = 0; face < kFaces; ++face) m.heat_in[face] = heat_in_through(p, axes, u, face);
  return m;
}

template MonitorValues measure_monitors<float>(const Problem&, const float*, const std::vector<Probe>&);
template MonitorValues measure_monitors<double>(const Problem&, const double*, const std::vector<Probe>&);

}  // namespace heat
