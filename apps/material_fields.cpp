#include "apps/material_fields.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "apps/grid_arrays.hpp"
#include "apps/material_table.hpp"
#include "backends/cpu/boundary_fill.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "io/input_file.hpp"

namespace heat {
namespace {

constexpr const char* kGridRule = "a material file must hold its values on the run's grid";

struct MaterialOption {
  const char* name;
  std::string RunOptions::*member;
};
constexpr MaterialOption kMaterialMembers[] = {
    {"conductivity-file", &RunOptions::conductivity_file},
    {"conductivity-array", &RunOptions::conductivity_array},
    {"heat-capacity-file", &RunOptions::heat_capacity_file},
    {"heat-capacity-array", &RunOptions::heat_capacity_array},
    {"materials", &RunOptions::materials},
    {"material-labels", &RunOptions::material_labels},
};

bool gives(const RunOptions& o, const char* name) {
  for (const MaterialOption& m : kMaterialMembers)
    if (name == std::string(m.name)) return o.was_given(name) && !(o.*m.member).empty();
  return false;
}

// A quantity given in memory (heatrk4.step's array), named as its keyword.
struct MaterialValues {
  const char* keyword;
  std::shared_ptr<const Field<double>> RunOptions::*member;
};
constexpr MaterialValues kMaterialValues[] = {
    {"conductivity=", &RunOptions::conductivity_values},
    {"heat_capacity=", &RunOptions::heat_capacity_values},
};

std::string point_text(std::size_t n, const Grid& g) {
  const std::size_t nx = std::size_t(g.nx), ny = std::size_t(g.ny);
  return "(" + std::to_string(n % nx) + "," + std::to_string(n / nx % ny) + "," + std::to_string(n / (nx * ny)) + ")";
}

// One quantity: its values in memory or its file's array, checked, or the constant everywhere.
Field<double> field_or_constant(const std::shared_ptr<const Field<double>>& values_given, const char* keyword,
                                const std::string& file, const std::string& array, const char* option, const Grid& g,
                                double constant) {
  if (values_given) {
    if (values_given->nx() != g.nx || values_given->ny() != g.ny || values_given->nz() != g.nz)
      throw std::logic_error(std::string(keyword) + " is not on the run's grid: its caller checks the shape");
    require_positive_everywhere(*values_given, g, keyword);
    return *values_given;
  }
  if (file.empty()) return Field<double>(g.nx, g.ny, g.nz, constant);
  const std::string named = std::string("--") + option + " " + shown_value(file) + ": ";
  require_array_on_grid(file, array, g, named, kGridRule);
  Field<double> values = read_point_array(file, array).values;
  require_positive_everywhere(values, g, named + "array " + array);
  return values;
}

// K and C from --material-labels' array and --materials' table.
void labelled_fields(const RunOptions& o, const Grid& g, Field<double>& k, Field<double>& c) {
  const std::vector<MaterialEntry> table = read_material_table(o.materials);
  const std::string& spec = o.material_labels;
  const std::size_t colon = spec.rfind(':');
  const std::string file = colon == std::string::npos ? "" : spec.substr(0, colon);
  const std::string array = colon == std::string::npos ? "" : spec.substr(colon + 1);
  const std::string named = "--material-labels " + shown_value(spec) + ": ";
  if (file.empty() || array.empty())
    throw InputError(named + "give F.hdf:ARRAY, the file and its integer point array of labels");
  require_array_on_grid(file, array, g, named, kGridRule);
  const Field<double> labels = read_point_array(file, array).values;
  k = Field<double>::uninitialized(g);
  c = Field<double>::uninitialized(g);
  std::string known;
  for (const MaterialEntry& e : table) known += (known.empty() ? "" : ", ") + std::to_string(e.label) + " " + e.name;
  for (std::size_t n = 0; n < labels.size(); ++n) {
    const double label = labels.data()[n];
    const MaterialEntry* entry = nullptr;
    for (const MaterialEntry& e : table)
      if (double(e.label) == label) entry = &e;
    if (!entry)
      throw InputError(named + "label " + number_text(label) + " at " + point_text(n, g) + " has no material in --materials " +
                       shown_value(o.materials) + " (it has: " + known + ")");
    k.data()[n] = entry->conductivity;
    c.data()[n] = entry->heat_capacity;
  }
}

void fill_material_ghosts(const Problem& p, Field<double>& f) {
  Problem mirror = p;
  mirror.source = nullptr;
  mirror.materials = nullptr;
  for (BoundaryCondition& c : mirror.boundaries)
    if (c.kind != BoundaryKind::Layer && c.kind != BoundaryKind::Periodic) c = {BoundaryKind::Insulated};
  fill_boundaries(mirror, f.data());
}

}  // namespace

std::string material_fields_named(const RunOptions& o) {
  for (const MaterialValues& v : kMaterialValues)
    if (o.*v.member) return std::string(v.keyword) + " (an array)";
  for (const char* name : {"conductivity-file", "heat-capacity-file", "materials", "material-labels"})
    if (gives(o, name)) {
      for (const MaterialOption& m : kMaterialMembers)
        if (name == std::string(m.name)) return std::string("--") + name + " " + shown_value(o.*m.member);
    }
  return "";
}

std::string materials_checksum(const Field<double>& conductivity, const Field<double>& heat_capacity) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const Field<double>* f : {&conductivity, &heat_capacity}) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(f->data());
    for (std::size_t n = 0; n < f->size() * sizeof(double); ++n) hash = (hash ^ bytes[n]) * 1099511628211ull;
  }
  char text[32];
  std::snprintf(text, sizeof text, "fnv1a64:%016" PRIx64, hash);
  return text;
}

MaterialRecord resolve_material_fields(const RunOptions& o, Problem& p) {
  MaterialRecord record;
  const std::string named = material_fields_named(o);
  if (named.empty()) return record;
  if (o.was_given("alpha"))
    throw InputError("--alpha and " + named + " both given: with material fields the diffusivity is K/C at each "
                     "point; give --conductivity or --heat-capacity for a quantity that no field gives");
  const bool regions = gives(o, "materials") || gives(o, "material-labels");
  if (regions && !(gives(o, "materials") && gives(o, "material-labels")))
    throw InputError(named + " needs " + (gives(o, "materials") ? "--material-labels F.hdf:ARRAY" : "--materials F.toml") +
                     ": the labels place the table's materials");
  if (regions && (gives(o, "conductivity-file") || gives(o, "heat-capacity-file") || o.conductivity_values ||
                  o.heat_capacity_values))
    throw InputError("--materials and " + material_fields_named(o) +
                     " both given: give the materials by region or K and C by file, not both");
  Field<double> k, c;
  if (regions) {
    labelled_fields(o, p.grid, k, c);
  } else {
    k = field_or_constant(o.conductivity_values, "conductivity=", o.conductivity_file, o.conductivity_array,
                          "conductivity-file", p.grid, p.conductivity);
    c = field_or_constant(o.heat_capacity_values, "heat_capacity=", o.heat_capacity_file, o.heat_capacity_array,
                          "heat-capacity-file", p.grid, p.heat_capacity);
  }
  record.checksum = materials_checksum(k, c);
  if (!o.materials_checksum.empty() && o.materials_checksum != record.checksum)
    throw InputError(named + " taken from " + o.init_file + ": the fields it gives have changed since that run " +
                     "(checksum " + record.checksum + ", recorded " + o.materials_checksum +
                     "): give the material options to run with them as they are now");
  for (const MaterialOption& m : kMaterialMembers)
    if (o.was_given(m.name)) record.options.push_back({m.name, o.*m.member});

  p.materials = make_materials(p, std::move(k), std::move(c));
  p.alpha = largest_diffusivity(p, *p.materials);
  return record;
}

std::shared_ptr<const Materials> make_materials(const Problem& p, Field<double> conductivity,
                                                Field<double> heat_capacity) {
  auto materials = std::make_shared<Materials>();
  fill_material_ghosts(p, conductivity);
  fill_material_ghosts(p, heat_capacity);
  materials->conductivity = std::move(conductivity);
  materials->heat_capacity = std::move(heat_capacity);
  set_convective_weights(p, *materials);
  return materials;
}

}  // namespace heat
