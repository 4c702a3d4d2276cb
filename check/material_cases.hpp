// The material fields K(x), C(x) that verify and the tests hold every backend that steps them
// (BackendEntry::steps_materials) to the cpu reference on (docs/design.md §1, "Materials"): random
// smooth fields (three random low modes, K over about a decade, C over half of one) and random
// piecewise ones (random boxes of other materials in a background, K over two decades, C over one,
// their interfaces at random places). Never constant, never zero; made from a seed alone, the same
// on every machine (the engine's integers, not the standard distributions). Values suit a domain
// about a unit wide, as boundary_cases.hpp's do.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/field.hpp"

namespace heat {

struct MaterialCase {
  const char* name;
  Field<double> conductivity, heat_capacity;
};

namespace material_case_detail {

// Uniform in [0, 1), from the engine's 64 bits.
inline double uniform(std::mt19937_64& engine) { return double(engine() >> 11) * 0x1.0p-53; }

// exp(spread * s(x)), s the mean of three modes sin(2 pi (a . x / L) + phase) with random
// whole wave numbers a of 0 to 2 per axis and random phases: between exp(-spread) and exp(spread).
inline Field<double> smooth_positive(const Grid& g, double spread, std::mt19937_64& engine) {
  double wave[3][3], phase[3];
  for (int m = 0; m < 3; ++m) {
    for (int a = 0; a < 3; ++a) wave[m][a] = double(engine() % 3);
    phase[m] = 2 * M_PI * uniform(engine);
  }
  const double length[3] = {(g.nx - 1) * g.hx, (g.ny - 1) * g.hy, (g.nz - 1) * g.hz};
  Field<double> f = Field<double>::uninitialized(g);
  parallel_for_points(f.size(), [&](std::size_t n) {
    const std::size_t plane = std::size_t(g.nx) * std::size_t(g.ny);
    const double x[3] = {double(n % std::size_t(g.nx)) * g.hx / length[0],
                         double(n / std::size_t(g.nx) % std::size_t(g.ny)) * g.hy / length[1],
                         double(n / plane) * g.hz / length[2]};
    double s = 0;
    for (int m = 0; m < 3; ++m)
      s += std::sin(2 * M_PI * (wave[m][0] * x[0] + wave[m][1] * x[1] + wave[m][2] * x[2]) + phase[m]) / 3;
    f.data()[n] = std::exp(spread * s);
  });
  return f;
}

}  // namespace material_case_detail

// The random piecewise fields: five boxes, each of 20% to 60% of every side, placed anywhere,
// later ones over earlier ones, in a background of K = C = 1.
inline MaterialCase piecewise_material(const Grid& g, std::mt19937_64& engine) {
  using material_case_detail::uniform;
  MaterialCase m{"piecewise", Field<double>(g, 1.0), Field<double>(g, 1.0)};
  const int n[3] = {g.nx, g.ny, g.nz};
  for (int box = 0; box < 5; ++box) {
    int first[3], last[3];
    for (int a = 0; a < 3; ++a) {
      const int size = int((0.2 + 0.4 * uniform(engine)) * n[a]);
      first[a] = int(uniform(engine) * (n[a] - size));
      last[a] = first[a] + size;
    }
    const double k = std::pow(10.0, 2 * uniform(engine) - 1), c = std::pow(10.0, uniform(engine) - 0.5);
    for (int kz = first[2]; kz < last[2]; ++kz)
      for (int j = first[1]; j < last[1]; ++j)
        for (int i = first[0]; i < last[0]; ++i) m.conductivity(i, j, kz) = k, m.heat_capacity(i, j, kz) = c;
  }
  return m;
}

// The random smooth fields: K over about a decade, C over half of one.
inline MaterialCase smooth_material(const Grid& g, std::mt19937_64& engine) {
  const double decade = std::log(10.0);
  Field<double> k = material_case_detail::smooth_positive(g, decade / 2, engine);
  return {"smooth", std::move(k), material_case_detail::smooth_positive(g, decade / 4, engine)};
}

// The case named `name` ("smooth" or "piecewise") of `seed`, as material_cases makes it.
inline MaterialCase material_case(const std::string& name, const Grid& g, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  if (name == "smooth") return smooth_material(g, engine);
  if (name == "piecewise") return piecewise_material(g, engine);
  throw std::invalid_argument("no material case " + name + ": smooth or piecewise");
}

// Both cases of `seed`.
inline std::vector<MaterialCase> material_cases(const Grid& g, std::uint64_t seed) {
  std::vector<MaterialCase> cases;
  for (const char* name : {"smooth", "piecewise"}) cases.push_back(material_case(name, g, seed));
  return cases;
}

}  // namespace heat
