// heatrk4 compare A.hdf B.hdf: every point array of two VTKHDF ImageData files, point by point,
// with the norms that --check and verify use (check/norms.hpp). Modelled on AMReX's fcompare:
// B is the reference, exit 0 when all arrays agree, 1 when one does not, 2 when the files cannot
// be read or their grids differ.
#include <cmath>
#include <cstdio>
#include <memory>

#include "apps/commands.hpp"
#include "apps/compare_files.hpp"
#include "apps/run_options.hpp"
#include "core/errors.hpp"

namespace heat {

namespace {

struct CompareOptions {
  std::string file_a, file_b;
  double rtol = -1, atol = -1;  // negative: the default for the stored precision
};

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

ArrayComparison compare_array(const std::string& file_a, const std::string& file_b, const std::string& name,
                              double rtol, double atol) {
  PointArray a = read_point_array(file_a, name);
  PointArray b = read_point_array(file_b, name);
  ArrayComparison c;
  c.name = name;
  c.a_float = a.stored_as_float;
  c.b_float = b.stored_as_float;
  c.matching_nonfinite = equate_matching_nonfinite(a.values, b.values);
  // The defaults of --check (docs/design.md §3): float data cannot agree better than float rounding.
  const double tol = default_tolerance(c.a_float || c.b_float ? Precision::Float : Precision::Double);
  c.rtol = rtol >= 0 ? rtol : tol;
  c.atol = atol >= 0 ? atol : tol;
  c.difference = compare_fields(a.values, b.values, c.rtol, c.atol);
  c.points = a.values.size();
  return c;
}

void print_array(const ArrayComparison& c) {
  const FieldDifference& d = c.difference;
  std::printf("%s (%s vs %s, rtol %.3g, atol %.3g): %s\n", c.name.c_str(), c.a_float ? "float" : "double",
              c.b_float ? "float" : "double", c.rtol, c.atol, describe(d).c_str());
  std::printf("  NaN/Inf points: A %zu, B %zu; points outside tolerance: %zu of %zu\n", d.nonfinite_value,
              d.nonfinite_reference, d.failures, c.points);
  if (c.matching_nonfinite)
    std::printf("  NaN/Inf at the same points in both: %zu, counted as equal (the norms above are over the rest)\n",
                c.matching_nonfinite);
  for (const auto& p : d.first_failures)
    std::printf("  at (%d,%d,%d): A %.17g, B %.17g\n", p.i, p.j, p.k, p.value, p.reference);
}

int run_compare(const CompareOptions& o) {
  const FileComparison c = compare_files(o.file_a, o.file_b, o.rtol, o.atol);
  std::printf("A: %s%s\nB: %s%s (reference: tolerance atol + rtol*|B|)\ngrid: %s\n", o.file_a.c_str(),
              run_state_text(c.a).c_str(), o.file_b.c_str(), run_state_text(c.b).c_str(), grid_text(c.a.grid).c_str());
  for (const auto& array : c.arrays) print_array(array);
  for (const auto& name : c.only_in_a) std::printf("%s: only in A\n", name.c_str());
  for (const auto& name : c.only_in_b) std::printf("%s: only in B\n", name.c_str());
  std::printf("%s\n", c.agree ? "AGREE" : "DISAGREE");
  return c.agree ? exit_code::ok : exit_code::mismatch;
}

}  // namespace

std::string grid_text(const Grid& g) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%d x %d x %d points, spacing %.17g, %.17g, %.17g", g.nx, g.ny, g.nz, g.hx, g.hy,
                g.hz);
  return buf;
}

FileComparison compare_files(const std::string& file_a, const std::string& file_b, double rtol, double atol) {
  FileComparison c;
  c.a = read_image_file_info(file_a);
  c.b = read_image_file_info(file_b);
  if (!same_grid(c.a.grid, c.b.grid))
    throw InputError("the grids differ: " + file_a + " has " + grid_text(c.a.grid) + ", " + file_b + " has " +
                     grid_text(c.b.grid));
  c.agree = true;
  for (const auto& name : c.a.point_arrays) {
    if (!contains(c.b.point_arrays, name)) {
      c.only_in_a.push_back(name);
      c.agree = false;
      continue;
    }
    c.arrays.push_back(compare_array(file_a, file_b, name, rtol, atol));
    c.agree = c.arrays.back().difference.pass() && c.agree;
  }
  for (const auto& name : c.b.point_arrays)
    if (!contains(c.a.point_arrays, name)) {
      c.only_in_b.push_back(name);
      c.agree = false;
    }
  if (c.arrays.empty()) throw InputError("the files have no point array in common: nothing to compare");
  return c;
}

void add_compare_command(CLI::App& app, CommandAction& action) {
  auto options = std::make_shared<CompareOptions>();
  auto* sub = app.add_subcommand(
      "compare", "compare the point arrays of two VTKHDF .hdf files (exit 0 agree, 1 disagree, 2 unreadable or different grids)");
  sub->add_option("A", options->file_a, "the file to test")->required();
  sub->add_option("B", options->file_b, "the reference file")->required();
  sub->add_option("--rtol", options->rtol, "relative tolerance (default 1e-6 if either file is float, else 1e-12)")
      ->check(tolerance_check());
  sub->add_option("--atol", options->atol, "absolute tolerance (default as --rtol)")->check(tolerance_check());
  sub->callback([&action, options] { action = [options] { return run_compare(*options); }; });
}

}  // namespace heat
