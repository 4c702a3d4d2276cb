// The sets of face conditions that verify and the tests hold every backend to the cpu reference
// on: each kind of condition on all six faces, every kind at once, and conditions beside layer
// faces. Values differ from face to face, so an edge point shared by two temperature faces shows
// which one sets it, and a flux or convective face's sign or coefficient cannot be swapped with
// another's unnoticed. Q and H suit a domain about a unit wide: cell Biot numbers H h / K of 0.1
// at most where h is about 1/20 and K is 1.
#pragma once

#include <vector>

#include "core/boundary_conditions.hpp"

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

}  // namespace heat
