#include "io/output_paths.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <limits>

#include "io/monitor_csv.hpp"
#include "io/output_lock.hpp"
#include "io/stale_files.hpp"
#include "io/output_target.hpp"
#include "io/safe_write.hpp"
#include "io/series_files.hpp"
#include "core/errors.hpp"

namespace heat {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse(const std::string& option, const std::string& path, int error, const std::string& detail) {
  throw InputError(option + " '" + path + "': " + std::strerror(error) + detail);
}

const char* const kProbeName = ".heatrk4-write-test";

// Creates and removes a file in `directory`, which then gets its modification time back; the
// errno of the failure, or 0. The name follows the temporary-file pattern, so a run killed in
// between leaves nothing a later run keeps.
int probe_file_creation(const std::string& directory) {
  const timespec before = modification_time(directory);
  const std::string probe = temporary_name_for((fs::path(directory) / kProbeName).string());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return errno;
  ::close(fd);
  ::unlink(probe.c_str());
  restore_modification_time(directory, before);
  return 0;
}

// The directory itself when it exists, else the nearest existing one above it ("." for a
// relative path whose first component is missing).
fs::path nearest_existing(const fs::path& path) {
  fs::path at = path;
  std::error_code ec;
  while (!at.empty() && !fs::exists(at, ec)) at = at.parent_path();
  return at.empty() ? fs::path(".") : at;
}

void require_directory_takes_files(const std::string& path, const fs::path& directory, const std::string& option) {
  std::error_code ec;
  if (!fs::is_directory(directory, ec))
    refuse(option, path, ENOTDIR, directory == fs::path(path) ? "" : " (" + directory.string() + " is not a directory)");
  if (const int error = probe_file_creation(directory.string()))
    refuse(option, path, error, " (cannot create a file in " + directory.string() + ")");
}

// The longest name a run writes into its output directory, as it is being written: a slab file
// of the largest step an int holds, from a run of a million ranks, under its temporary name.
std::string longest_name_written_in_a_directory() {
  return temporary_name_for(slab_file_name(std::numeric_limits<int>::max(), 999999, 1000000));
}

// A long name as a message shows it: its two ends.
std::string shortened(const std::string& name) {
  return name.size() <= 60 ? name : name.substr(0, 24) + "..." + name.substr(name.size() - 24);
}

// `written`, a name the run will hand to the system, must have no part longer than the file
// system's NAME_MAX (asked of `existing`, the nearest directory there) and be shorter than
// PATH_MAX: otherwise the write fails only once the run has done its work.
void require_name_fits(const std::string& written, const fs::path& existing, const std::string& option,
                       const std::string& path) {
  const long asked = ::pathconf(existing.c_str(), _PC_NAME_MAX);
  const std::size_t name_max = asked > 0 ? std::size_t(asked) : NAME_MAX;
  for (const auto& part : fs::path(written))
    if (const std::string name = part.string(); name.size() > name_max)
      refuse(option, path, ENAMETOOLONG,
             " (heatrk4 writes the name " + shortened(name) + ", " + std::to_string(name.size()) +
                 " characters: more than NAME_MAX, " + std::to_string(name_max) + "): choose a shorter name");
  if (written.size() + 1 > PATH_MAX)
    refuse(option, path, ENAMETOOLONG,
           " (the longest path heatrk4 writes there is " + std::to_string(written.size()) +
               " characters, and PATH_MAX, " + std::to_string(PATH_MAX) + ", allows " +
               std::to_string(PATH_MAX - 1) + " and the terminating null): choose a shorter path");
}

bool is_run_file(const std::string& name) {
  const auto ends_with = [&](const std::string& end) {
    return name.size() > end.size() && name.compare(name.size() - end.size(), end.size(), end) == 0;
  };
  return name == "heat.hdf.series" || name == "heat.pvd" || name == kMonitorFileName || name == kMaterialsFileName ||
         (step_from_snapshot_name(name) >= 0 && (ends_with(".hdf") || ends_with(".vti") || ends_with(".pvti"))) ||
         step_from_slab_file_name(name) >= 0 || step_from_vti_piece_name(name) >= 0;
}

}  // namespace

bool is_written_by_heatrk4(const std::string& name) {
  return name == kProbeName || name == kOutputLockName || name == kTrashName || is_run_file(name);
}

namespace {
// The path with every existing part resolved (symlinks, ".", ".."), made absolute.
fs::path resolved(const std::string& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  if (ec) return fs::path(path).lexically_normal();
  const fs::path canonical = fs::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : canonical;
}

// "F" for a final name heatrk4 writes, and "F.tmp-PID" for one being written.
bool is_heatrk4_file_name(const std::string& name) {
  const auto at = name.rfind(".tmp-");
  return is_written_by_heatrk4(at == std::string::npos ? name : name.substr(0, at));
}
}  // namespace

bool same_path(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return resolved(a) == resolved(b);
}

void require_output_apart(const RolePath& output, const std::vector<RolePath>& others,
                          const std::string& output_directory) {
  const std::string named = output.role + " '" + output.path + "'";
  for (const auto& input : others)
    if (!input.path.empty() && same_path(output.path, input.path))
      throw InputError(named + " names the same file as " + input.role + " '" + input.path +
                       "', which the run would lose: choose another " + output.role + " path");
  if (output_directory.empty()) return;
  if (same_path(output.path, output_directory))
    throw InputError(named + " is the --output directory: choose a file outside it, or a name heatrk4 does not "
                     "write there");
  const fs::path file = resolved(output.path);
  const std::string name = file.filename().string();
  if (same_path(file.parent_path().string(), output_directory) && is_heatrk4_file_name(name))
    throw InputError(named + " is " + name + " in the --output directory '" + output_directory +
                     "', a file of the run's snapshots: choose another " + output.role + " path");
}

void require_writable_directory(const std::string& directory, const std::string& option) {
  if (directory.empty()) refuse(option, directory, ENOENT, " (an empty path names no directory)");
  const fs::path existing = nearest_existing(directory);
  require_name_fits((fs::path(directory) / longest_name_written_in_a_directory()).string(), existing, option,
                    directory);
  require_directory_takes_files(directory, existing, option);
}

void require_writable_file(const std::string& path, const std::string& option) {
  if (path.empty()) refuse(option, path, ENOENT, " (an empty path names no file)");
  const OutputTarget target = resolve_output_target(path, option);
  if (target.kind == OutputTarget::Kind::Descriptor) return;
  if (target.kind == OutputTarget::Kind::InPlace) {
    // Asked, not opened: opening a device or FIFO can block or act (a tape rewinds).
    if (::access(target.path.c_str(), W_OK) != 0) refuse(option, path, errno, "");
    return;
  }
  // A directory not there yet (the --output directory, say) is created when the file is written.
  const fs::path existing = nearest_existing(fs::path(target.path).parent_path());
  require_name_fits(temporary_name_for(target.path), existing, option, path);
  require_directory_takes_files(path, existing, option);
  if (target.kind == OutputTarget::Kind::RegularFile) {
    // Opened without truncating: the check must not change the file.
    const int fd = ::open(target.path.c_str(), O_WRONLY);
    if (fd < 0) refuse(option, path, errno, "");
    ::close(fd);
  }
}

std::vector<std::string> run_files_in(const std::string& directory) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory, ec))
    if (const std::string name = entry.path().filename().string(); is_run_file(name)) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace heat
