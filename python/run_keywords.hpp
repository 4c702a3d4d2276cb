// heatrk4.run's keyword arguments as the command line's words, each checked first against the
// run's option table (add_run_options): its name, and a value of the option's type.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace heat::python {

namespace py = pybind11;

// init_file=F is --init-file=F; a flag's True is the flag alone and False leaves it out; None
// leaves any option out; modes=(1, 2, 3) gives one word per item. Unknown names, help and
// values of the wrong type are refused (ValueError, TypeError) naming the key and the value.
std::vector<std::string> run_words(const py::kwargs& options);

}  // namespace heat::python
