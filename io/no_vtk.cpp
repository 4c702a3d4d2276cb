// Compiled instead of vtk_snapshot.cpp when the build has no VTK. The run refuses --format vtk
// and both before any work (output_format_unavailable_reason), so these are never reached from
// the command line; they throw rather than write nothing silently.
#include "io/vtk_snapshot.hpp"
#include "core/errors.hpp"

namespace heat {

bool built_with_vtk() { return false; }

template <typename T>
void write_vti_file(const std::string& path, const Field<T>&, const Grid&, int, double, int) {
  throw InputError("cannot write " + path + ": this build has no VTK (reconfigure with libvtk9-dev installed)");
}

template <typename T>
void write_vti_piece_file(const std::string& path, const Field<T>&, const Grid&, int, int, double, int) {
  throw InputError("cannot write " + path + ": this build has no VTK (reconfigure with libvtk9-dev installed)");
}

template void write_vti_piece_file<float>(const std::string&, const Field<float>&, const Grid&, int, int, double, int);
template void write_vti_piece_file<double>(const std::string&, const Field<double>&, const Grid&, int, int, double,
                                           int);
template void write_vti_file<float>(const std::string&, const Field<float>&, const Grid&, int, double, int);
template void write_vti_file<double>(const std::string&, const Field<double>&, const Grid&, int, double, int);

}  // namespace heat
