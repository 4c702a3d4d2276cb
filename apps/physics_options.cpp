#include "apps/physics_options.hpp"

#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "core/number_text.hpp"

namespace heat {
namespace {

double positive(double value, const char* option) {
  if (!(value > 0) || !std::isfinite(value))
    throw InputError(std::string(option) + " " + number_text(value) + " must be a positive number");
  return value;
}

}  // namespace

void resolve_material(const RunOptions& o, Problem& p) {
  const bool alpha = o.was_given("alpha"), k = o.was_given("conductivity"), c = o.was_given("heat-capacity");
  if (alpha && k && c)
    throw InputError("--alpha, --conductivity and --heat-capacity all given: give two of them (alpha = K/C)");
  if (k) positive(o.conductivity, "--conductivity");
  if (c) positive(o.heat_capacity, "--heat-capacity");
  p.alpha = positive(o.alpha, "--alpha");
  if (k && c) p.alpha = o.conductivity / o.heat_capacity;
  // Only --alpha (or nothing): C = 1 and K = alpha, so a run without the material means what it did.
  p.heat_capacity = c ? o.heat_capacity : (k && alpha ? o.conductivity / o.alpha : 1.0);
  p.conductivity = k ? o.conductivity : p.alpha * p.heat_capacity;
  if (k && !alpha && !c) p.alpha = o.conductivity;
  if (c && !k && alpha) p.conductivity = o.alpha * o.heat_capacity;
  positive(p.alpha, "alpha = K/C");
}

std::string& face_option(RunOptions& o, int face) {
  std::string* per_face[kFaces] = {&o.bc_x_low, &o.bc_x_high, &o.bc_y_low, &o.bc_y_high, &o.bc_z_low, &o.bc_z_high};
  return *per_face[face];
}

const std::string& face_option(const RunOptions& o, int face) { return face_option(const_cast<RunOptions&>(o), face); }

Boundaries resolve_boundaries(const RunOptions& o, const Grid& g, int order) {
  const BoundaryCondition every_face = parse_boundary_condition(o.bc, "--bc");
  Boundaries b;
  for (int face = 0; face < kFaces; ++face) {
    const std::string option = std::string("bc-") + face_name(face);
    b[face] = o.was_given(option) ? parse_boundary_condition(face_option(o, face), "--" + option) : every_face;
  }
  require_consistent_boundaries(b, {g.nx, g.ny, g.nz}, order / 2);
  return b;
}

}  // namespace heat
