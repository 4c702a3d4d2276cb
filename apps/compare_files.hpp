// heatrk4 compare's work without its printing: every point array of two VTKHDF ImageData files
// compared point by point (B the reference), for the command (apps/compare_command.cpp) and the
// Python module's heatrk4.compare (python/), which returns the same report as a dict.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "io/input_file.hpp"
#include "check/norms.hpp"

namespace heat {

struct ArrayComparison {
  std::string name;
  bool a_float = false, b_float = false;  // the stored precisions
  double rtol = 0, atol = 0;              // as applied (the defaults resolved)
  FieldDifference difference;
  std::size_t points = 0;
  std::size_t matching_nonfinite = 0;  // NaN/Inf at the same point of both, counted as equal
};

struct FileComparison {
  ImageFileInfo a, b;
  std::vector<ArrayComparison> arrays;  // the arrays both files hold, in A's order
  std::vector<std::string> only_in_a, only_in_b;
  bool agree = false;
};

// Negative tolerances take the default for the stored precisions (float's when either is float).
// Throws InputError for unreadable files, different grids or no array in common.
FileComparison compare_files(const std::string& file_a, const std::string& file_b, double rtol, double atol);

// "<nx> x <ny> x <nz> points, spacing hx, hy, hz"
std::string grid_text(const Grid& g);

}  // namespace heat
