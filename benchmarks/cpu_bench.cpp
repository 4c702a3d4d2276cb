// cpu_bench: the cpu reference backend's speed (ms per step, points per second) at a few sizes.
// Host timing: the backend's calls are blocking, so a steady clock around step() is exact.
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "solver/initial_conditions.hpp"
#include "solver/registry.hpp"
#include "solver/time_loop.hpp"

namespace heat {

template <typename T>
double median_ms_per_step(const Problem& p, int steps, int repeats) {
  auto backend = default_registry().find("cpu")->make<T>(p, BackendOptions{});
  backend->upload(field_cast<T>(randn_field(p.grid, 1)));
  backend->step(1);  // warm-up: first touch of the working arrays
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    backend->step(steps);
    ms.push_back(1e3 * seconds_since(t0) / steps);
  }
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

}  // namespace heat

int main(int argc, char** argv) {
  std::vector<int> sizes = {128, 256};
  int order = 8, steps = 2, repeats = 3;
  CLI::App app("cpu_bench: the cpu backend's ms/step and points/s");
  app.add_option("--sizes", sizes)->capture_default_str();
  app.add_option("--order", order)->capture_default_str();
  app.add_option("--steps", steps)->capture_default_str();
  app.add_option("--repeats", repeats)->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::printf("cpu backend, order %d, %d OpenMP threads, median of %d runs of %d steps\n", order,
              omp_get_max_threads(), repeats, steps);
  std::printf("%6s %-9s %10s %12s %8s\n", "n", "precision", "ms/step", "points/s", "GB/s");
  const auto& entry = *heat::default_registry().find("cpu");
  for (int n : sizes)
    for (bool is_float : {true, false}) {
      heat::Problem p;
      p.grid = heat::Grid{n, n, n, 1.0 / (n - 1), 1.0 / (n - 1), 1.0 / (n - 1)};
      p.order = order;
      p.dt = heat::dt_from_cfl(p.grid, 1.0, 0.05);
      const double ms = is_float ? heat::median_ms_per_step<float>(p, steps, repeats)
                                 : heat::median_ms_per_step<double>(p, steps, repeats);
      const double points = double(p.interior_points()) / (ms * 1e-3);
      const double bytes = entry.bytes_per_point(p, is_float ? 4 : 8);
      std::printf("%6d %-9s %10.2f %12.3e %8.1f\n", n, is_float ? "float" : "double", ms, points, points * bytes / 1e9);
    }
  return 0;
}
