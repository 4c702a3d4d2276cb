// heatrk4 compare A.hdf B.hdf: every point array of two VTKHDF ImageData files, point by point,
// with the norms that --check and verify use (validation/norms.hpp). Modelled on AMReX's fcompare:
// B is the reference, exit 0 when all arrays agree, 1 when one does not, 2 when the files cannot
// be read or their grids differ.
#include <cmath>
#include <cstdio>
#include <memory>

#include "apps/commands.hpp"
#include "apps/run_options.hpp"
#include "io/input_file.hpp"
#include "solver/errors.hpp"
#include "validation/norms.hpp"

namespace heat {

namespace {

struct CompareOptions {
  std::string file_a, file_b;
  double rtol = -1, atol = -1;  // negative: the default for the stored precision
};

std::string grid_text(const Grid& g) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%d x %d x %d points, spacing %.17g, %.17g, %.17g", g.nx, g.ny, g.nz, g.hx, g.hy,
                g.hz);
  return buf;
}

// " (step 40, time 0.0123)" for a heatrk4 snapshot, nothing for a file from elsewhere.
std::string run_state_text(const ImageFileInfo& file) {
  if (!file.has_run_state) return " (no step or time: not a heatrk4 snapshot)";
  char buf[96];
  std::snprintf(buf, sizeof buf, " (step %d, time %.9g)", file.step, file.time);
  return buf;
}

// Spacings written by two programs may round differently in the last bits; anything more is a
// different grid.
bool same_grid(const Grid& a, const Grid& b) {
  const auto close = [](double x, double y) { return std::fabs(x - y) <= 1e-12 * std::fmax(std::fabs(x), std::fabs(y)); };
  return a.nx == b.nx && a.ny == b.ny && a.nz == b.nz && close(a.hx, b.hx) && close(a.hy, b.hy) && close(a.hz, b.hz);
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  for (const auto& n : names)
    if (n == name) return true;
  return false;
}

// A NaN, or an Inf of the same sign, at the same point of both files is the same value (two runs
// that blew up alike agree): such points are set to 0 in both and counted, and the rest compared.
std::size_t equate_matching_nonfinite(Field<double>& a, Field<double>& b) {
  std::size_t matching = 0;
  double* x = a.data();
  double* y = b.data();
  for (std::size_t n = 0; n < a.size(); ++n)
    if (!std::isfinite(x[n]) && !std::isfinite(y[n]) && ((std::isnan(x[n]) && std::isnan(y[n])) || x[n] == y[n])) {
      x[n] = y[n] = 0;
      ++matching;
    }
  return matching;
}

// Compares one array; prints its report and returns whether it agrees.
bool compare_array(const CompareOptions& o, const std::string& name) {
  PointArray a = read_point_array(o.file_a, name);
  PointArray b = read_point_array(o.file_b, name);
  const std::size_t matching_nonfinite = equate_matching_nonfinite(a.values, b.values);
  // The defaults of --check (docs/design.md §3): float data cannot agree better than float rounding.
  const bool either_float = a.stored_as_float || b.stored_as_float;
  const double tol = default_tolerance(either_float ? Precision::Float : Precision::Double);
  const double rtol = o.rtol >= 0 ? o.rtol : tol;
  const double atol = o.atol >= 0 ? o.atol : tol;
  const FieldDifference d = compare_fields(a.values, b.values, rtol, atol);
  std::printf("%s (%s vs %s, rtol %.3g, atol %.3g): %s\n", name.c_str(), a.stored_as_float ? "float" : "double",
              b.stored_as_float ? "float" : "double", rtol, atol, describe(d).c_str());
  std::printf("  NaN/Inf points: A %zu, B %zu; points outside tolerance: %zu of %zu\n", d.nonfinite_value,
              d.nonfinite_reference, d.failures, a.values.size());
  if (matching_nonfinite)
    std::printf("  NaN/Inf at the same points in both: %zu, counted as equal (the norms above are over the rest)\n",
                matching_nonfinite);
  for (const auto& p : d.first_failures)
    std::printf("  at (%d,%d,%d): A %.17g, B %.17g\n", p.i, p.j, p.k, p.value, p.reference);
  return d.pass();
}

int compare_files(const CompareOptions& o) {
  const ImageFileInfo a = read_image_file_info(o.file_a);
  const ImageFileInfo b = read_image_file_info(o.file_b);
  if (!same_grid(a.grid, b.grid))
    throw InputError("the grids differ: " + o.file_a + " has " + grid_text(a.grid) + ", " + o.file_b + " has " +
                     grid_text(b.grid));
  std::printf("A: %s%s\nB: %s%s (reference: tolerance atol + rtol*|B|)\ngrid: %s\n", o.file_a.c_str(),
              run_state_text(a).c_str(), o.file_b.c_str(), run_state_text(b).c_str(), grid_text(a.grid).c_str());

  bool agree = true;
  int compared = 0;
  for (const auto& name : a.point_arrays) {
    if (!contains(b.point_arrays, name)) {
      std::printf("%s: only in A\n", name.c_str());
      agree = false;
      continue;
    }
    agree = compare_array(o, name) && agree;
    ++compared;
  }
  for (const auto& name : b.point_arrays)
    if (!contains(a.point_arrays, name)) {
      std::printf("%s: only in B\n", name.c_str());
      agree = false;
    }
  if (compared == 0) throw InputError("the files have no point array in common: nothing to compare");
  std::printf("%s\n", agree ? "AGREE" : "DISAGREE");
  return agree ? exit_code::ok : exit_code::mismatch;
}

}  // namespace

void add_compare_command(CLI::App& app, CommandAction& action) {
  auto options = std::make_shared<CompareOptions>();
  auto* sub = app.add_subcommand(
      "compare", "compare the point arrays of two VTKHDF .hdf files (exit 0 agree, 1 disagree, 2 unreadable or different grids)");
  sub->add_option("A", options->file_a, "the file to test")->required();
  sub->add_option("B", options->file_b, "the reference file")->required();
  sub->add_option("--rtol", options->rtol, "relative tolerance (default 1e-6 if either file is float, else 1e-12)")
      ->check(tolerance_check());
  sub->add_option("--atol", options->atol, "absolute tolerance (default as --rtol)")->check(tolerance_check());
  sub->callback([&action, options] { action = [options] { return compare_files(*options); }; });
}

}  // namespace heat
