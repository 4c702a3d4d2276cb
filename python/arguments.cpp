#include "python/arguments.hpp"

#include <climits>

#include "core/errors.hpp"

namespace heat::python {
namespace {

std::string type_name(py::handle value) { return py::str(py::type::handle_of(value).attr("__name__")); }

bool is_bool(py::handle value) {
  if (PyBool_Check(value.ptr())) return true;
  const py::handle type = py::type::handle_of(value);
  return py::str(type.attr("__module__")).cast<std::string>() == "numpy" && type_name(value).rfind("bool", 0) == 0;
}

[[noreturn]] void wrong_type(py::handle value, const std::string& name, const std::string& accepted) {
  throw py::type_error(name + "=" + value_text(value) + " (" + type_name(value) + "): " + name + " takes " + accepted);
}

bool is_instance_of(py::handle value, const char* module, const char* type) {
  return py::isinstance(value, py::module_::import(module).attr(type));
}

// The integer of a numbers.Integral that is not a bool, as a Python int.
py::int_ integral(py::handle value, const std::string& name, const std::string& accepted) {
  if (is_bool(value) || !is_instance_of(value, "numbers", "Integral")) wrong_type(value, name, accepted);
  PyObject* number = PyNumber_Index(value.ptr());
  if (!number) throw py::error_already_set();
  return py::reinterpret_steal<py::int_>(number);
}

}  // namespace

std::string value_text(py::handle value) {
  std::string text = py::str(py::repr(value));
  constexpr std::size_t kMost = 80;
  if (text.size() > kMost) text = text.substr(0, kMost) + "... (" + std::to_string(text.size()) + " characters)";
  return text;
}

double real_argument(py::handle value, const std::string& name) {
  if (is_bool(value) || !is_instance_of(value, "numbers", "Real")) wrong_type(value, name, "a number (int or float)");
  return py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>();
}

std::vector<double> spacing_argument(py::handle value, const std::string& name) {
  const bool sequence =
      py::isinstance<py::sequence>(value) && !py::isinstance<py::str>(value) && !py::isinstance<py::bytes>(value);
  if (!sequence) return {real_argument(value, name)};
  const auto spacings = py::reinterpret_borrow<py::sequence>(value);
  if (spacings.size() != 3)
    throw InputError(name + " = " + value_text(value) + ": give one spacing or three, (hx, hy, hz)");
  std::vector<double> out;
  for (std::size_t a = 0; a < 3; ++a) out.push_back(real_argument(spacings[a], name + "[" + std::to_string(a) + "]"));
  return out;
}

int int_argument(py::handle value, const std::string& name) {
  const py::int_ number = integral(value, name, "a whole number (int)");
  int overflow = 0;
  const long long n = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (overflow || n < INT_MIN || n > INT_MAX)
    throw InputError(name + "=" + value_text(value) + " is outside an int's range [" + std::to_string(INT_MIN) + ", " +
                     std::to_string(INT_MAX) + "]");
  return int(n);
}

unsigned long long uint64_argument(py::handle value, const std::string& name) {
  const py::int_ number = integral(value, name, "a whole number (int)");
  const unsigned long long n = PyLong_AsUnsignedLongLong(number.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw InputError(name + "=" + value_text(value) + " is outside [0, " + std::to_string(ULLONG_MAX) + "]");
  }
  return n;
}

bool bool_argument(py::handle value, const std::string& name) {
  if (!is_bool(value)) wrong_type(value, name, "True or False");
  return PyObject_IsTrue(value.ptr()) == 1;
}

std::string text_argument(py::handle value, const std::string& name) {
  const bool path = py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) ||
                    is_instance_of(value, "os", "PathLike");
  if (!path) wrong_type(value, name, "a str (or, for a path, an os.PathLike such as pathlib.Path)");
  const py::object os = py::module_::import("os");
  return os.attr("fsdecode")(os.attr("fspath")(value)).cast<std::string>();
}

}  // namespace heat::python
