// Compiled instead of the HDF5 sources when the build has no HDF5. The run refuses --format
// hdf5 before any work (output_format_unavailable_reason); reading an input file or comparing
// needs HDF5, so those are refused here with the fix in the message.
#include "io/hdf5_snapshot.hpp"
#include "io/input_file.hpp"
#include "io/run_settings.hpp"
#include "core/errors.hpp"

namespace heat {

namespace {
[[noreturn]] void refuse(const std::string& path) {
  throw InputError(path + ": this build has no HDF5, so it cannot read or write .hdf files: install libhdf5-dev "
                          "and reconfigure");
}
}  // namespace

bool built_with_hdf5() { return false; }
std::string hdf5_gzip_unavailable_reason() { return "this build has no HDF5"; }

template <typename T>
void write_vtkhdf_file(const std::string& path, const SnapshotSource<T>&, const RunDescription&, int, double,
                       const Compression&, GpuZfpEncoder*) {
  refuse(path);
}
template void write_vtkhdf_file<float>(const std::string&, const SnapshotSource<float>&, const RunDescription&, int,
                                       double, const Compression&, GpuZfpEncoder*);
template void write_vtkhdf_file<double>(const std::string&, const SnapshotSource<double>&, const RunDescription&, int,
                                       double, const Compression&, GpuZfpEncoder*);

template <typename T>
void write_slab_file(const std::string& path, const SnapshotSource<T>&, int, int, const Compression&, const SlabIdentity&,
                     GpuZfpEncoder*) {
  refuse(path);
}
template void write_slab_file<float>(const std::string&, const SnapshotSource<float>&, int, int, const Compression&,
                                     const SlabIdentity&, GpuZfpEncoder*);
template void write_slab_file<double>(const std::string&, const SnapshotSource<double>&, int, int, const Compression&,
                                     const SlabIdentity&, GpuZfpEncoder*);
void write_materials_file(const std::string& path, const RunDescription&) { refuse(path); }
void write_point_array_file(const std::string& path, const Grid&, const std::string&, const Field<double>&) {
  refuse(path);
}
void remove_slab_files_of_run(const std::string&, int, int, const std::string&) {}
void write_vtkhdf_virtual_file(const std::string& path, const std::vector<SlabFile>&, bool, const RunDescription&, int,
                               double, const Compression&) {
  refuse(path);
}

LoadedField read_initial_field(const std::string& path, const std::string&) { refuse(path); }
LoadedField open_initial_field(const std::string& path) { refuse(path); }
void read_initial_box(LoadedField&, const std::string& path, const std::string&, const BoxRuns&) { refuse(path); }
ImageFileInfo read_image_file_info(const std::string& path) { refuse(path); }
PointArray read_point_array(const std::string& path, const std::string&) { refuse(path); }
StoredRunSettings read_stored_run_settings(const std::string& path) { refuse(path); }

}  // namespace heat
