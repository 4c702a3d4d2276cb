#include "check/norms.hpp"

#include <cstdio>

namespace heat {

std::string describe(const FieldDifference& d) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "max abs %.3e, max rel %.3e, rel L2 %.3e, worst at (%d,%d,%d): %.17g vs %.17g (%.2f of tolerance)",
                d.max_abs, d.max_rel, d.rel_l2, d.worst.i, d.worst.j, d.worst.k, d.worst.value, d.worst.reference,
                d.worst_ratio);
  std::string out = buf;
  if (d.nonfinite_value || d.nonfinite_reference)
    out += ", non-finite: " + std::to_string(d.nonfinite_value) + " vs " + std::to_string(d.nonfinite_reference);
  return out;
}

}  // namespace heat
