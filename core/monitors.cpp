#include "core/monitors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "core/body_quadrature.hpp"
#include "core/comma_numbers.hpp"
#include "core/dispatch.hpp"
#include "core/errors.hpp"
#include "core/materials.hpp"
#include "core/number_text.hpp"
#include "stencils/material_stencil.hpp"
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

// A box of the grid's z-planes from global plane `first_plane` on (the whole grid: 0), read at
// global indices.
template <typename T>
struct PlanesView {
  const T* u;
  const Grid& grid;
  int first_plane;
  std::size_t at(int i, int j, int k) const {
    return grid.index(i, j, 0) + std::size_t(k - first_plane) * std::size_t(grid.nx) * std::size_t(grid.ny);
  }
  double operator()(int i, int j, int k) const { return double(u[at(i, j, k)]); }
};

// The corners of the trilinear interpolation at q that lie in plane k, weighted and summed in
// corner order: the probe's share of plane k (within probe_extents, a probe reads two planes).
template <typename T>
double probe_share(const std::array<Axis, 3>& axes, const PlanesView<T>& u, const Probe& q, int k) {
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
    if (weight != 0 && index[2] == k) sum += weight * u(index[0], index[1], index[2]);
  }
  return sum;
}

// Calls body(i, j, k, area) for each row of face `face`'s axis through the points the run steps,
// (i, j, k) its point at index 0 of the axis, `area` the trapezoid rule's share of the face it
// stands for: of an x or y face the rows in plane k alone, of a z face every row.
template <typename Body>
void for_face_rows(const std::array<Axis, 3>& axes, int face, int k, Body&& body) {
  const int axis = face / 2;
  const int b = axis == 0 ? 1 : 0, c = axis == 2 ? 1 : 2;
  const int c_first = axis == 2 ? axes[c].first() : k, c_last = axis == 2 ? axes[c].last() : k;
  for (int j = c_first; j <= c_last; ++j)
    for (int i = axes[b].first(); i <= axes[b].last(); ++i) {
      const double area = axes[b].row_weight(i) * axes[b].h * axes[c].row_weight(j) * axes[c].h;
      if (area == 0) continue;
      int index[3] = {0, 0, k};
      index[b] = i;
      index[c] = j;
      body(index[0], index[1], index[2], area);
    }
}

// Heat per unit time into the body through a temperature face, per unit area, times h/K: the
// change its rows' points other than the held face point f get from the stencil's reach across
// f. Summing the Laplacian over a row telescopes into a term at each end; with the odd reflection
// (v = u - T: v[f] = 0, v[f-m] = -v[f+m]) the low end's is -sum_k c_k (v[f+k] + 2 sum_{m<k} v[f+m]).
// `v(m)`: u - T at m points inward of f.
template <typename Inward>
double temperature_face_term(const Inward& v, int r) {
  double term = 0;
  for (int k = 1; k <= r; ++k) {
    double inner = 0;
    for (int m = 1; m < k; ++m) inner += v(m);
    term -= stencil_coefficient(r, k) * (v(k) + 2 * inner);
  }
  return term;
}

// temperature_face_term with material fields: each pair (q, q + k) across the held face point f
// (q = f - a, a = 0..k-1) carries M (u[q] - u[q+k]) = -M (v(a) + v(k - a)), v(0) = 0 as held, M
// its conductance from K along the row (the material stencil's, the ghosts' K mirrored as the
// field is reflected), so the sum is the heat the row's points gain through f, times h, to
// rounding. `v(m)` as above; `k_at(m)`: K at m points inward of f (m from -r on).
template <int R, typename Inward, typename KAt>
double material_temperature_face_term(const Inward& v, const KAt& k_at) {
  double term = 0;
  for (int k = 1; k <= R; ++k)
    for (int a = 0; a < k; ++a) {
      const double m = pair_conductance<R, double>(
          k, [&](int i) { return k_at(i - a); }, [&](int i) { return 1.0 / k_at(i - a); });
      term -= stencil_coefficient(R, k) * m * ((a > 0 ? v(a) : 0.0) + v(k - a));
    }
  return term;
}

// Face `face`'s rows in plane k (all of a z face's, where k is its face point's plane), summed:
// the area for a flux face, area (T_INF - u) for a convective one, area times the temperature
// term for a temperature one; 0 for the others (heat_in_from_sum gives them their rate).
template <typename T>
double face_share(const Problem& p, const std::array<Axis, 3>& axes, const PlanesView<T>& u, int face, int k) {
  const BoundaryCondition& c = p.boundaries[face];
  const int axis = face / 2;
  const bool low = face % 2 == 0;
  const Axis& a = axes[axis];
  const int face_point = low ? a.first() : a.last(), inward = low ? 1 : -1;
  if (axis == 2 && k != face_point) return 0;
  double sum = 0;
  switch (c.kind) {
    case BoundaryKind::Layer:
    case BoundaryKind::Insulated:
    case BoundaryKind::Periodic: return 0;
    case BoundaryKind::Flux:
      for_face_rows(axes, face, k, [&](int, int, int, double area) { sum += area; });
      return sum;
    case BoundaryKind::Convective:
      for_face_rows(axes, face, k, [&](int i, int j, int l, double area) {
        int at[3] = {i, j, l};
        at[axis] = face_point;
        sum += area * (c.t_inf - u(at[0], at[1], at[2]));
      });
      return sum;
    case BoundaryKind::Radiation:
      for_face_rows(axes, face, k, [&](int i, int j, int l, double area) {
        int at[3] = {i, j, l};
        at[axis] = face_point;
        const double face_value = u(at[0], at[1], at[2]), t_inf2 = c.t_inf * c.t_inf;
        sum += area * (t_inf2 * t_inf2 - face_value * face_value * face_value * face_value);
      });
      return sum;
    case BoundaryKind::Temperature:
      for_face_rows(axes, face, k, [&](int i, int j, int l, double area) {
        const auto v = [&](int m) {
          int at[3] = {i, j, l};
          at[axis] = face_point + inward * m;
          return u(at[0], at[1], at[2]) - c.value;
        };
        if (!p.materials) return void(sum += area * temperature_face_term(v, a.r));
        const auto k_at = [&](int m) {
          int at[3] = {i, j, l};
          at[axis] = face_point + inward * m;
          return p.materials->conductivity.data()[p.grid.index(at[0], at[1], at[2])];
        };
        with_radius(p.order, [&](auto radius) {
          sum += area * material_temperature_face_term<decltype(radius)::value>(v, k_at);
        });
      });
      return sum;
  }
  return 0;
}

// The heat per unit time through face `face` from its rows' sum (face_share over every plane).
double heat_in_from_sum(const Problem& p, const std::array<Axis, 3>& axes, int face, double sum) {
  const BoundaryCondition& c = p.boundaries[face];
  switch (c.kind) {
    case BoundaryKind::Layer: return std::numeric_limits<double>::quiet_NaN();
    case BoundaryKind::Insulated:
    case BoundaryKind::Periodic: return 0;
    case BoundaryKind::Flux:
    case BoundaryKind::Convective: return c.value * sum;
    case BoundaryKind::Radiation: return c.value * kStefanBoltzmann * sum;
    case BoundaryKind::Temperature: return (p.materials ? 1.0 : p.conductivity) / axes[face / 2].h * sum;
  }
  return 0;
}

// A plane's share's values (monitor_share_size): its extremes, its weighted sum and weights, its
// sum weighted by C too with material fields (else 0), each face's, then each probe's.
enum ShareColumn : std::size_t { kMin, kMax, kWeighted, kWeights, kHeat, kFaces0, kProbes0 = kFaces0 + kFaces };

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

std::size_t monitor_share_size(std::size_t probes) { return kProbes0 + probes; }

template <typename T>
std::vector<double> measure_plane_shares(const Problem& p, const T* u, int box_begin, int first, int last,
                                         const std::vector<Probe>& probes) {
  const std::array<Axis, 3> axes = axes_of(p);
  const Axis &x = axes[0], &y = axes[1], &z = axes[2];
  const PlanesView<T> box{u, p.grid, box_begin};
  const std::size_t size = monitor_share_size(probes.size());
  std::vector<double> shares(std::size_t(std::max(0, last - first)) * size);
  const double* capacity = p.materials ? p.materials->heat_capacity.data() : nullptr;  // the whole grid's
  // A plane's sums in one order whatever the thread count: each plane is one thread's.
#pragma omp parallel for schedule(dynamic)
  for (int k = first; k < last; ++k) {
    double* share = shares.data() + std::size_t(k - first) * size;
    const bool body_plane = k >= z.first() && k <= z.last();
    double low = std::numeric_limits<double>::infinity(), high = -low, weighted = 0, weights = 0, heat = 0;
    if (body_plane)
      for (int j = y.first(); j <= y.last(); ++j) {
        const double row_weight = z.weight(k) * y.weight(j);
        for (int i = x.first(); i <= x.last(); ++i) {
          const double value = box(i, j, k);
          low = std::min(low, value);
          high = std::max(high, value);
          weighted += row_weight * x.weight(i) * value;
          weights += row_weight * x.weight(i);
          if (capacity) heat += row_weight * x.weight(i) * capacity[p.grid.index(i, j, k)] * value;
        }
      }
    share[kMin] = low;
    share[kMax] = high;
    share[kWeighted] = weighted;
    share[kWeights] = weights;
    share[kHeat] = heat;
    for (int face = 0; face < kFaces; ++face)
      share[kFaces0 + face] = body_plane ? face_share(p, axes, box, face, k) : 0;
    for (std::size_t q = 0; q < probes.size(); ++q) share[kProbes0 + q] = probe_share(axes, box, probes[q], k);
  }
  return shares;
}

MonitorValues combine_plane_shares(const Problem& p, const std::vector<double>& shares, std::size_t probes) {
  const std::array<Axis, 3> axes = axes_of(p);
  const std::size_t size = monitor_share_size(probes);
  if (shares.size() != std::size_t(p.grid.nz) * size)
    throw std::logic_error("the monitors' shares are not one a plane of the grid");
  MonitorValues m;
  m.min = std::numeric_limits<double>::infinity();
  m.max = -m.min;
  m.probes.assign(probes, 0.0);
  double weighted = 0, weights = 0, heat = 0, face_sums[kFaces] = {};
  for (int k = 0; k < p.grid.nz; ++k) {
    const double* share = shares.data() + std::size_t(k) * size;
    m.min = std::min(m.min, share[kMin]);
    m.max = std::max(m.max, share[kMax]);
    weighted += share[kWeighted];
    weights += share[kWeights];
    heat += share[kHeat];
    for (int face = 0; face < kFaces; ++face) face_sums[face] += share[kFaces0 + face];
    for (std::size_t q = 0; q < probes; ++q) m.probes[q] += share[kProbes0 + q];
  }
  const Axis &x = axes[0], &y = axes[1], &z = axes[2];
  m.mean = weighted / weights;
  m.total_heat = (p.materials ? heat : p.heat_capacity * weighted) * x.h * y.h * z.h;
  for (int face = 0; face < kFaces; ++face) m.heat_in[face] = heat_in_from_sum(p, axes, face, face_sums[face]);
  return m;
}

template <typename T>
MonitorValues measure_monitors(const Problem& p, const T* u, const std::vector<Probe>& probes) {
  return combine_plane_shares(p, measure_plane_shares(p, u, 0, 0, p.grid.nz, probes), probes.size());
}

template MonitorValues measure_monitors<float>(const Problem&, const float*, const std::vector<Probe>&);
template MonitorValues measure_monitors<double>(const Problem&, const double*, const std::vector<Probe>&);
template std::vector<double> measure_plane_shares<float>(const Problem&, const float*, int, int, int,
                                                         const std::vector<Probe>&);
template std::vector<double> measure_plane_shares<double>(const Problem&, const double*, int, int, int,
                                                          const std::vector<Probe>&);

}  // namespace heat
