#include "apps/run_writer.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "io/output_paths.hpp"
#include "io/series_files.hpp"
#include "io/snapshot_formats.hpp"
#include "io/zfp/gpu_zfp_encoder.hpp"
#include "check/shell_quote.hpp"

namespace heat {
namespace {

// The process's own argv as one shell-quoted line, for the snapshots to record how they were
// made (CLI11 does not keep the arguments it parsed; Linux keeps them here).
std::string command_line_text() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string text, argument;
  while (std::getline(in, argument, '\0')) text += (text.empty() ? "" : " ") + shell_word(argument);
  return text;
}

RunDescription describe_run(const RunPlan& plan, const Ranks& ranks) {
  RunDescription run;
  run.problem = plan.problem;
  run.backend = plan.backend;
  run.precision = precision_name(plan.precision);
  run.init = plan.init_name;
  run.seed = plan.init.seed;
  run.init_file = plan.init_file;
  run.cfl = plan.cfl;
  run.total_steps = plan.steps;
  run.start_step = plan.start_step;
  run.start_time = plan.start_time;
  run.output_every = plan.output_every;
  run.formats = output_formats_name(plan.output.formats);
  run.sources = plan.source_records;
  run.materials = plan.materials;
  run.command_line = command_line_text();
  run.run_id = ranks.same_on_every_rank(new_run_id());
  run.t_end = plan.t_end;
  run.end_step = plan.start_step + plan.steps;
  run.last_step_dt = plan.last_step_dt;
  run.probes = probes_text(plan.probes);
  run.monitor_every = plan.monitor_every;
  return run;
}

SnapshotShare share_of_rank(const RunPlan& plan, const Ranks& ranks, const Slab& slab) {
  const Grid& grid = plan.problem.grid;
  SnapshotShare share;
  share.rank = ranks.rank();
  share.ranks = ranks.size();
  for (int rank = 0; rank < ranks.size(); ++rank) {
    const Slab s = slab_of_rank(slab, grid, rank);
    share.boxes.parts.push_back({{s.x.part_begin, s.y.part_begin, s.part_begin}, {s.x.part_end, s.y.part_end, s.part_end}});
  }
  share.boxes.field_begin = {slab.x.box_begin, slab.y.box_begin, slab.box_begin};
  share.written_as_planes = formats_written_as_planes(plan, slab);
  if (!share.written_as_planes.empty()) {
    const auto runs = snapshot_planes_of_ranks(slab, grid);
    for (const auto& [begin, end] : runs) share.planes.parts.push_back({{0, 0, begin}, {grid.nx, grid.ny, end}});
    share.planes.field_begin = {0, 0, runs[std::size_t(ranks.rank())].first};
  }
  share.wait_for_every_rank = [&ranks] { ranks.wait_for_every_snapshot_writer(); };
  share.pass_down = [&ranks](const void* to_lower, void* from_upper, std::size_t bytes) {
    ranks.pass_down_between_snapshot_writers(to_lower, from_upper, bytes);
  };
  return share;
}

}  // namespace

OutputFormats formats_of_the_start_file(const RunPlan& plan) {
  OutputFormats start_file;
  if (plan.init.kind != InitKind::File) return start_file;
  for (const SnapshotFormat& format : kFormats) {
    if (!plan.output.formats.has(format.format)) continue;
    const std::string first = (std::filesystem::path(plan.output.directory) /
                               snapshot_name(plan.start_step, format.extension)).string();
    if (same_path(first, plan.init_file)) start_file.add(format.format);
  }
  return start_file;
}

OutputFormats formats_written_as_planes(const RunPlan& plan, const Slab& slab) {
  OutputFormats as_planes;
  if (slab.is_slab()) return as_planes;
  const bool lossy_zfp = snapshot_part_alignment(plan.output) > 1;
  for (const SnapshotFormat& format : kFormats)
    if (plan.output.formats.has(format.format) &&
        (format.pieces_share_a_plane || (format.format == OutputFormat::Hdf5 && lossy_zfp)))
      as_planes.add(format.format);
  return as_planes;
}

void require_planes_for_every_rank(const RunPlan& plan, const Slab& slab) {
  if (!formats_written_as_planes(plan, slab).empty() || (!slab.is_slab() && plan.monitor_every > 0))
    snapshot_planes_of_ranks(slab, plan.problem.grid);
}

namespace {

// The monitors' shares of this rank's planes: its part's of its box on z slabs, whose ghost planes
// hold the r planes a temperature z face reads inward; else of its run of whole planes
// (snapshot_planes_of_ranks), regrouped with r planes beside it each way for the same reason. Each
// plane's share is then taken whole, in one process's order, whatever the rank grid.
template <typename T>
std::vector<double> plane_shares_of_rank(const RunPlan& plan, const Ranks& ranks, const Slab& slab, const Field<T>& box) {
  const Problem& p = plan.problem;
  if (slab.is_slab()) return measure_plane_shares(p, box.data(), slab.box_begin, slab.part_begin, slab.part_end, plan.probes);
  const int r = p.radius(), nz = p.grid.nz;
  const std::vector<std::pair<int, int>> runs = snapshot_planes_of_ranks(slab, p.grid);
  std::vector<std::pair<int, int>> with_sides;
  for (const auto& [begin, end] : runs) with_sides.emplace_back(std::max(0, begin - r), std::min(nz, end + r));
  const Field<T> planes = ranks.planes_between_snapshot_writers(box, slab, p.grid, with_sides);
  const auto [first, last] = runs[std::size_t(ranks.rank())];
  return measure_plane_shares(p, planes.data(), with_sides[std::size_t(ranks.rank())].first, first, last, plan.probes);
}

}  // namespace

template <typename T>
std::optional<MonitorValues> measure_on_ranks(const RunPlan& plan, const Ranks& ranks, const Slab& slab,
                                              const Field<T>& box) {
  const std::vector<double> every_plane =
      ranks.gather_between_snapshot_writers(plane_shares_of_rank(plan, ranks, slab, box));
  if (!ranks.is_root()) return std::nullopt;
  return combine_plane_shares(plan.problem, every_plane, plan.probes.size());
}

template std::optional<MonitorValues> measure_on_ranks(const RunPlan&, const Ranks&, const Slab&, const Field<float>&);
template std::optional<MonitorValues> measure_on_ranks(const RunPlan&, const Ranks&, const Slab&, const Field<double>&);

std::unique_ptr<MonitorCsv> make_run_monitors(const RunPlan& plan, bool root) {
  if (plan.monitor_every == 0 || !root) return nullptr;
  const std::string path = (std::filesystem::path(plan.output.directory) / kMonitorFileName).string();
  const std::string header = monitor_csv_header(plan.probes);
  // Only the rows of the run the start snapshot continues: a monitors.csv its run did not write is
  // another run's, which the first row replaces.
  const bool continues = plan.start_step > 0 && !plan.output.replace_series && plan.monitors_continue;
  const std::string kept = continues ? monitor_rows_kept(path, header, plan.start_step) : "";
  return std::make_unique<MonitorCsv>(path, kept.empty() ? header : kept);
}

std::unique_ptr<SnapshotWriter> make_run_writer(const RunPlan& plan, const Ranks& ranks, const Slab& slab,
                                                bool uses_cuda) {
  if (plan.output.formats.empty()) return nullptr;
  return std::make_unique<SnapshotWriter>(
      plan.output, describe_run(plan, ranks), share_of_rank(plan, ranks, slab),
      gpu_encodes_snapshots(plan, uses_cuda) ? make_gpu_zfp_encoder(plan.backend_options.device) : nullptr);
}

}  // namespace heat
