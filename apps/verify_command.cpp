// heatrk4 verify: every backend x order x precision against the double cpu reference.
#include <cstdio>

#include "apps/commands.hpp"
#include "apps/run_options.hpp"
#include "solver/errors.hpp"
#include "solver/gpu_info.hpp"
#include "solver/registry.hpp"
#include "validation/reference.hpp"

namespace heat {
namespace {

struct VerifyOptions {
  int n = 64;
  int steps = 10;
  int device = 0;
  unsigned long long seed = 42;
};

int verify(const VerifyOptions& o) {
  if (o.steps < 1) throw InputError("--steps " + std::to_string(o.steps) + " must be at least 1");
  Grid grid{o.n, o.n, o.n};
  grid.hx = grid.hy = grid.hz = 1.0 / (o.n - 1);
  require_grid_fits_order(grid, 8);
  const Field<double> initial = randn_field(grid, o.seed);
  const GpuInfo gpu = query_gpu(o.device);

  std::printf("verify: %d^3, %d steps, randn (seed %llu), cfl 0.05, against the cpu backend in double\n", o.n,
              o.steps, o.seed);
  if (gpu.available) std::printf("gpu: %s\n", gpu.name.c_str());
  std::printf("%-8s %5s %-9s %-6s %11s %11s %11s  %s\n", "backend", "order", "precision", "result", "max abs",
              "max rel", "rel L2", "worst (i,j,k)");
  int failed = 0, passed = 0, skipped = 0;
  for (const auto& entry : default_registry().entries()) {
    if (entry.uses_cuda && !gpu.available) {
      std::printf("%-8s %5s %-9s %-6s %s\n", entry.name.c_str(), "all", "both", "skip", gpu.reason.c_str());
      ++skipped;
      continue;
    }
    for (int order : {2, 4, 6, 8})
      for (Precision precision : {Precision::Float, Precision::Double}) {
        Problem problem;
        problem.grid = grid;
        problem.order = order;
        problem.dt = dt_from_cfl(grid, problem.alpha, 0.05);
        const double tol = default_tolerance(precision);
        const FieldDifference d =
            precision == Precision::Float
                ? check_against_reference<float>(entry.name, problem, initial, o.steps, tol, tol, o.device)
                : check_against_reference<double>(entry.name, problem, initial, o.steps, tol, tol, o.device);
        std::printf("%-8s %5d %-9s %-6s %11.3e %11.3e %11.3e  (%d,%d,%d)\n", entry.name.c_str(), order,
                    precision_name(precision), d.pass() ? "pass" : "FAIL", d.max_abs, d.max_rel, d.rel_l2, d.worst.i,
                    d.worst.j, d.worst.k);
        (d.pass() ? passed : failed)++;
      }
  }
  std::printf("verify: %d passed, %d failed, %d backend(s) skipped\n", passed, failed, skipped);
  return failed ? exit_code::mismatch : exit_code::ok;
}

}  // namespace

void add_verify_command(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("verify", "every backend x order x precision against the cpu reference");
  auto o = std::make_shared<VerifyOptions>();
  sub->add_option("--n", o->n, "points along each axis")->capture_default_str();
  sub->add_option("--steps", o->steps, "RK4 steps")->capture_default_str();
  sub->add_option("--device", o->device, "CUDA device ordinal")->capture_default_str();
  sub->add_option("--seed", o->seed, "seed of the random field")->capture_default_str();
  sub->callback([&action, o] { action = [o] { return verify(*o); }; });
}

}  // namespace heat
