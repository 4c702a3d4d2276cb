// heatrk4-bench: every backend x order x precision x size (x the faces' condition, --faces, x the
// material fields, --materials), against the device-to-device copy bandwidth measured in the same process. Validates before timing: a backend whose result
// fails the check against the double cpu reference gets no numbers.
//
// Napkin math: a step must read u once and write it once, so the floor of one step is one
// copy of u. Each backend's byte model (bytes per interior point per step, written beside the
// backend in its registry entry) turns its time into an effective bandwidth.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <vector>

#include "apps/json_writer.hpp"
#include "apps/material_fields.hpp"
#include "benchmarks/device_timing.hpp"
#include "backends/cuda/gpu_info.hpp"
#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "backends/tiled/tiled.hpp"
#include "core/time_loop.hpp"
#include "check/material_cases.hpp"
#include "check/reference.hpp"
#include "core/materials.hpp"

namespace heat::bench {
namespace {

struct Options {
  std::vector<int> sizes = {600};
  std::vector<int> orders = {8};
  std::vector<std::string> precisions = {"float"};
  std::vector<std::string> backends = {"naive", "reuse", "tiled"};
  std::vector<std::string> faces = {"layer"};  // each the condition of all six faces, as --bc takes it
  std::vector<std::string> materials = {"constant"};  // or check/material_cases.hpp's smooth, piecewise
  int steps = 10, repeats = 10, check_n = 64, device = 0;
  std::string csv, json;
};

struct Row {
  std::string backend, precision, faces;
  int n = 0, order = 0;
  bool checked_ok = false;
  std::string check_note;
  double ms_per_step = 0, floor_ms_per_step = 0, bytes_per_point = 0, gb_per_s = 0, copy_gb_per_s = 0;
  double points_per_s() const { return ms_per_step > 0 ? double(n - order) * (n - order) * (n - order) / (ms_per_step * 1e-3) : 0; }
};

// With material fields (`materials` not "constant"), alpha is their largest K/C; the check's grid
// (`limited`) also keeps cfl within 0.9 of their stable limit, which the timed grid's steps, whose
// values are not read, need not pay for at 600^3.
Problem reference_problem(int n, int order, const BoundaryCondition& faces, const std::string& materials,
                          bool limited) {
  Problem p;
  p.grid = Grid{n, n, n, 1.0 / (n - 1), 1.0 / (n - 1), 1.0 / (n - 1)};
  p.order = order;
  p.dt = dt_from_cfl(p.grid, p.alpha, 0.05);
  p.boundaries.fill(faces);
  require_consistent_boundaries(p.boundaries, {n, n, n}, p.radius());
  if (materials == "constant") return p;
  MaterialCase fields = material_case(materials, p.grid, 5);
  p.materials = make_materials(p, std::move(fields.conductivity), std::move(fields.heat_capacity));
  p.alpha = largest_diffusivity(p, *p.materials);
  p.dt = dt_from_cfl(p.grid, p.alpha, limited ? std::min(0.05, 0.9 * material_cfl_limit(p)) : 0.05);
  return p;
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

template <typename T>
Row measure(const Options& o, const BackendEntry& entry, const BoundaryCondition& faces, const std::string& materials,
            int n, int order, double copy_bw, const Field<double>& start_double, std::size_t l2_bytes) {
  const std::string shown = boundary_condition_text(faces) + (materials == "constant" ? "" : "+" + materials);
  Row row{entry.name, sizeof(T) == 4 ? "float" : "double", shown, n, order};
  row.copy_gb_per_s = copy_bw / 1e9;
  const double tol = default_tolerance<T>();
  const Problem small = reference_problem(o.check_n, order, faces, materials, true);
  const FieldDifference d =
      check_against_reference<T>(entry, small, randn_field(small.grid, 7), 10, tol, tol, o.device);
  row.checked_ok = d.pass();
  row.check_note = describe(d);
  if (!row.checked_ok) return row;

  const Problem p = reference_problem(n, order, faces, materials, false);
  const Field<T> start = field_cast<T>(start_double);
  BackendOptions bo;
  bo.device = o.device;
  // Where the working set fits in L2, repeated steps would measure the cache: rotate among
  // enough independent instances that together they are twice its size.
  const std::size_t working = entry.working_bytes(p, sizeof(T)) + p.grid.points() * sizeof(T);
  const int instances = std::clamp(int(2 * l2_bytes / working) + 1, 1, 8);
  std::vector<std::unique_ptr<Backend<T>>> backends;
  for (int b = 0; b < instances; ++b) {
    backends.push_back(entry.make<T>(p, bo));
    backends.back()->upload(start);
    backends.back()->step(1);  // warm-up: module load, first touch
  }
  std::vector<double> ms;
  for (int r = 0; r < o.repeats; ++r) {
    Backend<T>& b = *backends[r % instances];
    ms.push_back(time_with_events_ms([&] { b.step(o.steps); }) / o.steps);
  }
  row.ms_per_step = median(ms);
  row.bytes_per_point = entry.bytes_per_point(p, sizeof(T));
  row.gb_per_s = row.points_per_s() * row.bytes_per_point / 1e9;
  row.floor_ms_per_step = 2.0 * double(p.grid.points()) * sizeof(T) / copy_bw * 1e3;
  return row;
}

void print_row(const Row& r) {
  if (!r.checked_ok) {
    std::printf("%-22s %-6s %-16s %5d %5d  FAILED the check, not timed: %s\n", r.backend.c_str(), r.precision.c_str(),
                r.faces.c_str(), r.n, r.order, r.check_note.c_str());
    return;
  }
  std::printf("%-22s %-6s %-16s %5d %5d %10.3f %10.3f %8.2f %10.3e %6.0f %9.1f %7.1f%%\n", r.backend.c_str(),
              r.precision.c_str(), r.faces.c_str(), r.n, r.order, r.ms_per_step, r.floor_ms_per_step,
              r.ms_per_step / r.floor_ms_per_step, r.points_per_s(), r.bytes_per_point, r.gb_per_s,
              100.0 * r.gb_per_s / r.copy_gb_per_s);
}

void write_outputs(const Options& o, const std::vector<Row>& rows, const GpuInfo& gpu) {
  if (!o.csv.empty()) {
    std::ofstream csv(o.csv);
    csv << "device,backend,precision,n,order,check,ms_per_step,floor_ms_per_step,ratio_to_floor,points_per_s,"
           "bytes_per_point,gb_per_s,copy_gb_per_s,fraction_of_copy,faces\n";
    for (const auto& r : rows)
      csv << '"' << gpu.name << "\"," << r.backend << ',' << r.precision << ',' << r.n << ',' << r.order << ','
          << (r.checked_ok ? "pass" : "fail") << ',' << r.ms_per_step << ',' << r.floor_ms_per_step << ','
          << (r.checked_ok ? r.ms_per_step / r.floor_ms_per_step : 0) << ',' << r.points_per_s() << ','
          << r.bytes_per_point << ',' << r.gb_per_s << ',' << r.copy_gb_per_s << ','
          << (r.checked_ok ? r.gb_per_s / r.copy_gb_per_s : 0) << ",\"" << r.faces << "\"\n";
  }
  if (!o.json.empty()) {
    std::ofstream json(o.json);
    json << "{\"device\": " << JsonObject::quote(gpu.name) << ", \"steps\": " << o.steps
         << ", \"repeats\": " << o.repeats << ", \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      JsonObject j;
      j.add("backend", r.backend).add("precision", r.precision).add("faces", r.faces);
      j.add("n", r.n).add("order", r.order);
      j.add("check", r.checked_ok).add("ms_per_step", r.ms_per_step).add("floor_ms_per_step", r.floor_ms_per_step);
      j.add("points_per_s", r.points_per_s()).add("bytes_per_point", r.bytes_per_point);
      j.add("gb_per_s", r.gb_per_s).add("copy_gb_per_s", r.copy_gb_per_s);
      json << "  " << j.str() << (i + 1 < rows.size() ? ",\n" : "\n");
    }
    json << "]}\n";
  }
}

// A backend by name; "tiled:all" expands to every tiled configuration built for the order and
// precision, "tiled:<configuration>" to that one (the measured sweep of issue 4).
std::vector<BackendEntry> entries_named(const std::string& name, int order, bool is_float) {
  if (name == "tiled:all") {
    std::vector<BackendEntry> all;
    for (const auto& c : tiled_configurations(order, is_float ? Precision::Float : Precision::Double))
      all.push_back(tiled_configuration_entry(c));
    return all;
  }
  if (name.rfind("tiled:", 0) == 0) return {tiled_configuration_entry(name.substr(6))};
  const BackendEntry* entry = default_registry().find(name);
  if (!entry) throw InputError("unknown backend " + name);
  return {*entry};
}

int run(const Options& o) {
  const GpuInfo gpu = query_gpu(o.device);
  if (!gpu.available) {
    std::fprintf(stderr, "heatrk4-bench: no CUDA GPU (%s)\n", gpu.reason.c_str());
    return 2;
  }
  std::printf("device: %s, %d SMs, L2 %.0f MB; %d steps per timing, median of %d\n", gpu.name.c_str(),
              gpu.multiprocessors, gpu.l2_bytes / 1e6, o.steps, o.repeats);
  std::printf("%-22s %-6s %-16s %5s %5s %10s %10s %8s %10s %6s %9s %8s\n", "backend", "prec", "faces", "n", "order",
              "ms/step", "floor ms", "x floor", "points/s", "B/pt", "GB/s", "of copy");
  std::vector<BoundaryCondition> faces;
  for (const std::string& text : o.faces) faces.push_back(parse_boundary_condition(text, "--faces"));
  std::vector<Row> rows;
  for (int n : o.sizes) {
    const Field<double> start = randn_field(Grid{n, n, n}, 42);
    for (const auto& precision : o.precisions) {
      const std::size_t value = precision == "float" ? sizeof(float) : sizeof(double);
      const double copy_bw = copy_bandwidth(std::size_t(n) * n * n * value, 20);
      std::printf("-- %d^3 %s: device-to-device copy %.1f GB/s (read + write)\n", n, precision.c_str(), copy_bw / 1e9);
      for (int order : o.orders)
        for (const auto& name : o.backends)
          for (const BoundaryCondition& c : faces)
            for (const std::string& materials : o.materials)
              for (const BackendEntry& entry : entries_named(name, order, value == sizeof(float))) {
                rows.push_back(value == sizeof(float)
                                   ? measure<float>(o, entry, c, materials, n, order, copy_bw, start, gpu.l2_bytes)
                                   : measure<double>(o, entry, c, materials, n, order, copy_bw, start, gpu.l2_bytes));
                print_row(rows.back());
              }
    }
  }
  write_outputs(o, rows, gpu);
  const bool all_ok = std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.checked_ok; });
  return all_ok ? 0 : 1;
}

}  // namespace
}  // namespace heat::bench

int main(int argc, char** argv) {
  heat::bench::Options o;
  CLI::App app("heatrk4-bench: backends against the device-to-device copy ceiling");
  app.add_option("--sizes", o.sizes, "grid sizes n (n^3 points)")->capture_default_str();
  app.add_option("--orders", o.orders, "stencil orders")->capture_default_str();
  app.add_option("--precisions", o.precisions, "float and/or double")->capture_default_str();
  app.add_option("--backends", o.backends, "backends to time")->capture_default_str();
  app.add_option("--faces", o.faces, "each timed as the condition of all six faces (as --bc takes it)")
      ->capture_default_str();
  app.add_option("--materials", o.materials,
                 "each timed with constant K and C, or random smooth or piecewise fields of them: constant, smooth, "
                 "piecewise")
      ->capture_default_str();
  app.add_option("--steps", o.steps, "steps per timed run")->capture_default_str();
  app.add_option("--repeats", o.repeats, "timed runs; the median is reported")->capture_default_str();
  app.add_option("--check-n", o.check_n, "grid of the check that gates timing")->capture_default_str();
  app.add_option("--device", o.device, "CUDA device")->capture_default_str();
  app.add_option("--csv", o.csv, "write the rows as CSV");
  app.add_option("--json", o.json, "write the rows as JSON");
  CLI11_PARSE(app, argc, argv);
  try {
    return heat::bench::run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "heatrk4-bench: %s\n", e.what());
    return 3;
  }
}
