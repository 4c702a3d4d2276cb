// Point arrays of VTKHDF files that must lie on the run's grid: a file source's q (--source
// file:F.hdf:ARRAY) and the material fields (--conductivity-file, --heat-capacity-file,
// --material-labels), checked before any is read and read as --init file reads its field.
#pragma once

#include <string>

#include "core/problem.hpp"

namespace heat {

// InputError beginning with `named` ("--source 'file:q.hdf:q': ") where `file` cannot be read, is on
// another grid (points or spacing) than `run`, saying `rule` ("a source file must hold q on the
// run's grid"), or has no point array `array`.
void require_array_on_grid(const std::string& file, const std::string& array, const Grid& run,
                           const std::string& named, const std::string& rule);

}  // namespace heat
