// Numbers in messages: the shortest text that reads back as the value ("32", "0.1",
// "0.032258064516129031"), so an error quotes exactly what was given or stored.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace heat {

inline std::string number_text(double value) {
  char buf[64];
  // A whole number as its digits: the loop below would stop at "2e+01" for 20, which reads back.
  if (std::fabs(value) < 1e15 && value == std::trunc(value)) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    if (std::strtod(buf, nullptr) == value || std::isnan(value)) break;
  }
  return buf;
}

}  // namespace heat
