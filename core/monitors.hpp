// What a run's monitors measure of a field (docs/design.md §1, "Monitors"): the field at probe
// points, its extremes and mean, the total heat by the trapezoid rule and the heat each face lets
// in. Point (i, j, k) lies at (i*hx, j*hy, k*hz), the frame of the snapshots (VTKHDF Origin 0).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/problem.hpp"

namespace heat {

struct Probe {
  double x = 0, y = 0, z = 0;
};

// --probe's value: X,Y,Z triples in one comma list (each --probe adds one). InputError naming the
// text for anything else.
std::vector<Probe> parse_probes(const std::string& text);
// The comma list parse_probes reads back into the same probes (numbers to 17 digits).
std::string probes_text(const std::vector<Probe>& probes);

// The interval of coordinates along an axis where probes may lie: a layer face's side ends at the
// grid's last point (its layer holds data), a reflecting face's at its face point, and a periodic
// axis runs a whole period (the point past the high face point is the low one).
struct AxisExtent {
  double low = 0, high = 0;
};
std::array<AxisExtent, 3> probe_extents(const Problem& p);
// InputError naming the first probe outside probe_extents and the bounds of every axis.
void require_probes_inside(const Problem& p, const std::vector<Probe>& probes);

struct MonitorValues {
  std::vector<double> probes;  // trilinear interpolation of the field at each probe
  // Over the points the run steps (each axis's [r, n-1-r]: face points of faces that are not
  // layer, the interior next to a layer face): the extremes, the trapezoid rule's mean, and the
  // heat C * sum(w u) dV, w a half at a reflecting face's point (1 on periodic and layer sides).
  double min = 0, max = 0, mean = 0, total_heat = 0;
  // The heat per unit time entering through each face (face 2a: axis a's low face); NaN for a
  // layer face. Flux: Q times the face's area; convective: H (T_INF - u), radiation:
  // EPS sigma (T_INF^4 - u^4), over the face's points by the trapezoid rule; temperature: the closure's discrete flux (exact: the held face point's
  // neighbours gain exactly it); insulated and periodic: 0. The sum of the faces' is then the
  // total heat's rate (exactly but for convective and radiation faces at orders above 2).
  std::array<double, kFaces> heat_in{};
};

// The monitors are summed plane by plane, so that ranks holding different z-planes give one
// process's numbers to the bit (docs/design.md §7, "Monitors on ranks"): each plane's share (its
// extremes, its weighted sum and its weights, its rows of each x and y face, the whole of a z face
// where it holds the face point, its corners of each probe's interpolation) is measured alone, in
// one order whatever the thread count, and the shares are added in plane order.

// The values of one plane's share with `probes` probes.
std::size_t monitor_share_size(std::size_t probes);
// The shares of global planes [first, last) of p's grid, one after the other, from `u`: a box of
// the grid's planes from global plane `box_begin` on (the whole grid: 0), holding those planes
// and, for a temperature z face's plane, the r planes inward of it.
template <typename T>
std::vector<double> measure_plane_shares(const Problem& p, const T* u, int box_begin, int first, int last,
                                         const std::vector<Probe>& probes);
// The monitors from the shares of every plane of p's grid, in plane order.
MonitorValues combine_plane_shares(const Problem& p, const std::vector<double>& shares, std::size_t probes);

// The monitors of field `u` (the whole grid, its ghosts as the fill leaves them) of problem `p`.
template <typename T>
MonitorValues measure_monitors(const Problem& p, const T* u, const std::vector<Probe>& probes);

}  // namespace heat
