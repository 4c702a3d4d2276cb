// The Python that draws heatrk4's plots (convergence --plot, heatrk4 plot): one with matplotlib.
#pragma once

#include <string>

namespace heat {

// The first Python 3 that imports matplotlib: $HEATRK4_PYTHON where set (the only one tried then),
// else python3 on PATH, else Debian's /usr/bin/python3 (where python3-matplotlib installs, which
// a pyenv or venv python3 earlier on PATH does not see). "" where none does.
std::string python_with_matplotlib();

// What to install where python_with_matplotlib finds none, for an error message.
inline const char* const kMatplotlibFix = "apt-get install python3-matplotlib, or set HEATRK4_PYTHON to a python3 with it";

}  // namespace heat
