// One HDF5 snapshot in the VTKHDF 1.0 ImageData layout of design section 4, which ParaView 5.11
// and later open directly (it picks the VTKHDF reader by the .hdf extension).
#pragma once

#include <string>

#include "io/snapshots.hpp"
#include "solver/field.hpp"

namespace heat {

// True when this build links HDF5 (HEAT_HAVE_HDF5); no_hdf5.cpp stands in otherwise.
bool built_with_hdf5();

// Writes the file at `path` exactly (safe naming is the caller's business). The field is stored
// in its own precision under /VTKHDF/PointData/u, chunked, gzip level `compress` (0: none).
// Throws RunError with HDF5's reason when anything fails.
template <typename T>
void write_vtkhdf_file(const std::string& path, const Field<T>& u, const RunDescription& run, int step, double time,
                       int compress);

// Why gzip cannot be used in this HDF5 build, or empty when it can.
std::string hdf5_gzip_unavailable_reason();

}  // namespace heat
