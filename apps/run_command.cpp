// heatrk4 [run options]: validate everything, then set up, run, check and report.
#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "apps/commands.hpp"
#include "apps/progress.hpp"
#include "apps/rank_backend.hpp"
#include "apps/ranks.hpp"
#include "apps/restart.hpp"
#include "apps/run_checks.hpp"
#include "apps/run_summary.hpp"
#include "apps/stop_signals.hpp"
#include "io/input_file.hpp"
#include "solver/distributed/slab_field.hpp"
#include "solver/errors.hpp"
#include "solver/cuda/gpu_info.hpp"
#include "solver/registry.hpp"
#include "validation/reference.hpp"
#include "validation/shell_quote.hpp"

namespace heat {
namespace {

// Seconds since this process started (/proc/self/stat's start time, in clock ticks since boot).
double seconds_since_process_start() {
  std::ifstream stat("/proc/self/stat"), uptime("/proc/uptime");
  std::string field;
  double up = 0;
  if (!std::getline(stat, field) || !(uptime >> up)) return 0;
  // Field 22 counts from the one after the command name, which may hold spaces: ") " ends it.
  std::istringstream rest(field.substr(field.rfind(") ") + 2));
  unsigned long long ticks = 0;
  for (int n = 3; n <= 22 && rest >> field; ++n) ticks = n == 22 ? std::stoull(field) : 0;
  return up - double(ticks) / double(sysconf(_SC_CLK_TCK));
}

// Marks the end of each set-up phase with the seconds it took.
class SetupClock {
 public:
  explicit SetupClock(RunReport& report) : report_(report), last_(std::chrono::steady_clock::now()) {
    report_.setup_phases.emplace_back("process_start_to_run", seconds_since_process_start());
  }
  void mark(const char* phase) {
    const auto now = std::chrono::steady_clock::now();
    report_.setup_phases.emplace_back(phase, std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

 private:
  RunReport& report_;
  std::chrono::steady_clock::time_point last_;
};

// Host memory one rank needs: its box of the field, the snapshot buffers, the cpu backend's
// working arrays when it runs on the host, a file's values (read whole, held in double), and for
// --check on rank 0 the whole field gathered and the double reference's. The ranks of one node
// share its memory: each asks for its part of what is available.
std::size_t host_bytes_needed(const RunPlan& plan, const BackendEntry& entry, const Slab& slab, bool root) {
  const std::size_t n = plan.problem.grid.points();
  Problem box_problem = plan.problem;
  box_problem.grid = slab.box_grid(plan.problem.grid);
  const std::size_t box = box_problem.grid.points();
  const std::size_t value = plan.precision == Precision::Float ? sizeof(float) : sizeof(double);
  std::size_t bytes = box * value;
  if (plan.output_every > 0) bytes += std::size_t(plan.snapshot_buffers) * box * value;
  if (plan.init.kind == InitKind::File) bytes += n * (sizeof(double) + value);
  if (!entry.uses_cuda) bytes += entry.working_bytes(box_problem, value);
  if (plan.check && root)
    bytes += n * (value + sizeof(double)) + default_registry().find("cpu")->working_bytes(plan.problem, sizeof(double));
  return bytes;
}

void require_host_memory(const RunPlan& plan, const BackendEntry& entry, const Slab& slab, const Ranks& ranks) {
  require_host_bytes(host_bytes_needed(plan, entry, slab, ranks.is_root()), ranks.local_size(), "this run",
                     std::string("use a smaller grid") + (plan.check ? " or drop --check" : ""));
}

// With --init-file the grid comes from the file; a grid option that says otherwise is an error.
void require_grid_options_agree(const CLI::App& app, const RunOptions& o, const Grid& file) {
  auto clash = [&](const char* option, double given, double from_file) {
    if (app.count(option) && given != from_file)
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
  std::snprintf(buf, sizeof buf, "%s (device %d, compute capability %d.%d, %.1f GiB, %.1f GiB free)",
                gpu.name.c_str(), gpu.device, gpu.cc_major, gpu.cc_minor, gpu.total_bytes / 1073741824.0,
                gpu.free_bytes / 1073741824.0);
  return buf;
}

// Test-only: HEATRK4_TEST_WRITE_DELAY_MS=N makes every snapshot write N ms slower, so a test can
// show that a writer slower than the loop holds the loop back without losing or reordering snapshots.
std::chrono::milliseconds test_write_delay() {
  const char* value = std::getenv("HEATRK4_TEST_WRITE_DELAY_MS");
  return std::chrono::milliseconds(value ? std::atoi(value) : 0);
}

// The process's own argv as one shell-quoted line, for the snapshots to record how they were
// made (CLI11 does not keep the arguments it parsed; Linux keeps them here).
std::string command_line_text() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string text, argument;
  while (std::getline(in, argument, '\0')) text += (text.empty() ? "" : " ") + shell_word(argument);
  return text;
}

// Every rank's part of the grid, in rank order, for the snapshot that maps their slab files.
std::vector<std::pair<int, int>> parts_of_every_rank(const Problem& p, int ranks, GhostScheme scheme) {
  std::vector<std::pair<int, int>> parts;
  for (int rank = 0; rank < ranks; ++rank) {
    const Slab s = decompose(p.grid, p.order, ranks, rank, scheme);
    parts.emplace_back(s.part_begin, s.part_end);
  }
  return parts;
}

// Test hook: HEATRK4_TEST_FAIL_RANK=R makes rank R fail after its first chunk of steps, as a
// CUDA or I/O error on one rank would, so the tests can show that the whole job then ends.
bool fails_for_test(const Ranks& ranks) {
  const char* rank = std::getenv("HEATRK4_TEST_FAIL_RANK");
  return rank && std::atoi(rank) == ranks.rank();
}

template <typename T>
int execute(RunReport& report, const BackendEntry& entry, LoadedField& loaded, const Slab& slab,
            std::chrono::steady_clock::time_point start, SetupClock& clock) {
  const Ranks& ranks = process_ranks();
  const RunPlan& plan = report.plan;
  auto exchange = ranks.make_halo_exchange<T>(slab, plan.problem.grid, entry.uses_cuda, plan.gpu_halos);
  auto backend = make_rank_backend<T>(entry, plan.problem, plan.backend_options, slab, *exchange);
  clock.mark("backend");  // a CUDA backend's device memory
  // A generated field is made by the backend, each rank its own box (on the GPU: nothing to
  // upload); u then only receives downloads: zeroed here by every OpenMP thread, so its pages are
  // not first touched one by one inside the driver's copy of the final field. A file's values
  // (held in double, which float data widens to exactly) are read whole and each rank uploads its box.
  const bool from_file = plan.init.kind == InitKind::File;
  const Planes box{slab.box_begin, slab.box_planes()};
  Field<T> u;
  Field<double> check_start;  // --check starts the double reference from the very field the backend starts from
  if (!from_file) {
    u = Field<T>(slab.box_grid(plan.problem.grid));
    if (plan.check) {
      backend->upload_generated(plan.problem.grid, plan.init, box);
      backend->download(u);
      const Field<T> whole = ranks.gather_on_root(u, slab, plan.problem.grid);
      if (ranks.is_root()) check_start = field_cast<double>(whole);
    }
  } else {
    Field<T> whole = field_cast<T>(loaded.values);
    loaded.values = Field<double>();
    if (plan.check && ranks.is_root()) check_start = field_cast<double>(whole);
    u = take_box(std::move(whole), slab);
  }
  clock.mark("host_field");

  std::unique_ptr<SnapshotWriter> writer;
  if (plan.output.format != OutputFormat::None) {
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
    run.command_line = command_line_text();
    run.run_id = ranks.same_on_every_rank(new_run_id());
    SnapshotShare share;
    share.rank = ranks.rank();
    share.ranks = ranks.size();
    share.box_begin = slab.box_begin;
    share.parts = parts_of_every_rank(plan.problem, ranks.size(), ghost_scheme_of(entry));
    share.wait_for_every_rank = [&ranks] { ranks.wait_for_every_snapshot_writer(); };
    writer = std::make_unique<SnapshotWriter>(plan.output, run, share);
  }
  clock.mark("output_directory");
  report.setup_s = seconds_since(start);

  ProgressLine progress(plan.backend, !plan.quiet && ranks.is_root());
  LoopHooks<T> hooks;
  const bool fail_for_test = fails_for_test(ranks);
  hooks.progress = [&](int done, int total, double busy, int pending) {
    if (fail_for_test) throw RunError("test hook HEATRK4_TEST_FAIL_RANK: failing after step " + std::to_string(done));
    progress.update(done, total, busy, pending);
  };
  // Under --check the backend made its field already (for the reference's copy): nothing to upload.
  if (!from_file)
    hooks.upload = [&](Backend<T>& b) {
      if (!plan.check) b.upload_generated(plan.problem.grid, plan.init, box);
    };
  // One GPU rank gives its device back while its last snapshot is written, instead of after it
  // when the process exits. Ranks keep theirs: NCCL's communicator lives on it until the end.
  if (entry.uses_cuda && ranks.size() == 1)
    hooks.release_backend = [&] {
      backend.reset();
      release_device(plan.backend_options.device);
    };
  hooks.output_every = plan.output_every;
  // A distributed snapshot waits for every rank's writer, which a writer thread may do only
  // where MPI lets every thread call it.
  hooks.snapshot_buffers = ranks.snapshots_beside_the_loop() ? plan.snapshot_buffers : 0;
  const auto write_delay = test_write_delay();
  hooks.first_step = plan.start_step;
  hooks.first_plane = slab.box_begin;
  if (writer)
    hooks.snapshot = [&](const Field<T>& field, int done) {
      std::this_thread::sleep_for(write_delay);
      writer->write(field, plan.start_step + done, plan.start_time + done * plan.problem.dt);
    };
  // Every rank stops after the same step, at the signal any of them received.
  hooks.end_chunk = [&ranks](ChunkEnd end) {
    const auto agreed = ranks.largest({end.seconds, double(stop_signal_received())});
    return ChunkEnd{agreed[0], int(agreed[1])};
  };
  const LoopOutcome outcome = run_time_loop(*backend, u, plan.steps, hooks);
  report.loop = outcome.timings;
  report.stop_signal = outcome.stop_signal;
  progress.finish();
  report.ranks = ranks.size();
  report.ghost_planes = slab.ghost;
  report.halo_exchange = !entry.uses_cuda ? "mpi" : plan.gpu_halos == GpuHaloRoute::Nccl ? "nccl" : "host";
  report.exchange_s = ranks.slowest(exchange->seconds_spent());
  for (double* t : {&report.loop.upload_s, &report.loop.compute_s, &report.loop.download_s, &report.loop.output_wait_s,
                    &report.loop.writer_s})
    *t = ranks.slowest(*t);
  if (writer) report.files = writer->files();
  report.final_step = plan.start_step + outcome.steps_done;
  report.final_time = plan.start_time + outcome.steps_done * plan.problem.dt;

  bool mismatch = false;
  if (plan.check && !outcome.stop_signal) {  // a stopped run has no answer to check
    const auto t0 = std::chrono::steady_clock::now();
    const Field<T> result = ranks.gather_on_root(u, slab, plan.problem.grid);
    if (ranks.is_root()) {
      const CheckReference reference = check_reference(plan.backend, plan.problem, check_start, plan.steps);
      report.check = compare_fields(result, reference.field, plan.rtol, plan.atol);
      report.check_backend = reference.backend;
      mismatch = !report.check.pass();
    }
    report.checked = true;
    report.check_s = seconds_since(t0);
    // Every rank exits with the check's verdict.
    mismatch = ranks.on_any_rank(mismatch);
  }
  if (ranks.is_root()) {
    if (!plan.quiet) print_summary(report);
    if (!plan.json.empty()) write_json_summary(report, plan.json);
  }
  if (outcome.stop_signal) return exit_code_for_signal(outcome.stop_signal);
  return mismatch ? exit_code::mismatch : exit_code::ok;
}

int run(const CLI::App& app, const RunOptions& given) {
  const auto start = std::chrono::steady_clock::now();
  const Ranks& ranks = process_ranks();
  const StopSignalScope stop_signals;  // from here a signal stops the run between chunks of steps
  RunReport report;
  SetupClock clock(report);
  LoadedField loaded;
  const BackendEntry* entry = nullptr;
  Slab slab;
  OutputDirectoryLock output_lock;  // held until the run's last file is written
  // Every rank validates; bad input on any of them ends all of them with exit 2 before any work.
  ranks.validate_everywhere([&] {
    RunOptions options = with_restart_implied(app, given);
    const bool from_file = options.init == "file" && !options.init_file.empty();
    if (from_file) {
      loaded = read_initial_field(options.init_file, options.init_array);
      require_grid_options_agree(app, options, loaded.grid);
      // Said at once on stderr (also under --quiet) and again in the summary.
      report.overrides = take_stored_settings(app, options);
      for (const auto& line : report.overrides)
        if (ranks.is_root()) std::fprintf(stderr, "heatrk4: note: %s\n", line.c_str());
    }
    clock.mark("input_file");
    report.plan = make_run_plan(options, from_file ? &loaded.grid : nullptr);
    clock.mark("plan");  // with a GPU: the CUDA runtime's start (the first query of the device)
    RunPlan& plan = report.plan;
    if (from_file && loaded.has_run_state) {
      plan.start_step = loaded.step;
      plan.start_time = loaded.time;
      require_final_step_fits(plan.start_step, plan.steps);
    }
    require_usable_derived_values(plan);
    output_lock = require_usable_output_paths(plan, app, options, ranks.is_root());
    entry = default_registry().find(plan.backend);
    if (entry->uses_cuda) plan.backend_options.device = ranks.select_gpu(plan.backend_options.device, plan.gpu_halos);
    slab = decompose(plan.problem.grid, plan.problem.order, ranks.size(), ranks.rank(), ghost_scheme_of(*entry));
    require_host_memory(plan, *entry, slab, ranks);
    report.device = device_description(plan, *entry);
  });
  const RunPlan& plan = report.plan;
  const std::size_t value = plan.precision == Precision::Float ? sizeof(float) : sizeof(double);
  report.bytes_per_point = entry->bytes_per_point(plan.problem, value);
  report.backend_on_host = !entry->uses_cuda;
  clock.mark("device_query");

  return plan.precision == Precision::Float ? execute<float>(report, *entry, loaded, slab, start, clock)
                                            : execute<double>(report, *entry, loaded, slab, start, clock);
}

}  // namespace

void add_run_command(CLI::App& app, CommandAction& action) {
  auto options = std::make_shared<RunOptions>();
  add_run_options(app, *options);
  // run is the default: the top-level callback fires after parsing; a subcommand's own
  // callback runs first and sets the action, so only set it when none was chosen.
  app.callback([&app, &action, options] {
    if (!action) action = [&app, options] { return run(app, *options); };
  });
  app.add_subcommand("run", "run a simulation (the default; the options above apply)")->fallthrough();
}

}  // namespace heat
