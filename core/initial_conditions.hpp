// Initial fields, generated in double and rounded once to the run's precision.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/field.hpp"
#include "core/grid_box.hpp"
#include "core/problem.hpp"

namespace heat {

enum class InitKind { Gaussian, Randn, Sine, Uniform, File };

struct InitSpec {
  InitKind kind = InitKind::Gaussian;
  std::uint64_t seed = 42;
  std::array<int, 3> modes = {1, 1, 1};  // sine: mode numbers along x, y, z
  double temperature = 0;                // uniform: the value at every point
};

// --init's value: gaussian, randn, sine, file or uniform:T (T finite), its kind (and T) into
// `spec`; InputError naming the value and the forms for anything else.
void parse_init(const std::string& text, InitSpec& spec);
// The value as --init takes it and the snapshots record it ("uniform:293", "randn").
std::string init_text(const InitSpec& spec);

// Every field is computed in double and rounded once to T (float or double), point by point, so
// a float run's field is the double field rounded, without a double copy of it in memory.

// A smooth hot spot: exp(-|x - centre|^2 / (2 sigma^2)), sigma a tenth of the shortest side.
template <typename T = double>
Field<T> gaussian_field(const Grid& g);
// Standard normal values; value n depends only on (seed, n), and is bitwise the same on every
// machine and thread count (no libm: see initial_conditions.cpp).
template <typename T = double>
Field<T> randn_field(const Grid& g, std::uint64_t seed);
// prod_a sin(m_a * pi * x_a / L_a) with x_a = index * h_a and L_a = (n_a - 1) * h_a.
template <typename T = double>
Field<T> sine_field(const Grid& g, const std::array<int, 3>& modes);

// Every plane of g; the box of whole rows and columns over `planes`.
inline Planes all_planes(const Grid& g) { return {0, g.nz}; }
inline GridBox planes_box(const Grid& g, Planes planes) { return {{0, g.nx}, {0, g.ny}, planes}; }

// The generated kinds above and uniform; File is read by io/ and refused here.
template <typename T = double>
Field<T> make_initial_field(const Grid& g, const InitSpec& spec);
// The same field's `planes` only (of nx x ny x planes.count points): every value is the whole
// field's at the same global point, bitwise.
template <typename T = double>
Field<T> make_initial_field(const Grid& whole, const InitSpec& spec, Planes planes);
// The same field's `box` only (of x.count x y.count x z.count points), bitwise the whole field's.
template <typename T = double>
Field<T> make_initial_field(const Grid& whole, const InitSpec& spec, const GridBox& box);

// One standard normal draw for counter n of stream `seed` (exposed for tests).
double standard_normal(std::uint64_t seed, std::uint64_t n);
// sin(mode * pi * i / (n - 1)) for i < n: sine's factor along one axis.
std::vector<double> sine_profile(int n, int mode);

}  // namespace heat
