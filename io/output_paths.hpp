// A run's output paths, checked before any work (a bad output path is exit 2, docs/design.md §3),
// and what an output directory already holds.
#pragma once

#include <string>
#include <vector>

namespace heat {

// Throws InputError naming the option, the path and the system's reason unless files can be
// created in `directory`: it creates and removes a file there or, when the directory does not
// exist yet, in the nearest existing directory it would be created under.
void require_writable_directory(const std::string& directory, const std::string& option);

// The same for one file to be written at `path`: its directory (or, while it does not exist, the
// nearest existing one above it) must take a new file, and an existing file there must be writable.
void require_writable_file(const std::string& path, const std::string& option);

// The file beside a run's HDF5 series that holds its material fields (write_materials_file).
inline const char* const kMaterialsFileName = "materials.hdf";

// The names of a run's files in `directory`, in name order: its snapshots (heat_<step>.hdf, .vti,
// .pvti, and the slab files and .vti pieces of distributed ones), series files (heat.hdf.series,
// heat.pvd), monitors (monitors.csv) and material fields (materials.hdf); none when it does not
// exist. A new run there replaces them
// all or is refused, so that no file of another run is left beside its own.
std::vector<std::string> run_files_in(const std::string& directory);

// Whether heatrk4 writes files of this name into an output directory: the run's files above,
// the probe of require_writable_directory, the lock of OutputDirectoryLock and the trash of
// StaleFileRemoval.
bool is_written_by_heatrk4(const std::string& name);

// One path a run reads or writes, with the option that names it ("--restart", "--config").
struct RolePath {
  std::string role;
  std::string path;
};

// Whether two paths name one file or directory: after symlinks, "." and ".." are resolved, and
// for existing files by their inode (hard links too). Either may not exist yet.
bool same_path(const std::string& a, const std::string& b);

// Throws InputError naming both roles when `output` names one of `others` (a file the run reads,
// or another it writes), is `output_directory` itself or a file heatrk4 writes there (a snapshot,
// a slab file, a series file, the lock; `output_directory` empty: the run writes no snapshots).
void require_output_apart(const RolePath& output, const std::vector<RolePath>& others,
                          const std::string& output_directory);

}  // namespace heat
