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
#include "apps/stop_signals.hpp"
#include "io/input_file.hpp"
#include "io/run_settings.hpp"
#include "python/bindings.hpp"
#include "solver/errors.hpp"

namespace heat::python {
namespace {

// heatrk4.run's keywords as the command line's words: init_file=F is --init-file F, a True flag
// is the flag alone (False leaves it out), a list or tuple gives one word per item (modes=(1, 2, 3)).
std::vector<std::string> command_line_words(const py::kwargs& options) {
  std::vector<std::string> words;
  for (const auto& [key, value] : options) {
    std::string name = "--" + key.cast<std::string>();
    for (char& c : name)
      if (c == '_') c = '-';
    if (py::isinstance<py::bool_>(value)) {
      if (value.cast<bool>()) words.push_back(name);
      continue;
    }
    if (value.is_none()) continue;
    words.push_back(name);
    if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
      for (const auto& item : value) words.push_back(py::str(item));
    } else {
      words.push_back(py::str(value));  // a float's str() is its shortest exact decimal
    }
  }
  return words;
}

py::object json_file_contents(const std::string& path) {
  const py::object json = py::module_::import("json");
  const py::object text = py::module_::import("pathlib").attr("Path")(path).attr("read_text")();
  return json.attr("loads")(text);
}

// A tolerance as compare's --rtol and --atol take it (tolerance_check); None: the default.
double tolerance_argument(const py::object& value, const char* name) {
  if (value.is_none()) return -1;
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value.cast<double>());
  std::string word = text;
  const std::string refused = tolerance_check()(word);
  if (!refused.empty()) throw InputError(std::string(name) + " " + refused);
  return value.cast<double>();
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

py::dict run(const py::kwargs& options) {
  std::vector<std::string> words = command_line_words(options);
  // The summary comes back through --json: into a temporary directory unless the caller gave one.
  py::object scratch = py::none();
  std::string json_path = options.contains("json") && !options["json"].is_none() ? std::string(py::str(options["json"])) : "";
  if (json_path.empty()) {
    scratch = py::module_::import("tempfile").attr("TemporaryDirectory")(py::arg("prefix") = "heatrk4-run-");
    json_path = py::str(scratch.attr("name")).cast<std::string>() + "/summary.json";
    words.push_back("--json");
    words.push_back(json_path);
  }
  int code = 0;
  {
    const py::gil_scoped_release computing;
    code = run_command_line_or_throw(words);
  }
  if (code == exit_code_for_signal(SIGINT)) {
    if (!scratch.is_none()) scratch.attr("cleanup")();
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  if (code > exit_code::mismatch)
    throw RunError("the run stopped with exit code " + std::to_string(code) + " (a signal: 128 + its number)");
  py::dict summary = json_file_contents(json_path);
  if (!scratch.is_none()) scratch.attr("cleanup")();
  return summary;
}

py::dict read(const std::string& path, const std::string& array) {
  const ImageFileInfo info = read_image_file_info(path);
  PointArray values = read_point_array(path, array);
  const StoredRunSettings stored = read_stored_run_settings(path);
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

py::dict compare(const std::string& file_a, const std::string& file_b, py::object rtol, py::object atol) {
  const double relative = tolerance_argument(rtol, "rtol");
  const double absolute = tolerance_argument(atol, "atol");
  FileComparison c;
  {
    const py::gil_scoped_release computing;
    c = compare_files(file_a, file_b, relative, absolute);
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
