// heatrk4 verify: every backend x order x precision against the double cpu reference, then every
// backend x boundary case x precision on a small grid.
#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "apps/commands.hpp"
#include "apps/material_fields.hpp"
#include "apps/run_checks.hpp"
#include "apps/run_options.hpp"
#include "parallel/rank_backend.hpp"
#include "parallel/rank_grid.hpp"
#include "parallel/ranks.hpp"
#include "parallel/slab_field.hpp"
#include "core/errors.hpp"
#include "core/ghost_exchange.hpp"
#include "backends/cuda/gpu_info.hpp"
#include "core/grid_limits.hpp"
#include "core/materials.hpp"
#include "core/number_text.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"
#include "backends/cpu/source_step.hpp"
#include "check/boundary_cases.hpp"
#include "check/material_cases.hpp"
#include "check/reference.hpp"

namespace heat {
namespace {

constexpr Precision kPrecisions[] = {Precision::Float, Precision::Double};

struct VerifyOptions {
  int n = 64;
  int steps = 10;
  double cfl = 0.05;
  bool allow_unstable = false;
  int device = 0;
  unsigned long long seed = 42;
  std::string halo_exchange = "auto";
  std::string ranks_grid = "slabs";
};

// How every case runs on the ranks: the backends' options, GPU ranks' route and --ranks-grid.
struct CaseRanks {
  BackendOptions options;
  GpuHaloRoute route{};
  RankGridChoice grid;
};

// A case's verdict: on rank 0 its difference from the reference; on every rank, where the ranks
// refused the case (a grid too thin for its ghost points, a backend that cannot step it on ranks),
// why.
struct CaseResult {
  FieldDifference d;
  std::string refused;
};

// printf on rank 0 alone, so that the tables are printed once.
template <typename... Values>
void say(const char* format, Values... values) {
  if (process_ranks().is_root()) std::printf(format, values...);
}

// Every pair of `count` ranks: the neighbours any case may have, since each resolves its own rank
// grid (auto's depends on the backend) and some wrap z.
std::vector<std::pair<int, int>> every_pair_of_ranks(int count) {
  std::vector<std::pair<int, int>> pairs;
  for (int lower = 0; lower < count; ++lower)
    for (int upper = lower + 1; upper < count; ++upper) pairs.emplace_back(lower, upper);
  return pairs;
}

// This rank's slab of `problem` for `entry`'s backend on the rank grid of `choice`.
Slab case_slab(const Ranks& ranks, const BackendEntry& entry, const Problem& problem, const RankGridChoice& choice) {
  return rank_slab(ranks, entry, problem, 1, rank_grid_for(choice, ranks, entry, problem));
}

// One case on every rank: the backend steps this rank's box of the field (the whole grid on one
// rank), filling its faces' ghosts as a run's box does (box_problem), and rank 0 compares the
// gathered whole field with the cpu reference in double (its verdict is rank 0's alone).
template <typename T>
CaseResult check_case(const BackendEntry& entry, const Problem& problem, const Field<double>& initial, int steps,
                      const CaseRanks& how) {
  const Ranks& ranks = process_ranks();
  Slab slab;
  RankBackend<T> rank;
  try {
    // What refuses the case on one rank refuses it on every rank, and all skip it together.
    ranks.validate_everywhere([&] {
      slab = case_slab(ranks, entry, problem, how.grid);
      rank = make_rank_backend<T>(ranks, entry, problem, how.options, slab, how.route);
    });
  } catch (const InputError& e) {
    return CaseResult{FieldDifference{}, e.what()};
  }
  rank.connect();
  auto& backend = rank.backend;
  const Field<T> start = field_cast<T>(initial);
  Field<T> u = box_of(start, slab);
  LoopSchedule schedule;
  schedule.first_plane = slab.box_begin;
  try {
    advance(*backend, u, steps, schedule);
  } catch (const RunError& e) {
    // A blow-up ends verify (on several ranks every rank must stop); the message names the case.
    const Precision precision = sizeof(T) == sizeof(float) ? Precision::Float : Precision::Double;
    throw RunError(entry.name + " order " + std::to_string(problem.order) + " " + precision_name(precision) + ": " +
                   e.what());
  }
  const Field<T> result = ranks.gather_on_root(u, slab, problem.grid);
  if (!ranks.is_root()) return CaseResult{};
  const double tol = default_tolerance<T>();
  return CaseResult{
      compare_with_reference(result, cpu_reference(problem, field_cast<double>(start), steps), problem, tol, tol), ""};
}

CaseResult check_case_in(Precision precision, const BackendEntry& entry, const Problem& problem,
                         const Field<double>& initial, int steps, const CaseRanks& how) {
  return precision == Precision::Float ? check_case<float>(entry, problem, initial, steps, how)
                                       : check_case<double>(entry, problem, initial, steps, how);
}

// Host memory one rank needs at most, in the double cases: the random field, its copy in the
// case's precision, this rank's box and the cpu backend's working arrays for it, and on rank 0
// the gathered result and the cpu reference's start, working arrays and result.
std::size_t verify_host_bytes_needed(const Grid& grid, const Slab& slab, bool root) {
  const BackendEntry& cpu = *default_registry().find("cpu");
  Problem whole;
  whole.grid = grid;
  Problem box = whole;
  box.grid = slab.box_grid(grid);
  const std::size_t value = sizeof(double);
  std::size_t bytes = 2 * grid.points() * value + box.grid.points() * value + cpu.working_bytes(box, value);
  if (root) bytes += 3 * grid.points() * value + cpu.working_bytes(whole, value);
  return bytes;
}

// The worst of a condition case's orders that ran: a failing one before any that passes, then the
// largest max abs; and the orders the ranks refused, with the first one's reason.
struct WorstOrder {
  FieldDifference d;
  int order = 0;  // 0: none ran
  std::string refused_orders, refused_reason;
  void keep(const CaseResult& candidate, int candidate_order) {
    if (!candidate.refused.empty()) {
      refused_orders += (refused_orders.empty() ? "" : ",") + std::to_string(candidate_order);
      if (refused_reason.empty()) refused_reason = candidate.refused;
      return;
    }
    const FieldDifference& c = candidate.d;
    const bool worse = order == 0 || (!c.pass() && d.pass()) || (c.pass() == d.pass() && c.max_abs > d.max_abs);
    if (worse) d = c, order = candidate_order;
  }
};

// The condition rows' grid: 21 x 17 x 19 points with unequal spacings, each axis 3r + 1 points or
// more at order 8. With GPU ranks, an axis the rank grid splits over s ranks (z over every rank on
// slabs) gets 16 s + 8 points or more, so that each box holds the widest scheme's ghosts (4r at
// order 8) and the GPU rows run at every order instead of being refused; cpu ranks' boxes need
// only r, so without a GPU the grid stays small.
Grid condition_grid(const CaseRanks& how, int ranks, bool gpu_ranks) {
  Grid grid{21, 17, 19};
  if (gpu_ranks && ranks > 1) {
    std::array<int, 3> splits{1, 1, ranks};
    if (how.grid.kind == RankGridChoice::Kind::Given) splits = how.grid.given.ranks;
    constexpr int kRadius = 4;
    const int ghost = ghost_planes(GhostScheme::PerStep, kRadius);
    int* const points[3] = {&grid.nx, &grid.ny, &grid.nz};
    for (int axis = 0; axis < 3; ++axis)
      if (const int s = splits[std::size_t(axis)]; s > 1) *points[axis] = std::max(*points[axis], s * ghost + 2 * kRadius);
  }
  return grid;
}

// Each boundary case (check/boundary_cases.hpp) of every backend that runs here, each precision
// at every order, on a small grid with unequal spacings (every axis 3r + 1 points or more at
// order 8): a row per backend, case and precision, with its worst order (radiation_case's on
// radiating_field, GPU ranks' refused with the reason); then each source case
// with a random heat source, for every backend that adds one; then each source case with each
// material case (check/material_cases.hpp: random smooth and random piecewise K and C) for every
// backend that steps material fields, at --cfl or 0.9 of the materials' stable limit, whichever
// is smaller. On ranks each box fills its own faces (box_problem) on the rank grid of --ranks-grid;
// an order the ranks refuse is named beside its row, and a row whose every order they refuse is
// skipped with the reason.
void check_conditions(const VerifyOptions& o, const CaseRanks& how, int& passed, int& failed, int& skipped) {
  Grid grid = condition_grid(how, process_ranks().size(), query_gpu(how.options.device).available);
  grid.hx = 1.0 / (grid.nx - 1);
  grid.hy = 1.0 / (grid.ny - 1);
  grid.hz = 1.0 / (grid.nz - 1);
  const Field<double> initial = randn_field(grid, o.seed), radiating = radiating_field(initial);
  // A source that adds about 1 to u over the run, the random field's own size, so that its part
  // shows in every digit compared: a rate q/C of 1 / (dt steps), give or take half.
  const Problem material;
  const double heating = material.heat_capacity / (dt_from_cfl(grid, material.alpha, o.cfl) * o.steps);
  const Field<double> q = random_source(grid, heating, 0.5 * heating, o.seed + 1);
  const bool has_gpu = query_gpu(how.options.device).available;
  say("conditions: %d x %d x %d points, each of orders 2 to 8, the worst shown\n", grid.nx, grid.ny, grid.nz);
  say("%-13s %-28s %-9s %-6s %11s %11s %11s  %s\n", "backend", "faces", "precision", "result", "max abs",
              "max rel", "rel L2", "order (i,j,k)");
  const std::vector<MaterialCase> materials = material_cases(grid, o.seed + 2);
  // One row: `faces` at every order in `precision`, with the random source where `heated`, in the
  // fields of `fields` where not null.
  const auto check_faces = [&](const BackendEntry& entry, const BoundaryCase& faces, bool heated, Precision precision,
                               const MaterialCase* fields = nullptr) {
    WorstOrder worst;
    const bool radiates = any_radiation(faces.faces);
    for (int order : {2, 4, 6, 8}) {
      Problem problem;
      problem.grid = grid;
      problem.order = order;
      problem.boundaries = faces.faces;
      problem.dt = dt_from_cfl(grid, problem.alpha, o.cfl);
      if (fields) {
        problem.materials = make_materials(problem, fields->conductivity, fields->heat_capacity);
        problem.alpha = largest_diffusivity(problem, *problem.materials);
        problem.dt = dt_from_cfl(grid, problem.alpha, std::min(o.cfl, 0.9 * material_cfl_limit(problem)));
      }
      // With material fields the rate q/C adds about 1 where C is 1, their background.
      const double per_step = 1.0 / (problem.dt * o.steps);
      if (heated)
        problem.source =
            make_heat_source(problem, fields ? random_source(grid, per_step, 0.5 * per_step, o.seed + 1) : q);
      worst.keep(check_case_in(precision, entry, problem, radiates ? radiating : initial, o.steps, how), order);
    }
    const FieldDifference& d = worst.d;
    const std::string name =
        std::string(faces.name) + (heated ? "+source" : "") + (fields ? std::string("+") + fields->name : "");
    if (worst.order == 0) {
      say("%-13s %-28s %-9s %-6s %s\n", entry.name.c_str(), name.c_str(), precision_name(precision), "skip",
          worst.refused_reason.c_str());
      ++skipped;
      return;
    }
    say("%-13s %-28s %-9s %-6s %11.3e %11.3e %11.3e  %d (%d,%d,%d)\n", entry.name.c_str(), name.c_str(),
        precision_name(precision), d.pass() ? "pass" : "FAIL", d.max_abs, d.max_rel, d.rel_l2, worst.order, d.worst.i,
        d.worst.j, d.worst.k);
    if (!worst.refused_orders.empty())
      say("%-13s %-28s %-9s orders %s skipped: %s\n", entry.name.c_str(), name.c_str(), precision_name(precision),
          worst.refused_orders.c_str(), worst.refused_reason.c_str());
    (d.pass() ? passed : failed)++;
  };
  for (const auto& entry : default_registry().entries()) {
    if (entry.uses_cuda && !has_gpu) continue;  // the table above says why
    for (const BoundaryCase& faces : boundary_cases())
      for (Precision precision : kPrecisions) check_faces(entry, faces, false, precision);
    for (Precision precision : kPrecisions) check_faces(entry, radiation_case(), false, precision);
    if (!entry.adds_sources) continue;
    for (const BoundaryCase& faces : source_cases())
      for (Precision precision : kPrecisions) check_faces(entry, faces, true, precision);
    if (!entry.steps_materials) continue;
    for (const MaterialCase& fields : materials)
      for (const BoundaryCase& faces : source_cases())
        for (Precision precision : kPrecisions) check_faces(entry, faces, true, precision, &fields);
  }
}

int verify(const VerifyOptions& o) {
  const Ranks& ranks = process_ranks();
  Grid grid{o.n, o.n, o.n};
  grid.hx = grid.hy = grid.hz = 1.0 / (o.n - 1);
  CaseRanks how;
  const bool has_gpu = gpu_count() > 0;
  // Everything that can refuse the input, on every rank before any work: the widest ghosts
  // (order 8's, in the scheme of each backend that can run) must fit the ranks, and each rank
  // needs its GPU.
  ranks.validate_everywhere([&] {
    if (o.steps < 1) throw InputError("--steps " + std::to_string(o.steps) + " must be at least 1");
    require_positive_cfl(o.cfl);
    for (int order : {2, 4, 6, 8}) require_stable_cfl(o.cfl, order, o.allow_unstable, "--cfl " + number_text(o.cfl));
    require_grid_fits_order(grid, 8, {"--n", "--n", "--n"});
    require_grid_points_fit(o.n, o.n, o.n, "--n");
    how.route = ranks.gpu_route(parse_gpu_halo_route(o.halo_exchange), every_pair_of_ranks(ranks.size()));
    how.grid = parse_ranks_grid(o.ranks_grid);
    Problem widest;  // order 8's ghost points
    widest.grid = grid;
    widest.order = 8;
    Slab slab;  // the largest box
    for (const auto& entry : default_registry().entries())
      if (!entry.uses_cuda || has_gpu) {
        const Slab entrys = case_slab(ranks, entry, widest, how.grid);
        if (entrys.box_grid(grid).points() > slab.box_grid(grid).points()) slab = entrys;
      }
    require_host_bytes(verify_host_bytes_needed(grid, slab, ranks.is_root()), ranks.local_size(),
                       "verify --n " + std::to_string(o.n), "use a smaller --n");
    require_device_ordinal(o.device);
    how.options.device = has_gpu ? ranks.select_gpu(o.device, how.route) : o.device;
    // A device that is not there would have every CUDA backend skipped, and verify pass.
    if (has_gpu)
      if (const GpuInfo chosen = query_gpu(how.options.device); !chosen.available) throw InputError(chosen.reason);
  });
  const Field<double> initial = randn_field(grid, o.seed);
  const GpuInfo gpu = query_gpu(how.options.device);
  const bool root = ranks.is_root();

  say("verify: %d^3, %d steps, randn (seed %llu), cfl %g, against cpu_reference in double, on %d rank(s)%s\n", o.n,
      o.steps, o.seed, o.cfl, ranks.size(), ranks.size() > 1 ? (", --ranks-grid " + o.ranks_grid).c_str() : "");
  if (gpu.available) say("gpu: %s\n", gpu.name.c_str());
  say("%-13s %5s %-9s %-6s %11s %11s %11s  %s\n", "backend", "order", "precision", "result", "max abs", "max rel",
      "rel L2", "worst (i,j,k)");
  int failed = 0, passed = 0, skipped = 0;
  for (const auto& entry : default_registry().entries()) {
    if (entry.uses_cuda && !gpu.available) {
      say("%-13s %5s %-9s %-6s %s\n", entry.name.c_str(), "all", "both", "skip", gpu.reason.c_str());
      ++skipped;
      continue;
    }
    for (int order : {2, 4, 6, 8})
      for (Precision precision : kPrecisions) {
        Problem problem;
        problem.grid = grid;
        problem.order = order;
        problem.dt = dt_from_cfl(grid, problem.alpha, o.cfl);
        const CaseResult result = check_case_in(precision, entry, problem, initial, o.steps, how);
        if (!result.refused.empty()) {
          say("%-13s %5d %-9s %-6s %s\n", entry.name.c_str(), order, precision_name(precision), "skip",
              result.refused.c_str());
          ++skipped;
          continue;
        }
        const FieldDifference& d = result.d;
        say("%-13s %5d %-9s %-6s %11.3e %11.3e %11.3e  (%d,%d,%d)\n", entry.name.c_str(), order,
            precision_name(precision), d.pass() ? "pass" : "FAIL", d.max_abs, d.max_rel, d.rel_l2, d.worst.i,
            d.worst.j, d.worst.k);
        (d.pass() ? passed : failed)++;
      }
  }
  check_conditions(o, how, passed, failed, skipped);
  say("verify: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
  // Every rank exits with rank 0's verdict.
  return ranks.on_any_rank(root && failed > 0) ? exit_code::mismatch : exit_code::ok;
}

}  // namespace

void add_verify_command(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand(
      "verify", "every backend x order x precision, then x boundary condition, against the cpu reference");
  auto o = std::make_shared<VerifyOptions>();
  sub->add_option("--n", o->n, "points along each axis")->capture_default_str();
  sub->add_option("--steps", o->steps, "RK4 steps")->capture_default_str();
  sub->add_option("--cfl", o->cfl, "cfl of every case (dt = cfl / (alpha*S))")->capture_default_str();
  sub->add_flag("--allow-unstable", o->allow_unstable,
                "run a --cfl above an order's stability limit (the first case that blows up ends verify)");
  sub->add_option("--device", o->device, "CUDA device ordinal")->capture_default_str();
  sub->add_option("--seed", o->seed, "seed of the random field")->capture_default_str()->check(uint64_check());
  sub->add_option("--halo-exchange", o->halo_exchange,
                  "under mpirun, how GPU ranks exchange ghost planes: auto, peer, nccl or host (as for a run)")
      ->capture_default_str();
  sub->add_option("--ranks-grid", o->ranks_grid,
                  "under mpirun, how ranks split each case's grid: slabs (1xN along z), PxQxR or auto (as for a run)")
      ->capture_default_str();
  sub->callback([&action, o] { action = [o] { return verify(*o); }; });
}

}  // namespace heat
