// cpu_bench: the cpu backends' speed (ms per step, points per second) at a few sizes, beside the
// machine's copy rate measured in the same run (benchmarks/cpu_model.md says what to expect).
// Host timing: the backends' calls are blocking, so a steady clock around step() is exact. The
// CPU time per step (all threads; run with OMP_WAIT_POLICY=passive so that waiting threads do not
// spin) beside it says how much of the cores the run had where other work shares them.
#include <omp.h>
#include <time.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "backends/cpu/fast_backend.hpp"
#include "core/initial_conditions.hpp"
#include "backends/registry.hpp"
#include "core/time_loop.hpp"

namespace heat {

template <typename F>
double median_of(int repeats, F&& once) {
  std::vector<double> values;
  for (int r = 0; r < repeats; ++r) values.push_back(once());
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

// Bytes per second of a parallel copy of one field of `values` values of T: the memory floor a
// pass that reads one array and writes another can reach (both directions counted).
template <typename T>
double copy_bytes_per_s(std::size_t values, int repeats) {
  Field<T> from(int(values), 1, 1, T(1)), to(int(values), 1, 1, T(0));
  const T* src = from.data();
  T* dst = to.data();
  auto copy = [&] { parallel_for_points(values, [&](std::size_t n) { dst[n] = src[n]; }); };
  copy();  // first touch
  const double s = median_of(repeats, [&] {
    const auto t0 = std::chrono::steady_clock::now();
    copy();
    return seconds_since(t0);
  });
  return 2.0 * double(values) * sizeof(T) / s;
}

// Seconds of CPU time the whole process has used: on a machine others load too, CPU time per
// step tells how much of the wall time this process actually ran.
double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct StepTime {
  double ms = 0;      // wall time per step (the median run's)
  double cpu_ms = 0;  // CPU time per step of the median run, all threads together
};

template <typename T>
StepTime median_step_time(std::unique_ptr<Backend<T>> backend, const Problem& p, int steps, int repeats) {
  backend->upload(field_cast<T>(randn_field(p.grid, 1)));
  backend->step(1);  // warm-up: first touch of the working arrays
  std::vector<StepTime> times;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = process_cpu_seconds();
    backend->step(steps);
    times.push_back({1e3 * seconds_since(t0) / steps, 1e3 * (process_cpu_seconds() - cpu0) / steps});
  }
  std::sort(times.begin(), times.end(), [](const StepTime& a, const StepTime& b) { return a.ms < b.ms; });
  return times[times.size() / 2];
}

// The backend `name`; for `cpu`, with its passes grouped as `grouping` says and on instruction
// set `isa` where one is named.
template <typename T>
std::unique_ptr<Backend<T>> make_backend(const std::string& name, const std::string& grouping, const std::string& isa,
                                         const Problem& p) {
  if (name != "cpu") return default_registry().find(name)->make<T>(p, BackendOptions{});
  const CpuIsa chosen = isa.empty()       ? best_cpu_isa()
                        : isa == "avx512" ? CpuIsa::Avx512
                        : isa == "avx2"   ? CpuIsa::Avx2
                                          : CpuIsa::Generic;
  const auto passes = grouping == "singles" ? CpuPassGrouping::Singles : CpuPassGrouping::Pairs;
  return std::make_unique<CpuFastBackend<T>>(p, nullptr, passes, chosen);
}

}  // namespace heat

int main(int argc, char** argv) {
  std::vector<int> sizes = {128, 256};
  std::vector<std::string> backends = {"cpu", "cpu_reference"}, precisions = {"float", "double"};
  std::string isa, grouping = "pairs";
  int order = 8, steps = 2, repeats = 3;
  CLI::App app("cpu_bench: the cpu backends' ms/step and points/s against the copy rate");
  app.add_option("--sizes", sizes)->capture_default_str();
  app.add_option("--backends", backends)->capture_default_str()->check(CLI::IsMember({"cpu", "cpu_reference"}));
  app.add_option("--precisions", precisions)->capture_default_str()->check(CLI::IsMember({"float", "double"}));
  app.add_option("--isa", isa, "the cpu backend's instruction set (default: the widest this CPU has)")
      ->check(CLI::IsMember({"generic", "avx2", "avx512"}));
  app.add_option("--grouping", grouping, "the cpu backend's passes: two per sweep, or one (as distributed runs "
                                        "with per-stage ghosts do)")
      ->capture_default_str()
      ->check(CLI::IsMember({"pairs", "singles"}));
  app.add_option("--order", order)->capture_default_str()->check(CLI::IsMember({2, 4, 6, 8}));
  app.add_option("--steps", steps)->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--repeats", repeats)->capture_default_str()->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  if (isa == "avx512" && heat::best_cpu_isa() != heat::CpuIsa::Avx512) {
    std::fprintf(stderr, "--isa avx512: this CPU or build has only %s\n", heat::cpu_isa_name(heat::best_cpu_isa()));
    return 2;
  }
  if (isa == "avx2" && heat::best_cpu_isa() == heat::CpuIsa::Generic) {
    std::fprintf(stderr, "--isa avx2: this CPU or build has only generic\n");
    return 2;
  }

  std::printf("order %d, %d OpenMP threads, cpu: %s passes on %s, median of %d runs of %d steps\n", order,
              omp_get_max_threads(), grouping.c_str(), isa.empty() ? heat::cpu_isa_name(heat::best_cpu_isa()) : isa.c_str(),
              repeats, steps);
  std::printf("%5s %-13s %-9s %9s %9s %9s %9s %10s %10s %9s\n", "n", "backend", "precision", "ms/step", "cpu ms",
              "Mpoints/s", "GB/s", "copy GB/s", "floor ms", "x floor");
  for (int n : sizes)
    for (const std::string& precision : precisions) {
      const bool is_float = precision == "float";
      const std::size_t value_size = is_float ? 4 : 8;
      const std::size_t values = std::size_t(n) * n * n;
      const double copy = is_float ? heat::copy_bytes_per_s<float>(values, 5) : heat::copy_bytes_per_s<double>(values, 5);
      for (const std::string& name : backends) {
        heat::Problem p;
        p.grid = heat::Grid{n, n, n, 1.0 / (n - 1), 1.0 / (n - 1), 1.0 / (n - 1)};
        p.order = order;
        p.dt = heat::dt_from_cfl(p.grid, 1.0, 0.05);
        const heat::StepTime t =
            is_float ? heat::median_step_time<float>(heat::make_backend<float>(name, grouping, isa, p), p, steps, repeats)
                     : heat::median_step_time<double>(heat::make_backend<double>(name, grouping, isa, p), p, steps, repeats);
        const double ms = t.ms;
        const double points = double(p.interior_points()) / (ms * 1e-3);
        const double bytes = name == "cpu" && grouping == "singles"
                                 ? double(heat::kFactoredStepArrays * value_size)
                                 : heat::default_registry().find(name)->bytes_per_point(p, value_size);
        // The floor: the model's bytes of a step at the copy rate.
        const double floor_ms = 1e3 * bytes * double(p.interior_points()) / copy;
        std::printf("%5d %-13s %-9s %9.2f %9.1f %9.1f %9.1f %10.1f %10.2f %9.1f\n", n, name.c_str(), precision.c_str(), ms,
                    t.cpu_ms, points / 1e6, points * bytes / 1e9, copy / 1e9, floor_ms, ms / floor_ms);
      }
    }
  return 0;
}
