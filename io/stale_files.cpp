#include "io/stale_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "core/errors.hpp"
#include "core/seconds.hpp"

namespace heat {

namespace {

std::string trash_path_in(const std::string& directory) {
  return (std::filesystem::path(directory) / kTrashName).string();
}

}  // namespace

std::string unusable_trash_reason(const std::string& directory) {
  const std::string path = trash_path_in(directory);
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return "";
  if (S_ISDIR(st.st_mode)) return "";
  const char* what = S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISREG(st.st_mode) ? "a file" : "not a directory";
  return path + " is " + what +
         ", where heatrk4 moves the snapshots it replaces before removing them: remove it (heatrk4 makes it, "
         "a plain directory)";
}

bool has_trash(const std::string& directory) {
  struct stat st;
  return ::lstat(trash_path_in(directory).c_str(), &st) == 0;
}

StaleFileRemoval::~StaleFileRemoval() { finish(); }

void StaleFileRemoval::start(const std::string& directory, const std::vector<std::string>& names) {
  if (started_) return;
  trash_path_ = trash_path_in(directory);
  directory_fd_ = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd_ < 0)
    throw RunError("cannot open the output directory " + directory + ": " + std::strerror(errno));
  if (::mkdirat(directory_fd_, kTrashName, 0700) != 0 && errno != EEXIST)
    throw RunError("cannot make " + trash_path_ + ": " + std::strerror(errno));
  // O_NOFOLLOW: a link planted under the trash's name must not take the files out of the directory.
  trash_fd_ = ::openat(directory_fd_, kTrashName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (trash_fd_ < 0) throw RunError(unusable_trash_reason(directory) + " (" + std::strerror(errno) + ")");
  started_ = true;
  std::string failure;
  for (const auto& name : names) {
    if (::renameat(directory_fd_, name.c_str(), trash_fd_, name.c_str()) == 0) {
      ++set_aside_;
    } else if (errno != ENOENT) {
      failure = "cannot move " + (std::filesystem::path(directory) / name).string() + " into " + trash_path_ + ": " +
                std::strerror(errno);
      break;
    }
  }
  // What was moved is removed whether or not the rest could be.
  thread_ = std::thread([this] { remove_trash(); });
  if (!failure.empty()) throw RunError(failure);
}

void StaleFileRemoval::remove_trash() {
  const auto t0 = WallClock::now();
  const auto note = [this](const std::string& text) {
    if (problem_.empty()) problem_ = text;
  };
  if (DIR* listing = ::fdopendir(::dup(trash_fd_))) {
    std::vector<std::string> entries;
    while (const dirent* entry = ::readdir(listing))
      if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
        entries.emplace_back(entry->d_name);
    ::closedir(listing);
    for (const auto& name : entries) {
      // Never recursive: a directory is removed only when empty.
      if (::unlinkat(trash_fd_, name.c_str(), 0) == 0 || errno == ENOENT) continue;
      if ((errno == EISDIR || errno == EPERM) && ::unlinkat(trash_fd_, name.c_str(), AT_REMOVEDIR) == 0) continue;
      note("cannot remove " + trash_path_ + "/" + name + ": " + std::strerror(errno));
    }
  } else {
    note("cannot list " + trash_path_ + ": " + std::strerror(errno));
  }
  if (::unlinkat(directory_fd_, kTrashName, AT_REMOVEDIR) != 0 && errno != ENOENT)
    note("cannot remove " + trash_path_ + ": " + std::strerror(errno));
  seconds_ = seconds_since(t0);
}

double StaleFileRemoval::finish() {
  const auto t0 = WallClock::now();
  if (thread_.joinable()) thread_.join();
  for (int* fd : {&trash_fd_, &directory_fd_})
    if (*fd >= 0) ::close(*fd), *fd = -1;
  return seconds_since(t0);
}

}  // namespace heat
