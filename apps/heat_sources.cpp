#include "apps/heat_sources.hpp"
#include "apps/grid_arrays.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "backends/cpu/source_step.hpp"
#include "core/body_quadrature.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "io/input_file.hpp"

namespace heat {
namespace {

void require_file_source_fits(const SourceSpec& s, const std::string& text, const Grid& run) {
  require_array_on_grid(s.file, s.array, run, "--source " + shown_value(text) + ": ", "a source file must hold q on the run's grid");
}

}  // namespace

std::vector<SourceSpec> resolve_sources(const RunOptions& o, const Problem& p) {
  std::vector<SourceSpec> specs;
  // A source's step increment is set up once from the homogeneous problem's linear operator
  // (core/heat_source.hpp), which a radiation face, not affine in the field, does not have.
  for (int face = 0; face < kFaces && !o.source.empty(); ++face)
    if (p.boundaries[face].kind == BoundaryKind::Radiation)
      throw InputError("--source " + shown_value(o.source.front()) + " cannot run beside --bc-" + face_name(face) + " " +
                       boundary_condition_text(p.boundaries[face]) +
                       ": a source's step is set up from a linear problem, and radiation is not linear");
  for (const std::string& text : o.source) {
    SourceSpec s = parse_source_spec(text);
    require_source_in_body(s, p);
    if (s.kind == SourceKind::File) require_file_source_fits(s, text, p.grid);
    specs.push_back(std::move(s));
  }
  return specs;
}

std::string source_checksum(const Field<double>& q) {
  std::uint64_t hash = 14695981039346656037ull;
  const auto* bytes = reinterpret_cast<const unsigned char*>(q.data());
  for (std::size_t n = 0; n < q.size() * sizeof(double); ++n) hash = (hash ^ bytes[n]) * 1099511628211ull;
  char text[32];
  std::snprintf(text, sizeof text, "fnv1a64:%016" PRIx64, hash);
  return text;
}

void add_heat_source(RunPlan& plan, const RunOptions& o) {
  if (plan.sources.empty()) return;
  Problem& p = plan.problem;
  Field<double> q(p.grid);
  for (const SourceSpec& s : plan.sources) {
    const std::string text = source_spec_text(s);
    SourceRecord record{text, ""};
    if (s.kind == SourceKind::File) {
      const PointArray array = read_point_array(s.file, s.array);
      const double* values = array.values.data();
      for (std::size_t n = 0; n < q.size(); ++n)
        if (!std::isfinite(values[n])) {
          const std::size_t plane = std::size_t(p.grid.nx) * std::size_t(p.grid.ny);
          throw InputError("--source " + shown_value(text) + ": " + s.file + "'s array " + s.array + " holds " +
                           number_text(values[n]) + " at (" + std::to_string(n % std::size_t(p.grid.nx)) + "," +
                           std::to_string(n / std::size_t(p.grid.nx) % std::size_t(p.grid.ny)) + "," +
                           std::to_string(n / plane) + "): a source must be finite");
        }
      record.checksum = source_checksum(array.values);
      const auto stored = o.source_checksums.find(text);
      if (stored != o.source_checksums.end() && stored->second != record.checksum)
        throw InputError("--source " + shown_value(text) + " taken from " + o.init_file + ": " + s.file + "'s array " +
                         s.array + " has changed since that run (checksum " + record.checksum + ", recorded " +
                         stored->second + "): give --source to run with it as it is now");
      parallel_for_points(q.size(), [&](std::size_t n) { q.data()[n] += values[n]; });
    } else {
      add_source_values(s, p, q);
    }
    plan.source_records.push_back(record);
  }
  plan.source_power = body_integral(p, q);
  p.source = make_heat_source(p, q, plan.last_step_dt);
}

}  // namespace heat
