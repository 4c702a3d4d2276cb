// Python values as the module's C++ arguments: each conversion names the argument, the value and
// what is accepted, where pybind11's own casts say only "Unable to cast Python instance".
// A value of the wrong type is TypeError (py::type_error); InputError (ValueError) is left to the
// checks the command line shares, which judge the value itself.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace heat::python {

namespace py = pybind11;

// repr() of a value, cut short where it is long (a message quotes it, never a whole array).
std::string value_text(py::handle value);

// A real number (int, float, NumPy scalar: numbers.Real), never a bool or a str.
double real_argument(py::handle value, const std::string& name);
// A whole number (int, NumPy integer: numbers.Integral) that fits an int, never a bool.
int int_argument(py::handle value, const std::string& name);
// A whole number 0 or more that fits 64 bits (a seed).
unsigned long long uint64_argument(py::handle value, const std::string& name);
// True or False (also NumPy's bool).
bool bool_argument(py::handle value, const std::string& name);
// A spacing: one number, or a sequence of three (hx, hy, hz); its values as given, one or three.
std::vector<double> spacing_argument(py::handle value, const std::string& name);
// A str, or a path: os.PathLike or bytes, as os.fsdecode(os.fspath(value)) gives it.
std::string text_argument(py::handle value, const std::string& name);

}  // namespace heat::python
