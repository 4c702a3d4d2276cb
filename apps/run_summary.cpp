#include "apps/run_summary.hpp"

#include <algorithm>
#include <cstdio>

#include "apps/json_writer.hpp"
#include "io/output_target.hpp"
#include "core/errors.hpp"
#include "core/materials.hpp"

namespace heat {

double RunReport::points_per_second() const {
  return loop.compute_s > 0 ? double(plan.problem.interior_points()) * (final_step - plan.start_step) / loop.compute_s
                            : 0;
}

double RunReport::effective_gb_per_s() const { return points_per_second() * bytes_per_point / 1e9; }

namespace {

// K and C as the faces line says them: each constant, or where a field gives it, its range over the
// points the run steps and the option that gave it ("K 0.2 to 400 (--materials parts.toml)").
std::string conductivity_and_capacity_text(const RunPlan& plan) {
  const Problem& p = plan.problem;
  char text[256];
  if (!p.materials) {
    std::snprintf(text, sizeof text, "K %g, C %g", p.conductivity, p.heat_capacity);
    return text;
  }
  const auto given_by = [&](const char* file_option) {
    for (const char* name : {file_option, "materials"})
      for (const auto& [option, value] : plan.materials.options)
        if (option == name) return "--" + option + " " + value;
    return std::string();
  };
  const auto quantity = [&](const char* symbol, const Field<double>& field, double constant, const char* file_option) {
    const std::string option = given_by(file_option);
    if (option.empty()) {
      std::snprintf(text, sizeof text, "%s %g", symbol, constant);
      return std::string(text);
    }
    const ValueRange range = stepped_range(p, field);
    std::snprintf(text, sizeof text, "%s %g to %g (%s)", symbol, range.low, range.high, option.c_str());
    return std::string(text);
  };
  return quantity("K", p.materials->conductivity, p.conductivity, "conductivity-file") + ", " +
         quantity("C", p.materials->heat_capacity, p.heat_capacity, "heat-capacity-file");
}

}  // namespace

void print_summary(const RunReport& r) {
  const Problem& p = r.plan.problem;
  const Grid& g = p.grid;
  std::printf("heatrk4 run\n");
  std::printf("  problem   %d x %d x %d points, h = (%g, %g, %g), order %d (%d-point), alpha %g\n", g.nx, g.ny,
              g.nz, g.hx, g.hy, g.hz, p.order, 6 * p.radius() + 1, p.alpha);
  std::printf("            dt %.6g (cfl %.4g), %d steps from step %d, %s, init %s\n", p.dt, r.plan.cfl, r.plan.steps,
              r.plan.start_step, precision_name(r.plan.precision), r.plan.init_name.c_str());
  if (!all_layer(p.boundaries)) {
    std::printf("  faces     %s;", conductivity_and_capacity_text(r.plan).c_str());
    for (int face = 0; face < kFaces; ++face)
      std::printf(" %s %s%s", face_name(face), boundary_condition_text(p.boundaries[face]).c_str(),
                  face + 1 < kFaces ? "," : "\n");
  }
  if (!r.plan.materials.empty()) {
    std::printf("  materials fields, alpha = largest K/C;");
    for (const auto& [name, value] : r.plan.materials.options) std::printf(" --%s %s", name.c_str(), value.c_str());
    std::printf("\n");
  }
  if (!r.plan.source_records.empty()) {
    std::printf("  sources   total power %.6g W (sum(w q) dV):", r.plan.source_power);
    for (const SourceRecord& source : r.plan.source_records) std::printf(" %s", source.text.c_str());
    std::printf("\n");
  }
  if (r.plan.t_end && r.plan.last_step_dt > 0)
    std::printf("            to t_end %.17g, the last step shortened to %.6g to land on it\n", *r.plan.t_end,
                r.plan.last_step_dt);
  else if (r.plan.t_end)
    std::printf("            to t_end %.17g, which whole steps reach\n", *r.plan.t_end);
  for (const auto& line : r.overrides) std::printf("  override  %s\n", line.c_str());
  if (!r.plan.stored_backend_refused.empty()) std::printf("  restart   %s\n", r.plan.stored_backend_refused.c_str());
  if (!r.lossy_start.empty()) std::printf("  start     %s\n", r.lossy_start.c_str());
  std::printf("  backend   %s on %s%s%s\n", r.plan.backend.c_str(), r.device.c_str(),
              r.plan.backend_note.empty() ? "" : "; ", r.plan.backend_note.c_str());
  if (r.ranks > 1)
    std::printf("  ranks     %d (%s %s, %d ghost planes, halos over %s%s), halo exchange %.3f s on the slowest rank "
                "(%.1f%% of compute)\n",
                r.ranks, r.ranks_grid.rfind("1x1x", 0) == 0 ? "z-slabs" : "grid", r.ranks_grid.c_str(), r.ghost_planes, r.halo_exchange.c_str(), r.halo_overlap ? " beside the interior" : "",
                r.exchange_s, r.loop.compute_s > 0 ? 100 * r.exchange_s / r.loop.compute_s : 0.0);
  if (!r.input_bytes_read.empty()) {
    double most = 0, total = 0;
    for (double bytes : r.input_bytes_read) most = std::max(most, bytes), total += bytes;
    std::printf("  input     %s: %.0f bytes read%s", r.plan.init_file.c_str(), total,
                r.ranks > 1 ? " by every rank together, per rank" : "\n");
    if (r.ranks > 1) {
      for (double bytes : r.input_bytes_read) std::printf(" %.0f", bytes);
      std::printf(" (most %.0f)\n", most);
    }
  }
  std::printf("  time      setup %.3f s, %s %.3f s, compute %.3f s, %s %.3f s, check %.3f s, output wait "
              "%.3f s (writer %.3f s)\n",
              r.setup_s, r.backend_on_host ? "initial field" : "upload", r.loop.upload_s, r.loop.compute_s,
              r.backend_on_host ? "final copy" : "download", r.loop.download_s, r.check_s, r.loop.output_wait_s,
              r.loop.writer_s);
  std::printf("  rate      %.3f ms/step, %.3e points/s, %.1f GB/s by the byte model (%.0f B/point/step%s)\n",
              r.ms_per_step(), r.points_per_second(), r.effective_gb_per_s(), r.bytes_per_point,
              p.materials ? ", the material path's: K, 1/K and 1/C read beside the field" : "");
  if (r.stop_signal)
    std::printf("  stopped   by signal %d after step %d (no snapshot at the stop)\n", r.stop_signal, r.final_step);
  if (r.checked) {
    std::printf("  check     %s against %s in double (rtol %g, atol %g): %s\n", r.check.pass() ? "PASS" : "FAIL",
                r.check_backend.c_str(), r.plan.rtol, r.plan.atol, describe(r.check).c_str());
    for (const auto& m : r.check.first_failures)
      std::printf("            failing (%d,%d,%d): %.17g vs %.17g\n", m.i, m.j, m.k, m.value, m.reference);
    if (r.check.failures) std::printf("            %zu points outside the tolerance\n", r.check.failures);
  }
  if (!r.files.empty())
    std::printf("  output    %zu file(s) in %s, last %s, compression %s\n", r.files.size(),
                r.plan.output.directory.c_str(), r.files.back().c_str(), compression_name(r.plan.output.compress).c_str());
  if (!r.monitors_file.empty())
    std::printf("  monitors  %s, every %d steps and at the end, %zu probe(s) (heatrk4 plot %s -o monitors.png)\n",
                r.monitors_file.c_str(), r.plan.monitor_every, r.plan.probes.size(), r.monitors_file.c_str());
  if (r.stale_removal.files || r.stale_removal.seconds > 0)
    std::printf("  replaced  %zu file(s) of the previous run, removed beside the run in %.3f s (waited %.3f s at the "
                "end)\n",
                r.stale_removal.files, r.stale_removal.seconds, r.stale_removal.wait_s);
  std::fflush(stdout);
}

std::string json_summary(const RunReport& r) {
  const Problem& p = r.plan.problem;
  JsonObject problem;
  problem.add("nx", p.grid.nx).add("ny", p.grid.ny).add("nz", p.grid.nz);
  problem.add("hx", p.grid.hx).add("hy", p.grid.hy).add("hz", p.grid.hz);
  problem.add("order", p.order).add("alpha", p.alpha).add("dt", p.dt).add("cfl", r.plan.cfl);
  problem.add("steps", r.plan.steps).add("start_step", r.plan.start_step);
  if (r.plan.t_end) problem.add("t_end", *r.plan.t_end).add("last_step_dt", r.plan.last_step_dt > 0 ? r.plan.last_step_dt : p.dt);
  problem.add("precision", precision_name(r.plan.precision)).add("init", r.plan.init_name);
  problem.add("seed", static_cast<unsigned long long>(r.plan.init.seed));
  problem.add("conductivity", p.conductivity).add("heat_capacity", p.heat_capacity);
  JsonObject boundaries;  // each face's condition as --bc-FACE takes it
  for (int face = 0; face < kFaces; ++face) boundaries.add(face_name(face), boundary_condition_text(p.boundaries[face]));
  problem.add("boundaries", boundaries);
  std::vector<std::string> sources;  // each --source as it reads back
  for (const SourceRecord& source : r.plan.source_records) sources.push_back(source.text);
  problem.add("sources", sources).add("source_power", r.plan.source_power);
  JsonObject materials;  // each material option given, none without material fields
  for (const auto& [name, value] : r.plan.materials.options) materials.add(name, value);
  if (!r.plan.materials.empty()) materials.add("checksum", r.plan.materials.checksum);
  problem.add("materials", materials);
  JsonObject timing;
  timing.add("setup_s", r.setup_s).add("upload_s", r.loop.upload_s).add("compute_s", r.loop.compute_s);
  timing.add("download_s", r.loop.download_s).add("check_s", r.check_s);
  timing.add("output_wait_s", r.loop.output_wait_s).add("writer_s", r.loop.writer_s);
  timing.add("exchange_s", r.exchange_s);
  timing.add("stale_removal_s", r.stale_removal.seconds).add("stale_removal_wait_s", r.stale_removal.wait_s);
  JsonObject setup_phases;
  for (const auto& [phase, seconds] : r.setup_phases) setup_phases.add(phase + "_s", seconds);
  timing.add("setup_phases", setup_phases);
  JsonObject rate;
  rate.add("ms_per_step", r.ms_per_step()).add("points_per_second", r.points_per_second());
  rate.add("bytes_per_point_per_step", r.bytes_per_point).add("effective_gb_per_s", r.effective_gb_per_s());
  rate.add("byte_model", r.plan.problem.materials ? "material fields" : "constant coefficients");
  JsonObject root;
  root.add("problem", problem).add("overrides", r.overrides).add("backend", r.plan.backend)
      .add("backend_note", r.plan.backend_note).add("device", r.device);
  if (!r.lossy_start.empty()) root.add("lossy_start", r.lossy_start);
  if (!r.plan.stored_backend_refused.empty()) root.add("stored_backend_refused", r.plan.stored_backend_refused);
  root.add("ranks", r.ranks);
  if (r.ranks > 1)
    root.add("ranks_grid", r.ranks_grid).add("halo_exchange", r.halo_exchange).add("halo_overlap", r.halo_overlap)
        .add("ghost_planes", r.ghost_planes);
  if (!r.input_bytes_read.empty()) {
    std::vector<long long> per_rank, points_per_rank;
    long long total = 0;
    for (double bytes : r.input_bytes_read) per_rank.push_back((long long)bytes), total += (long long)bytes;
    for (double points : r.input_points_read) points_per_rank.push_back((long long)points);
    JsonObject input;
    input.add("file", r.plan.init_file).add("bytes_read_per_rank", per_rank).add("bytes_read_total", total)
        .add("points_read_per_rank", points_per_rank);
    root.add("input", input);
  }
  root.add("timing", timing).add("rate", rate);
  root.add("final_step", r.final_step).add("final_time", r.final_time);
  JsonObject compression;
  compression.add("codec", compression_name(r.plan.output.compress));
  compression.add("bound", r.plan.output.compress.codec == Codec::ZfpAccuracy ? r.plan.output.compress.bound : 0.0);
  compression.add("snapshots_on_device", r.snapshots_on_device);
  root.add("compression", compression);
  if (r.stop_signal) root.add("stopped_by_signal", r.stop_signal);
  if (r.checked) {
    JsonObject check;
    check.add("pass", r.check.pass()).add("against", r.check_backend).add("rtol", r.plan.rtol).add("atol", r.plan.atol);
    check.add("max_abs", r.check.max_abs).add("max_rel", r.check.max_rel).add("rel_l2", r.check.rel_l2);
    check.add("failures", (long long)r.check.failures);
    check.add("worst_i", r.check.worst.i).add("worst_j", r.check.worst.j).add("worst_k", r.check.worst.k);
    root.add("check", check);
  }
  root.add("files", r.files).add("replaced_files", (long long)r.stale_removal.files);
  if (!r.monitors_file.empty()) {
    JsonObject monitors;
    monitors.add("file", r.monitors_file).add("every", r.plan.monitor_every).add("probes", probes_text(r.plan.probes));
    root.add("monitors", monitors);
  }
  return root.str();
}

void write_json_summary(const RunReport& r, const std::string& path) {
  write_named_output(path, "--json", json_summary(r) + "\n");
}

}  // namespace heat
