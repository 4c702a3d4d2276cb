// heatrk4 [run options]: validate everything, then set up, run, check and report.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include "apps/commands.hpp"
#include "apps/config_file.hpp"
#include "apps/heat_sources.hpp"
#include "apps/end_time_and_monitors.hpp"
#include "apps/initial_field.hpp"
#include "apps/progress.hpp"
#include "apps/restart.hpp"
#include "apps/run_checks.hpp"
#include "apps/run_option_table.hpp"
#include "apps/run_report.hpp"
#include "apps/run_summary.hpp"
#include "apps/run_writer.hpp"
#include "apps/setup_clock.hpp"
#include "apps/stop_signals.hpp"
#include "apps/test_hooks.hpp"
#include "io/input_file.hpp"
#include "parallel/rank_backend.hpp"
#include "parallel/ranks.hpp"
#include "parallel/slab_field.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "backends/cuda/gpu_info.hpp"
#include "backends/cuda/process_gpu.hpp"
#include "backends/cpu/pass_sweep.hpp"
#include "backends/registry.hpp"
#include "check/reference.hpp"

namespace heat {
namespace {

// The ranks of one node share its memory: each asks for its part of what is available.
void require_host_memory(const RunPlan& plan, const BackendEntry& entry, const Slab& slab, const Ranks& ranks) {
  require_host_bytes(run_host_bytes_needed(plan, entry, slab, ranks.is_root()), ranks.local_size(), "this run",
                     std::string("use a smaller grid") + (plan.check ? " or drop --check" : ""));
}

// The rank grid of --ranks-grid for this run's ranks. InputError (exit 2) naming --ranks-grid
// where the fast cpu backend's rows along x would be shorter than its vectors, whose kernels then
// differ from one process's in their bits.
RankGrid run_rank_grid(const RunPlan& plan, const BackendEntry& entry, const Ranks& ranks) {
  const RankGrid grid = rank_grid_for(plan.ranks_grid, ranks, entry, plan.problem);
  if (grid.is_slabs()) return grid;
  const int r = plan.problem.radius();
  const std::string named = "--ranks-grid " + grid.text();
  const std::size_t value = plan.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const int whole_row = plan.problem.grid.nx - 2 * r, row = whole_row / grid.ranks[0];
  const CpuIsa whole_isa = cpu_isa_for_rows(best_cpu_isa(), whole_row, value);
  if (plan.backend == "cpu" && cpu_isa_for_rows(best_cpu_isa(), row, value) != whole_isa)
    throw InputError(named + " leaves rows of " + std::to_string(row) + " points along x, fewer than the " +
                     std::to_string(cpu_isa_lanes(whole_isa, value)) + "-value vectors the cpu backend steps " +
                     std::to_string(whole_row) + " with, whose bits would then differ from one process's: split x "
                     "over fewer ranks");
  return grid;
}

// With --init-file the grid comes from the file; a grid option that says otherwise is an error.
void require_grid_options_agree(const RunOptions& o, const Grid& file) {
  auto clash = [&](const char* option, double given, double from_file) {
    if (o.was_given(option + 2) && given != from_file)
      throw InputError(std::string(option) + " " + number_text(given) + " contradicts " + o.init_file + " (" +
                       number_text(from_file) + "): drop the grid options when restarting from a file");
  };
  clash("--n", o.n, file.nx == file.ny && file.ny == file.nz ? file.nx : -1);
  clash("--nx", o.nx, file.nx);
  clash("--ny", o.ny, file.ny);
  clash("--nz", o.nz, file.nz);
  clash("--h", o.h, file.hx == file.hy && file.hy == file.hz ? file.hx : -1);
  clash("--hx", o.hx, file.hx);
  clash("--hy", o.hy, file.hy);
  clash("--hz", o.hz, file.hz);
}

std::string device_description(const RunPlan& plan, const BackendEntry& entry) {
  if (!entry.uses_cuda) return "host (" + std::to_string(omp_get_max_threads()) + " OpenMP threads)";
  const GpuInfo gpu = query_gpu(plan.backend_options.device);
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s (device %d, compute capability %d.%d, %.1f GiB, %.1f GiB free)", gpu.name.c_str(),
                gpu.device, gpu.cc_major, gpu.cc_minor, gpu.total_bytes / 1073741824.0, gpu.free_bytes / 1073741824.0);
  return buf;
}

// The loop's schedule from the plan, for this rank.
LoopSchedule loop_schedule(const RunPlan& plan, const BackendEntry& entry, const Slab& slab, const Ranks& ranks) {
  LoopSchedule schedule;
  schedule.output_every = plan.output_every;
  // A distributed snapshot waits for every rank's writer, which a writer thread may do only
  // where MPI lets every thread call it.
  schedule.snapshot_buffers = ranks.snapshots_beside_the_loop() ? plan.snapshot_buffers : 0;
  schedule.first_step = plan.start_step;
  schedule.first_plane = slab.box_begin;
  // Only --check reads u after the loop; the loop itself brings the final field back for a final
  // snapshot written from u.
  schedule.final_field_read = plan.check;
  // No host buffer, no copy to the host and back, no page-locking before the first snapshot.
  schedule.snapshots_on_device = snapshots_stay_on_gpu(plan, entry.uses_cuda);
  schedule.monitor_every = plan.monitor_every;
  schedule.last_step_dt = plan.last_step_dt;
  return schedule;
}

// --check (a collective): rank 0 compares the gathered result with the double reference run from
// the same start. True where the check failed on any rank.
template <typename T>
bool check_finds_mismatch(RunReport& report, const Field<T>& u, const Field<double>& start, const Slab& slab,
                          const Ranks& ranks) {
  const RunPlan& plan = report.plan;
  const auto t0 = WallClock::now();
  const Field<T> result = ranks.gather_on_root(u, slab, plan.problem.grid);
  bool mismatch = false;
  if (ranks.is_root()) {
    // The reference takes longer than the run (a cpu run's check, 13 times as long): its steps
    // are shown as the run's are.
    ProgressLine progress("check", !plan.quiet);
    const CheckReference reference = check_reference(
        plan.backend, plan.problem, start, plan.steps,
        [&](int done) { progress.update(done, plan.steps, seconds_since(t0)); }, plan.last_step_dt);
    progress.finish();
    report.check = compare_with_reference(result, reference.field, plan.problem, plan.rtol, plan.atol);
    report.check_backend = reference.backend;
    mismatch = !report.check.pass();
  }
  report.checked = true;
  report.check_s = seconds_since(t0);
  return ranks.on_any_rank(mismatch);
}

// One rank's run after validation: prepare the initial field, make the writer, run the loop,
// check and report.
template <typename T>
int execute(RunReport& report, const BackendEntry& entry, LoadedField& loaded, const Slab& slab, SetupClock& clock,
            MonitorCsv* monitors) {
  const Ranks& ranks = process_ranks();
  const RunPlan& plan = report.plan;
  // NCCL's communicator is made beside the backend's allocation and the field's preparation;
  // connect() waits for it and makes the first connections, so the loop's time holds none of it.
  RankBackend<T> rank = make_rank_backend<T>(ranks, entry, plan.problem, plan.backend_options, slab, plan.gpu_halos);
  clock.mark("backend");  // a CUDA backend's device memory
  auto& backend = rank.backend;
  const bool overlapped = backend->overlaps_exchange();  // asked now: the loop may release the backend
  InitialField<T> initial = prepare_initial_field(plan, *backend, loaded, slab, ranks);
  clock.mark("host_field");
  const std::unique_ptr<SnapshotWriter> writer = make_run_writer(plan, ranks, slab, entry.uses_cuda);
  clock.mark("output_directory");
  if (rank.exchange) {
    start_late_if_asked(ranks.rank());
    rank.connect();
    // Every rank, not only the neighbours: a rank two away that starts late would otherwise hold
    // up the loop's first exchanges, and its wait would count as compute.
    ranks.wait_for_every_rank();
    clock.mark("halo_connect");
  }
  report.setup_s = clock.seconds();

  ProgressLine progress(plan.backend, !plan.quiet && ranks.is_root());
  LoopCallbacks<T> callbacks;
  callbacks.upload = initial.upload;
  callbacks.progress = [&progress](int done, int total, double busy, int pending) {
    progress.update(done, total, busy, pending);
  };
  callbacks.snapshot = snapshot_writes<T>(writer.get(), monitors, plan, ranks, slab);
  // A GPU run gives its device back while its last snapshot is written, instead of after it when
  // the process exits (on 4 ranks of one node their exits took 0.25-0.37 s); ranks once every rank
  // has stepped its last, as a neighbour's exchange reads this rank's memory until then. Kept:
  // NCCL's communicator, which lives on the device until the end, and the device of a run whose
  // GPU encodes its snapshots.
  const bool gpu_encodes = writer && writer->encodes_on_gpu();
  if (entry.uses_cuda && !gpu_encodes && (ranks.size() == 1 || plan.gpu_halos != GpuHaloRoute::Nccl)) {
    callbacks.release_backend = [&] {
      rank.release();
      process_gpu().give_back();
    };
    if (ranks.size() > 1) callbacks.release_agreed = [&ranks](bool here) { return !ranks.on_any_rank(!here); };
  }
  // Every rank stops after the same step, at the signal any of them received.
  callbacks.end_chunk = [&ranks](ChunkEnd end) {
    const auto agreed = ranks.largest({end.seconds, double(stop_signal_received())});
    return ChunkEnd{agreed[0], int(agreed[1])};
  };
  add_test_hooks(callbacks, ranks.rank());
  const LoopOutcome outcome =
      advance(*backend, initial.u, plan.steps, loop_schedule(plan, entry, slab, ranks), callbacks);
  progress.finish();

  record_loop_outcome(report, outcome, ranks, entry, slab, rank.exchange_seconds(), overlapped, writer.get());
  if (monitors) report.monitors_file = monitors->path();
  // A stopped run has no answer to check.
  const bool mismatch =
      plan.check && !outcome.stop_signal && check_finds_mismatch(report, initial.u, initial.check_start, slab, ranks);
  publish_report(report, ranks);
  if (outcome.stop_signal) return exit_code_for_signal(outcome.stop_signal);
  return mismatch ? exit_code::mismatch : exit_code::ok;
}

int run_with_options(const RunOptions& given, RunReport* report_out) {
  const Ranks& ranks = process_ranks();
  const StopSignalScope stop_signals;  // from here a signal stops the run between chunks of steps
  RunReport report;
  SetupClock clock(report);
  LoadedField loaded;
  const BackendEntry* entry = nullptr;
  Slab slab;
  OutputDirectoryLock output_lock;  // held until the run's last file is written
  std::unique_ptr<MonitorCsv> monitors;
  // Every rank validates; bad input on any of them ends all of them with exit 2 before any work.
  ranks.validate_everywhere([&] {
    RunOptions options = with_restart_implied(given);
    const bool from_file = options.init == "file" && !options.init_file.empty();
    if (from_file) {
      loaded = open_initial_field(options.init_file);  // its grid and run state; the values below
      require_grid_options_agree(options, loaded.grid);
      // Said at once on stderr (also under --quiet) and again in the summary.
      TakenSettings taken = take_stored_settings(options);
      report.overrides = std::move(taken.overrides);
      report.lossy_start = std::move(taken.lossy_start);
      for (const auto& line : report.overrides)
        if (ranks.is_root()) std::fprintf(stderr, "heatrk4: note: %s\n", line.c_str());
    }
    clock.mark("input_file");
    report.plan = make_run_plan(options, from_file ? &loaded.grid : nullptr);
    clock.mark("plan");  // with a GPU: the CUDA runtime's start (the first query of the device)
    RunPlan& plan = report.plan;
    if (!plan.stored_backend_refused.empty() && ranks.is_root())
      std::fprintf(stderr, "heatrk4: note: %s\n", plan.stored_backend_refused.c_str());
    if (from_file && loaded.has_run_state) {
      plan.start_step = loaded.step;
      plan.start_time = loaded.time;
      require_final_step_fits(plan.start_step, plan.steps);
    }
    plan_steps_to_end_time(plan);
    plan_monitor_period(plan, options);
    require_usable_derived_values(plan);
    output_lock = require_usable_output_paths(plan, options, from_file && loaded.has_run_state, ranks.is_root());
    monitors = make_run_monitors(plan, ranks.is_root());
    entry = default_registry().find(plan.backend);
    const RankGrid rank_grid = run_rank_grid(plan, *entry, ranks);
    if (entry->uses_cuda) {
      plan.gpu_halos = ranks.gpu_route(plan.asked_gpu_halos, neighbouring_ranks(rank_grid, z_periodic(plan.problem)));
      clock.mark("gpu_route");  // on ranks: whether the ranks' GPUs reach each other as peers
      plan.backend_options.device = ranks.select_gpu(plan.backend_options.device, plan.gpu_halos);
      clock.mark("gpu_select");
    } else {
      process_gpu().give_back();  // a context a rank started early, in case the run took a GPU
    }
    slab = rank_slab(ranks, *entry, plan.problem, snapshot_part_alignment(plan.output), rank_grid);
    require_planes_for_every_rank(plan, slab);
    require_host_memory(plan, *entry, slab, ranks);
    add_heat_source(plan, options);
    clock.mark("heat_source");
    // Each rank reads its box of the file alone.
    if (from_file) read_initial_box(loaded, options.init_file, options.init_array, box_source_runs(slab, loaded.grid));
    if (from_file && any_radiation(plan.problem.boundaries) && !loaded.values.values().empty()) {
      // This rank's box: a rank whose box makes a face unstable ends every rank (exit 2).
      const auto hottest = std::max_element(loaded.values.values().begin(), loaded.values.values().end());
      require_stable_at_faces(plan.problem, plan.cfl, options.allow_unstable,
                              "the step (cfl " + number_text(plan.cfl) + ")", *hottest);
    }
    require_zfp_bound_holds(plan, slab, loaded);
    report.device = device_description(plan, *entry);
  });
  const RunPlan& plan = report.plan;
  const std::size_t value = plan.precision == Precision::Float ? sizeof(float) : sizeof(double);
  report.bytes_per_point = entry->bytes_per_point(plan.problem, value);
  report.backend_on_host = !entry->uses_cuda;
  if (plan.init.kind == InitKind::File) record_input_read(report, ranks, loaded.bytes_read, loaded.points_read);
  clock.mark("device_query");

  const int code = plan.precision == Precision::Float
                       ? execute<float>(report, *entry, loaded, slab, clock, monitors.get())
                       : execute<double>(report, *entry, loaded, slab, clock, monitors.get());
  if (report_out) *report_out = report;
  return code;
}

}  // namespace

int run_options(const RunOptions& options, RunReport* report_out) {
  try {
    return run_with_options(options, report_out);
  } catch (const InputError& e) {
    throw InputError(with_config_origin(options, e.what()));
  }
}

std::shared_ptr<const RunOptions> add_run_command(CLI::App& app, CommandAction& action, RunReport* report_out) {
  auto options = std::make_shared<RunOptions>();
  add_run_options(app, *options);
  app.get_option("--config")->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  // run is the default: the top-level callback fires after parsing; a subcommand's own
  // callback runs first and sets the action, so only set it when none was chosen.
  app.callback([&app, &action, options, report_out] {
    if (action) return;
    if (const std::size_t files = app.count("--config"); files > 1)
      throw InputError("--config is given " + std::to_string(files) + " times: give one file");
    record_given_options(app, *options);
    if (options->was_given("config")) read_config_file(*options);
    action = [options, report_out] { return run_options(*options, report_out); };
  });
  app.add_subcommand("run", "run a simulation (the default; the options above apply)")->fallthrough();
  return options;
}

}  // namespace heat
