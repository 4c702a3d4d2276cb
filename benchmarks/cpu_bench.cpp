// cpu_bench: the cpu backends' speed (ms per step, points per second) at a few sizes, beside the
// machine's copy rate measured in the same run (benchmarks/cpu_model.md says what to expect).
// Host timing: the backends' calls are blocking, so a steady clock around step() is exact.
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "solver/cpu/fast_backend.hpp"
#include "solver/initial_conditions.hpp"
#include "solver/registry.hpp"
#include "solver/time_loop.hpp"

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

template <typename T>
double median_ms_per_step(std::unique_ptr<Backend<T>> backend, const Problem& p, int steps, int repeats) {
  backend->upload(field_cast<T>(randn_field(p.grid, 1)));
  backend->step(1);  // warm-up: first touch of the working arrays
  return median_of(repeats, [&] {
    const auto t0 = std::chrono::steady_clock::now();
    backend->step(steps);
    return 1e3 * seconds_since(t0) / steps;
  });
}

// The backend `name`; for `cpu`, on instruction set `isa` where one is named.
template <typename T>
std::unique_ptr<Backend<T>> make_backend(const std::string& name, const std::string& isa, const Problem& p) {
  if (name == "cpu" && !isa.empty()) {
    const CpuIsa chosen = isa == "avx512" ? CpuIsa::Avx512 : isa == "avx2" ? CpuIsa::Avx2 : CpuIsa::Generic;
    return std::make_unique<CpuFastBackend<T>>(p, typename CpuFastBackend<T>::BeforeStencil(), chosen);
  }
  return default_registry().find(name)->make<T>(p, BackendOptions{});
}

}  // namespace heat

int main(int argc, char** argv) {
  std::vector<int> sizes = {128, 256};
  std::vector<std::string> backends = {"cpu", "cpu-reference"}, precisions = {"float", "double"};
  std::string isa;
  int order = 8, steps = 2, repeats = 3;
  CLI::App app("cpu_bench: the cpu backends' ms/step and points/s against the copy rate");
  app.add_option("--sizes", sizes)->capture_default_str();
  app.add_option("--backends", backends)->capture_default_str()->check(CLI::IsMember({"cpu", "cpu-reference"}));
  app.add_option("--precisions", precisions)->capture_default_str()->check(CLI::IsMember({"float", "double"}));
  app.add_option("--isa", isa, "the cpu backend's instruction set (default: the widest this CPU has)")
      ->check(CLI::IsMember({"generic", "avx2", "avx512"}));
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

  std::printf("order %d, %d OpenMP threads, best instruction set %s, median of %d runs of %d steps\n", order,
              omp_get_max_threads(), heat::cpu_isa_name(heat::best_cpu_isa()), repeats, steps);
  std::printf("%5s %-13s %-9s %9s %9s %9s %10s %10s %9s\n", "n", "backend", "precision", "ms/step", "Mpoints/s",
              "GB/s", "copy GB/s", "floor ms", "x floor");
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
        const double ms =
            is_float ? heat::median_ms_per_step<float>(heat::make_backend<float>(name, isa, p), p, steps, repeats)
                     : heat::median_ms_per_step<double>(heat::make_backend<double>(name, isa, p), p, steps, repeats);
        const double points = double(p.interior_points()) / (ms * 1e-3);
        const double bytes = heat::default_registry().find(name)->bytes_per_point(p, value_size);
        // The floor: the model's bytes of a step at the copy rate.
        const double floor_ms = 1e3 * bytes * double(p.interior_points()) / copy;
        std::printf("%5d %-13s %-9s %9.2f %9.1f %9.1f %10.1f %10.2f %9.1f\n", n, name.c_str(), precision.c_str(), ms,
                    points / 1e6, points * bytes / 1e9, copy / 1e9, floor_ms, ms / floor_ms);
      }
    }
  return 0;
}
