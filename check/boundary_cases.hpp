// The sets of face conditions that verify and the tests hold every backend to the cpu reference
// on: each kind of condition on all six faces, every kind at once, and conditions beside layer
// faces. Values differ from face to face, so an edge point shared by two temperature faces shows
// which one sets it, and a flux or convective face's sign or coefficient cannot be swapped with
// another's unnoticed. Q and H suit a domain about a unit wide: cell Biot numbers H h / K of 0.1
// at most where h is about 1/20 and K is 1. Also the faces that verify and the tests run a heat
// source with, and the random source they run.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "core/boundary_conditions.hpp"
#include "core/field.hpp"
#include "core/initial_conditions.hpp"

namespace heat {

struct BoundaryCase {
  const char* name;
  Boundaries faces;  // x-low, x-high, y-low, y-high, z-low, z-high
};

inline std::vector<BoundaryCase> boundary_cases() {
  using K = BoundaryKind;
  const BoundaryCondition periodic{K::Periodic}, insulated{K::Insulated};
  return {
      {"temperature",
       {{{K::Temperature, 1.5}, {K::Temperature, -0.5}, {K::Temperature, 0.25}, {K::Temperature, 1.0},
         {K::Temperature, -1.0}, {K::Temperature, 0.75}}}},
      {"insulated", {{insulated, insulated, insulated, insulated, insulated, insulated}}},
      {"flux", {{{K::Flux, 2.0}, {K::Flux, -1.0}, {K::Flux, 0.5}, {K::Flux, -3.0}, {K::Flux, 1.5}, {K::Flux, 4.0}}}},
      {"convective",
       {{{K::Convective, 2.0, 0.5}, {K::Convective, 1.0, -0.5}, {K::Convective, 1.6, 0.2},
         {K::Convective, 0.0, 3.0}, {K::Convective, 0.5, 1.0}, {K::Convective, 1.8, -1.0}}}},
      {"periodic", {{periodic, periodic, periodic, periodic, periodic, periodic}}},
      {"mixed",
       {{periodic, periodic, {K::Temperature, 0.5}, {K::Flux, -2.0}, {K::Convective, 1.5, 0.25}, insulated}}},
      // As a rank's box has its faces between ranks.
      {"beside-layer", {{{K::Convective, 1.0, 2.0}, {K::Temperature, -0.25}, periodic, periodic, {}, {}}}},
  };
}

// Radiation faces (heat into the body EPS sigma (T_INF^4 - T^4), in kelvin) beside the other
// kinds, on radiating_field's temperatures: cell Biot numbers 4 EPS sigma T^3 h / K of 0.13 at
// most (380 K, h 1/20, K 1), and a radiated flux that moves the ghosts by kelvins, so that the
// nonlinear closure shows. Apart from boundary_cases(): it needs a field of absolute temperatures.
inline BoundaryCase radiation_case() {
  using K = BoundaryKind;
  return {"radiation",
          {{{K::Radiation, 0.2, 250.0}, {K::Temperature, 320.0}, {K::Insulated}, {K::Radiation, 0.1, 400.0},
            {K::Radiation, 0.15, 300.0}, {K::Convective, 1.5, 280.0}}}};
}

// The field radiation_case() runs on: 300 K plus 20 K times `random` (a standard normal field).
inline Field<double> radiating_field(const Field<double>& random) {
  Field<double> u = random;
  for (double& v : u.values()) v = 300 + 20 * v;
  return u;
}

// The case of boundary_cases() named `name`.
inline BoundaryCase boundary_case(const std::string& name) {
  for (const BoundaryCase& c : boundary_cases())
    if (name == c.name) return c;
  throw std::logic_error("no boundary case " + name);
}

// The faces a heat source is checked with: layer alone (tiled's fused kernels), held temperatures
// (the source's curvature in their ghosts) and every kind at once.
inline std::vector<BoundaryCase> source_cases() {
  return {{"layer", Boundaries{}}, boundary_case("temperature"), boundary_case("mixed")};
}

// q = mean + spread * (a standard normal field) W/m^3: random, and zero almost nowhere for mean
// beside spread.
inline Field<double> random_source(const Grid& g, double mean, double spread, unsigned long long seed) {
  Field<double> q = randn_field<double>(g, seed);
  for (double& v : q.values()) v = mean + spread * v;
  return q;
}

}  // namespace heat
