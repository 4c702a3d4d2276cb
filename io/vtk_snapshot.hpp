// VTK XML ImageData snapshots through VTK's own vtkXMLImageDataWriter: one .vti of the whole grid,
// or on a distributed run one .vti piece per rank, which a .pvti joins into one image.
// Compiled only when the build has VTK (HEAT_HAVE_VTK); no_vtk.cpp stands in otherwise.
#pragma once

#include <string>

#include "core/field.hpp"
#include "core/problem.hpp"

namespace heat {

// True when this build links VTK.
bool built_with_vtk();

// Writes the file at `path` exactly (safe naming is the caller's business): point array u in
// the field's precision, raw appended binary, zlib level `compress` (0: none), and field data
// TimeValue and step. Throws RunError when VTK reports a failure.
template <typename T>
void write_vti_file(const std::string& path, const Field<T>& u, const Grid& grid, int step, double time, int compress);

// One piece of a distributed snapshot, written like write_vti_file: `planes` holds the whole
// grid's planes [z_begin, z_begin + planes.nz()), and the file's WholeExtent and piece Extent are
// those planes, as vtkXMLPImageDataWriter writes its pieces (the .pvti holds the whole extent).
template <typename T>
void write_vti_piece_file(const std::string& path, const Field<T>& planes, const Grid& whole, int z_begin, int step,
                          double time, int compress);

}  // namespace heat
