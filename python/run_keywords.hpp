// heatrk4.run's keyword arguments as RunOptions, each through the run's option table
// (apps/run_option_table.hpp): its name, and a Python value of the option's type.
#pragma once

#include <pybind11/pybind11.h>

#include "apps/run_options.hpp"

namespace heat::python {

namespace py = pybind11;

// init_file=F gives --init-file; None leaves an option out; modes=(1, 2, 3) is a tuple or list of
// three; a config=F file gives what the keywords leave out. Unknown names, help and values of the
// wrong type are refused (ValueError, TypeError) naming the key and the value; a value of the
// right type is checked as the command line checks its text.
RunOptions run_options_from_keywords(const py::kwargs& keywords);

}  // namespace heat::python
