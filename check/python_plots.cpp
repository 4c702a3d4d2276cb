#include "check/python_plots.hpp"

#include <cstdlib>
#include <vector>

#include "check/shell_quote.hpp"

namespace heat {

std::string python_with_matplotlib() {
  const char* chosen = std::getenv("HEATRK4_PYTHON");
  const std::vector<std::string> pythons =
      chosen && *chosen ? std::vector<std::string>{chosen} : std::vector<std::string>{"python3", "/usr/bin/python3"};
  for (const std::string& python : pythons) {
    const std::string probe = shell_quote(python) + " -c 'import matplotlib' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return python;
  }
  return "";
}

}  // namespace heat
