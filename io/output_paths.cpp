#include "io/output_paths.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "io/safe_write.hpp"
#include "io/series_files.hpp"
#include "solver/errors.hpp"

namespace heat {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse(const std::string& option, const std::string& path, int error, const std::string& detail) {
  throw InputError(option + " '" + path + "': " + std::strerror(error) + detail);
}

const char* const kProbeName = ".heatrk4-write-test";

// Creates and removes a file in `directory`; the errno of the failure, or 0. The name follows
// the temporary-file pattern, so a run killed in between leaves nothing a later run keeps.
int probe_file_creation(const std::string& directory) {
  const std::string probe = temporary_name_for((fs::path(directory) / kProbeName).string());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return errno;
  ::close(fd);
  ::unlink(probe.c_str());
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

bool is_series_file(const std::string& name) {
  const auto ends_with = [&](const std::string& end) {
    return name.size() > end.size() && name.compare(name.size() - end.size(), end.size(), end) == 0;
  };
  return name == "heat.hdf.series" || name == "heat.pvd" ||
         (step_from_snapshot_name(name) >= 0 && (ends_with(".hdf") || ends_with(".vti")));
}

}  // namespace

bool is_written_by_heatrk4(const std::string& name) { return name == kProbeName || is_series_file(name); }

void require_writable_directory(const std::string& directory, const std::string& option) {
  if (directory.empty()) refuse(option, directory, ENOENT, " (an empty path names no directory)");
  require_directory_takes_files(directory, nearest_existing(directory), option);
}

void require_writable_file(const std::string& path, const std::string& option) {
  if (path.empty()) refuse(option, path, ENOENT, " (an empty path names no file)");
  std::error_code ec;
  if (fs::is_directory(path, ec)) refuse(option, path, EISDIR, "");
  // A directory not there yet (the --output directory, say) is created when the file is written.
  require_directory_takes_files(path, nearest_existing(fs::path(path).parent_path()), option);
  if (fs::exists(path, ec)) {
    // Opened without truncating: the check must not change the file.
    const int fd = ::open(path.c_str(), O_WRONLY);
    if (fd < 0) refuse(option, path, errno, "");
    ::close(fd);
  }
}

std::vector<std::string> series_files_in(const std::string& directory) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory, ec))
    if (const std::string name = entry.path().filename().string(); is_series_file(name)) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

void remove_series_files(const std::string& directory) {
  for (const auto& name : series_files_in(directory)) {
    std::error_code ec;
    fs::remove(fs::path(directory) / name, ec);
    if (ec) throw RunError("cannot remove " + (fs::path(directory) / name).string() + ": " + ec.message());
  }
}

}  // namespace heat
