#include "core/heat_source.hpp"

#include <cmath>
#include <cstdint>

#include "core/comma_numbers.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"

namespace heat {
namespace {

const char* const kAllowed = "uniform:Q, gaussian:X,Y,Z,SIGMA,POWER or file:F.hdf:ARRAY";

// Calls body(i, j, k) for every point of the body, the planes in parallel.
template <typename Body>
void for_body(const Problem& p, Body&& body) {
  const Grid& g = p.grid;
  const int r = p.radius();
#pragma omp parallel for schedule(static)
  for (int k = r; k < g.nz - r; ++k)
    for (int j = r; j < g.ny - r; ++j)
      for (int i = r; i < g.nx - r; ++i) body(i, j, k);
}

}  // namespace

SourceSpec parse_source_spec(const std::string& text, const std::string& option) {
  const std::size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  SourceSpec s;
  if (kind == "uniform") {
    s.kind = SourceKind::Uniform;
    s.q = parse_spec_numbers(rest, 1, option, text, "uniform:Q")[0];
  } else if (kind == "gaussian") {
    const char* form = "gaussian:X,Y,Z,SIGMA,POWER";
    const std::vector<double> n = parse_spec_numbers(rest, 5, option, text, form);
    s = {SourceKind::Gaussian, 0, n[0], n[1], n[2], n[3], n[4], "", ""};
    if (!(s.sigma > 0))
      throw InputError(option + " " + shown_value(text) + ": SIGMA " + number_text(s.sigma) +
                       " must be a positive width (the form is " + form + ")");
  } else if (kind == "file") {
    s.kind = SourceKind::File;
    const std::size_t last = rest.rfind(':');
    if (colon == std::string::npos || last == std::string::npos || last == 0 || last + 1 == rest.size())
      throw InputError(option + " " + shown_value(text) +
                       ": the form is file:F.hdf:ARRAY, a VTKHDF file and the point array in it that holds q");
    s.file = rest.substr(0, last);
    s.array = rest.substr(last + 1);
  } else {
    throw InputError(option + " " + shown_value(text) + " is not a heat source: give " + kAllowed);
  }
  return s;
}

std::string source_spec_text(const SourceSpec& s) {
  switch (s.kind) {
    case SourceKind::Uniform: return "uniform:" + number_text(s.q);
    case SourceKind::Gaussian:
      return "gaussian:" + number_text(s.x) + "," + number_text(s.y) + "," + number_text(s.z) + "," +
             number_text(s.sigma) + "," + number_text(s.power);
    case SourceKind::File: return "file:" + s.file + ":" + s.array;
  }
  return "";
}

void require_source_in_body(const SourceSpec& s, const Problem& p, const std::string& option) {
  if (s.kind != SourceKind::Gaussian) return;
  const Grid& g = p.grid;
  const int r = p.radius();
  const double centre[3] = {s.x, s.y, s.z};
  const int n[3] = {g.nx, g.ny, g.nz};
  const double h[3] = {g.hx, g.hy, g.hz};
  const char* const axis_names[3] = {"X", "Y", "Z"};
  for (int a = 0; a < 3; ++a) {
    const double low = r * h[a], high = (n[a] - 1 - r) * h[a];
    if (centre[a] < low || centre[a] > high)
      throw InputError(option + " " + shown_value(source_spec_text(s)) + ": the centre's " + axis_names[a] + " " +
                       number_text(centre[a]) + " lies outside the body, " + number_text(low) + " to " +
                       number_text(high) + " (point i lies at i*h; the body is the points r to n-1-r)");
  }
}

void add_source_values(const SourceSpec& s, const Problem& p, Field<double>& q) {
  const Grid& g = p.grid;
  if (s.kind == SourceKind::Uniform) {
    for_body(p, [&](int i, int j, int k) { q(i, j, k) += s.q; });
  } else if (s.kind == SourceKind::Gaussian) {
    const double pi = 3.14159265358979323846;
    const double peak = s.power / (std::pow(2 * pi, 1.5) * s.sigma * s.sigma * s.sigma);
    const double inv_two_sigma2 = 1 / (2 * s.sigma * s.sigma);
    for_body(p, [&](int i, int j, int k) {
      const double dx = i * g.hx - s.x, dy = j * g.hy - s.y, dz = k * g.hz - s.z;
      q(i, j, k) += peak * std::exp(-(dx * dx + dy * dy + dz * dz) * inv_two_sigma2);
    });
  }
}

}  // namespace heat
