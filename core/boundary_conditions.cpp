#include "core/boundary_conditions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/comma_numbers.hpp"
#include "core/errors.hpp"

namespace heat {
namespace {

const char* const kFaceNames[kFaces] = {"x-low", "x-high", "y-low", "y-high", "z-low", "z-high"};
const char* const kAxisPoints[3] = {"nx", "ny", "nz"};
const char* const kAllowed = "layer, temperature:T, insulated, flux:Q, convective:H,T_INF, radiation:EPS,T_INF or periodic";

std::string full_precision(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

}  // namespace

const char* face_name(int face) { return kFaceNames[face]; }

Boundaries homogeneous(const Boundaries& b) {
  Boundaries linear = b;
  for (BoundaryCondition& c : linear) {
    if (c.kind == BoundaryKind::Temperature || c.kind == BoundaryKind::Flux) c.value = 0;
    c.t_inf = 0;
  }
  return linear;
}

BoundaryCondition parse_boundary_condition(const std::string& text, const std::string& option) {
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::string numbers = colon == std::string::npos ? "" : text.substr(colon + 1);
  const bool has_numbers = colon != std::string::npos;
  BoundaryCondition c;
  const auto no_numbers = [&](BoundaryKind kind) {
    if (has_numbers) throw InputError(option + " " + shown_value(text) + ": " + name + " takes no value");
    c.kind = kind;
  };
  if (name == "layer") no_numbers(BoundaryKind::Layer);
  else if (name == "insulated") no_numbers(BoundaryKind::Insulated);
  else if (name == "periodic") no_numbers(BoundaryKind::Periodic);
  else if (name == "temperature" || name == "flux") {
    const char* form = name == "flux" ? "flux:Q" : "temperature:T";
    c.kind = name == "flux" ? BoundaryKind::Flux : BoundaryKind::Temperature;
    c.value = parse_spec_numbers(numbers, 1, option, text, form)[0];
  } else if (name == "convective") {
    const std::vector<double> h_and_t = parse_spec_numbers(numbers, 2, option, text, "convective:H,T_INF");
    if (h_and_t[0] < 0)
      throw InputError(option + " " + shown_value(text) + ": the heat transfer coefficient H " +
                       full_precision(h_and_t[0]) + " must be 0 or more");
    c = {BoundaryKind::Convective, h_and_t[0], h_and_t[1]};
  } else if (name == "radiation") {
    const std::vector<double> eps_and_t = parse_spec_numbers(numbers, 2, option, text, "radiation:EPS,T_INF");
    if (eps_and_t[0] < 0 || eps_and_t[0] > 1)
      throw InputError(option + " " + shown_value(text) + ": the emissivity EPS " + full_precision(eps_and_t[0]) +
                       " must lie in [0, 1]");
    if (eps_and_t[1] < 0)
      throw InputError(option + " " + shown_value(text) + ": the surroundings' temperature T_INF " +
                       full_precision(eps_and_t[1]) + " must be 0 or more (kelvin: radiation takes absolute temperatures)");
    c = {BoundaryKind::Radiation, eps_and_t[0], eps_and_t[1]};
  } else {
    throw InputError(option + " " + shown_value(text) + " is not a boundary condition: give " + kAllowed);
  }
  return c;
}

std::string boundary_condition_text(const BoundaryCondition& c) {
  switch (c.kind) {
    case BoundaryKind::Layer: return "layer";
    case BoundaryKind::Insulated: return "insulated";
    case BoundaryKind::Periodic: return "periodic";
    case BoundaryKind::Temperature: return "temperature:" + full_precision(c.value);
    case BoundaryKind::Flux: return "flux:" + full_precision(c.value);
    case BoundaryKind::Convective: return "convective:" + full_precision(c.value) + "," + full_precision(c.t_inf);
    case BoundaryKind::Radiation: return "radiation:" + full_precision(c.value) + "," + full_precision(c.t_inf);
  }
  return "";
}

ConvectiveWeights convective_ghost_weights(int radius, double beta_times_h) {
  const int unknowns = 2 * radius + 1;  // the coefficients of the polynomial
  const int points = radius + 1;
  // Rows: the polynomial through points 0..r, then (2i+1)! a_{2i+1} = beta h (2i)! a_{2i}.
  std::vector<std::vector<double>> m(unknowns, std::vector<double>(unknowns + points, 0.0));
  for (int j = 0; j < points; ++j) {
    for (int k = 0; k < unknowns; ++k) m[j][k] = std::pow(double(j), k);
    m[j][unknowns + j] = 1;  // the right-hand side of value j, a column each
  }
  double even_factorial = 1;  // (2i)!
  for (int i = 0; i < radius; ++i) {
    if (i > 0) even_factorial *= (2 * i - 1) * (2 * i);
    m[points + i][2 * i + 1] = even_factorial * (2 * i + 1);
    m[points + i][2 * i] = -beta_times_h * even_factorial;
  }
  // Gauss-Jordan with partial pivoting: a = M^-1 [I; 0], a column of coefficients per point.
  for (int col = 0; col < unknowns; ++col) {
    int pivot = col;
    for (int row = col + 1; row < unknowns; ++row)
      if (std::abs(m[row][col]) > std::abs(m[pivot][col])) pivot = row;
    std::swap(m[col], m[pivot]);
    for (int row = 0; row < unknowns; ++row) {
      if (row == col || m[row][col] == 0) continue;
      const double factor = m[row][col] / m[col][col];
      for (int k = col; k < unknowns + points; ++k) m[row][k] -= factor * m[col][k];
    }
  }
  ConvectiveWeights w{};
  for (int ghost = 1; ghost <= radius; ++ghost)
    for (int j = 0; j < points; ++j) {
      double value = 0;
      for (int k = 0; k < unknowns; ++k) value += m[k][unknowns + j] / m[k][k] * std::pow(double(-ghost), k);
      w[ghost - 1][j] = value;
    }
  return w;
}

void require_consistent_boundaries(const Boundaries& b, const std::array<int, 3>& points, int radius) {
  for (int axis = 0; axis < 3; ++axis) {
    const BoundaryCondition& low = b[2 * axis];
    const BoundaryCondition& high = b[2 * axis + 1];
    const bool low_periodic = low.kind == BoundaryKind::Periodic;
    if (low_periodic != (high.kind == BoundaryKind::Periodic)) {
      const int lone = low_periodic ? 2 * axis : 2 * axis + 1;
      throw InputError(std::string("--bc-") + face_name(lone) + " periodic needs --bc-" + face_name(lone ^ 1) +
                       " periodic too (it is " + boundary_condition_text(b[lone ^ 1]) +
                       "): periodic pairs opposite faces");
    }
    // An even or odd reflection mirrors r points of the domain beyond the face point; a convective
    // face's polynomial reads the face point and r more.
    const int need = 3 * radius + 1;
    for (const BoundaryCondition* c : {&low, &high})
      if (c->kind != BoundaryKind::Layer && c->kind != BoundaryKind::Periodic && points[axis] < need)
        throw InputError(std::string(kAxisPoints[axis]) + " " + std::to_string(points[axis]) + " is too small for " +
                         boundary_condition_text(*c) + " at order " + std::to_string(2 * radius) +
                         ": a reflected face needs at least 3r+1 = " + std::to_string(need) + " points");
  }
}

}  // namespace heat
