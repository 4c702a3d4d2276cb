// heatrk4.run, heatrk4.read and heatrk4.compare: the command line's run and compare and its
// snapshot reader, with dicts and NumPy arrays for what the command line prints or writes.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>
#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "apps/compare_files.hpp"
#include "apps/run_options.hpp"
#include "apps/run_summary.hpp"
#include "apps/stop_signals.hpp"
#include "io/hdf5_snapshot.hpp"
#include "io/input_file.hpp"
#include "io/run_settings.hpp"
#include "python/arguments.hpp"
#include "python/bindings.hpp"
#include "python/fork_safety.hpp"
#include "python/run_keywords.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"

namespace heat::python {
namespace {

// A tolerance as compare's --rtol and --atol take it (tolerance_problem); None: the default.
double tolerance_argument(const py::object& value, const char* name) {
  if (value.is_none()) return -1;
  const double tolerance = real_argument(value, name);
  if (const std::string refused = tolerance_problem(tolerance); !refused.empty())
    throw InputError(std::string(name) + " " + refused);
  return tolerance;
}

template <typename T>
py::array_t<T> numpy_copy(const Field<double>& values) {
  py::array_t<T> out({values.nz(), values.ny(), values.nx()});
  T* to = out.mutable_data();
  const double* from = values.data();
  for (std::size_t n = 0; n < values.size(); ++n) to[n] = T(from[n]);  // float data widened exactly, so back exactly
  return out;
}

py::dict difference_dict(const ArrayComparison& c) {
  const FieldDifference& d = c.difference;
  py::list failures;
  for (const auto& p : d.first_failures) {
    py::dict f;
    f["ijk"] = py::make_tuple(p.i, p.j, p.k);
    f["a"] = p.value;
    f["b"] = p.reference;
    failures.append(f);
  }
  py::dict out;
  out["a_precision"] = c.a_float ? "float" : "double";
  out["b_precision"] = c.b_float ? "float" : "double";
  out["rtol"] = c.rtol;
  out["atol"] = c.atol;
  out["agree"] = d.pass();
  out["max_abs"] = d.max_abs;
  out["max_rel"] = d.max_rel;
  out["rel_l2"] = d.rel_l2;
  out["worst_ratio"] = d.worst_ratio;
  out["worst_ijk"] = py::make_tuple(d.worst.i, d.worst.j, d.worst.k);
  out["nonfinite_a"] = d.nonfinite_value;
  out["nonfinite_b"] = d.nonfinite_reference;
  out["failures"] = d.failures;
  out["points"] = c.points;
  out["matching_nonfinite"] = c.matching_nonfinite;
  out["first_failures"] = failures;
  out["summary"] = describe(d);
  return out;
}

py::dict file_dict(const std::string& path, const ImageFileInfo& info) {
  py::dict out;
  out["path"] = path;
  out["step"] = info.has_run_state ? py::object(py::int_(info.step)) : py::none();
  out["time"] = info.has_run_state ? py::object(py::float_(info.time)) : py::none();
  return out;
}

}  // namespace

py::object run(const py::kwargs& keywords) {
  const RunOptions options = run_options_from_keywords(keywords);
  RunReport report;
  int code = 0;
  {
    const py::gil_scoped_release computing;
    run_where_openmp_works([&] { code = run_options(options, &report); });
  }
  if (code == exit_code_for_signal(SIGINT)) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  if (code > exit_code::mismatch)
    throw RunError("the run stopped with exit code " + std::to_string(code) + " (a signal: 128 + its number)");
  // The --json summary's own text, so the dict and the file never differ.
  return py::module_::import("json").attr("loads")(json_summary(report));
}

py::dict read(py::object path_argument, py::object array_argument) {
  const std::string path = text_argument(path_argument, "path");
  const std::string array = text_argument(array_argument, "array");
  ImageFileInfo info;
  PointArray values;
  StoredRunSettings stored;
  {
    const py::gil_scoped_release reading;
    run_where_openmp_works([&] {
      info = read_image_file_info(path);
      values = read_point_array(path, array);
      stored = read_stored_run_settings(path);
    });
  }
  py::dict settings;
  if (stored.order) settings["order"] = *stored.order;
  if (stored.precision) settings["precision"] = *stored.precision;
  if (stored.alpha) settings["alpha"] = *stored.alpha;
  if (stored.dt) settings["dt"] = *stored.dt;
  if (stored.cfl) settings["cfl"] = *stored.cfl;
  if (!stored.command_line.empty()) settings["command_line"] = stored.command_line;
  py::dict out;
  out[py::str(array)] = values.stored_as_float ? py::object(numpy_copy<float>(values.values))
                                                : py::object(numpy_copy<double>(values.values));
  out["step"] = info.has_run_state ? py::object(py::int_(info.step)) : py::none();
  out["time"] = info.has_run_state ? py::object(py::float_(info.time)) : py::none();
  out["h"] = py::make_tuple(info.grid.hx, info.grid.hy, info.grid.hz);
  out["settings"] = settings;
  return out;
}

void write(py::object path_argument, py::object values, py::object h, py::object array_argument) {
  const std::string path = text_argument(path_argument, "path");
  const std::string array = text_argument(array_argument, "array");
  const auto numpy = py::module_::import("numpy");
  const auto field = py::array_t<double, py::array::c_style>::ensure(
      numpy.attr("ascontiguousarray")(numpy.attr("asarray")(values), py::arg("dtype") = "float64"));
  if (!field) throw py::error_already_set();
  if (field.ndim() != 3)
    throw InputError("values has " + std::to_string(field.ndim()) +
                     " dimensions: heatrk4.write takes a 3D array indexed [z, y, x] (shape (nz, ny, nx))");
  std::vector<double> spacings = spacing_argument(h, "h");
  if (spacings.size() == 1) spacings.assign(3, spacings[0]);
  for (const double spacing : spacings)
    if (!(spacing > 0) || !std::isfinite(spacing))
      throw InputError("h = " + value_text(h) + ": a spacing must be a positive number");
  const Grid grid{int(field.shape(2)), int(field.shape(1)), int(field.shape(0)), spacings[0], spacings[1], spacings[2]};
  Field<double> out = Field<double>::uninitialized(grid);
  std::memcpy(out.data(), field.data(), out.size() * sizeof(double));
  for (std::size_t n = 0; n < out.size(); ++n)
    if (!std::isfinite(out.data()[n]))
      throw InputError("values holds " + number_text(out.data()[n]) + " at (i, j, k) = (" +
                       std::to_string(n % std::size_t(grid.nx)) + ", " +
                       std::to_string(n / std::size_t(grid.nx) % std::size_t(grid.ny)) + ", " +
                       std::to_string(n / (std::size_t(grid.nx) * std::size_t(grid.ny))) +
                       "): heatrk4.write writes finite values");
  const py::gil_scoped_release writing;
  run_where_openmp_works([&] { write_point_array_file(path, grid, array, out); });
}

py::dict compare(py::object a_argument, py::object b_argument, py::object rtol, py::object atol) {
  const std::string file_a = text_argument(a_argument, "a");
  const std::string file_b = text_argument(b_argument, "b");
  const double relative = tolerance_argument(rtol, "rtol");
  const double absolute = tolerance_argument(atol, "atol");
  FileComparison c;
  {
    const py::gil_scoped_release computing;
    run_where_openmp_works([&] { c = compare_files(file_a, file_b, relative, absolute); });
  }
  py::dict arrays;
  for (const auto& array : c.arrays) arrays[py::str(array.name)] = difference_dict(array);
  py::dict out;
  out["a"] = file_dict(file_a, c.a);
  out["b"] = file_dict(file_b, c.b);
  out["grid"] = grid_text(c.a.grid);
  out["arrays"] = arrays;
  out["only_in_a"] = py::cast(c.only_in_a);
  out["only_in_b"] = py::cast(c.only_in_b);
  out["agree"] = c.agree;
  return out;
}

}  // namespace heat::python
