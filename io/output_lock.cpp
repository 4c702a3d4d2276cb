#include "io/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/errors.hpp"

namespace heat {

namespace fs = std::filesystem;

namespace {

// The directories `directory` needs that are missing, deepest first; then creates them.
std::vector<std::string> create_missing(const std::string& directory) {
  std::vector<std::string> missing;
  std::error_code ec;
  for (fs::path at = fs::path(directory).lexically_normal(); !at.empty() && !fs::exists(at, ec);
       at = at.parent_path())
    missing.push_back(at.string());
  fs::create_directories(directory, ec);
  if (ec) {
    // A link to nothing on the way makes create_directories say "File exists": name the link.
    for (fs::path at = fs::path(directory).lexically_normal(); !at.empty(); at = at.parent_path()) {
      std::error_code link_ec;
      if (fs::is_symlink(at, link_ec) && !fs::exists(at, link_ec))
        throw InputError("--output '" + directory + "': '" + at.string() + "' is a link to '" +
                         fs::read_symlink(at, link_ec).string() +
                         "', which does not exist: create that directory or choose another --output");
      if (at == at.parent_path()) break;
    }
    throw InputError("--output '" + directory + "': cannot create it: " + ec.message());
  }
  return missing;
}

void remove_if_empty(const std::vector<std::string>& directories) {
  for (const auto& directory : directories) ::rmdir(directory.c_str());  // fails, as it should, once not empty
}

std::string holder_written_in(int fd) {
  char text[256] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  std::string holder(text, n > 0 ? std::size_t(n) : 0);
  while (!holder.empty() && holder.back() == '\n') holder.pop_back();
  return holder.empty() ? "which has not written its pid yet" : holder;
}

std::string this_process() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return "pid " + std::to_string(::getpid()) + " on " + host + "\n";
}

// " (to TARGET)" for the message about a link found at `path`.
std::string link_target_of(const std::string& path) {
  std::error_code ec;
  const fs::path target = fs::read_symlink(path, ec);
  return ec ? "" : " (to " + target.string() + ")";
}

// Why the file open at fd is not one a lock may be written into (a FIFO, a device, a file with
// other names, whose contents the pid would replace); "" for a plain file of one name.
std::string not_a_lock_file(int fd) {
  struct stat opened;
  if (::fstat(fd, &opened) != 0) return std::string("not examinable (") + std::strerror(errno) + ")";
  if (!S_ISREG(opened.st_mode)) return "not a regular file";
  if (opened.st_nlink > 1) return "a file with " + std::to_string(opened.st_nlink) + " names (hard links)";
  return "";
}

bool same_time(const timespec& a, const timespec& b) {
  return a.tv_nsec != UTIME_OMIT && a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

// Whether fd is still the file at path: a run that ends removes its lock file, and a lock taken
// on the file it removed, opened just before, would hold nothing.
bool is_file_at(int fd, const std::string& path) {
  struct stat opened, named;
  return ::fstat(fd, &opened) == 0 && ::lstat(path.c_str(), &named) == 0 && opened.st_dev == named.st_dev &&
         opened.st_ino == named.st_ino;
}

}  // namespace

timespec modification_time(const std::string& directory) {
  struct stat s;
  if (::stat(directory.c_str(), &s) != 0) return timespec{0, UTIME_OMIT};
  return s.st_mtim;
}

void restore_modification_time(const std::string& directory, const timespec& time) {
  if (time.tv_nsec == UTIME_OMIT) return;
  const timespec times[2] = {{0, UTIME_OMIT}, time};
  ::utimensat(AT_FDCWD, directory.c_str(), times, 0);
}

OutputDirectoryLock::OutputDirectoryLock(const std::string& directory)
    : path_((fs::path(directory) / kOutputLockName).string()),
      created_(create_missing(directory)),
      directory_(directory),
      modified_before_(modification_time(directory)) {
  const std::string option = "--output '" + directory + "'";
  for (int attempt = 0; fd_ < 0; ++attempt) {
    // O_NOFOLLOW: a link planted under the lock's name would have the pid written over (or a
    // dangling one's target created) wherever it points. O_NONBLOCK: a FIFO there cannot hold
    // the open until it is refused below.
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0 && errno == ELOOP) {
      remove_if_empty(created_);
      throw InputError(option + ": the lock file " + path_ + " is a symbolic link" + link_target_of(path_) +
                       ", which heatrk4 does not follow: remove it (a run's lock file is a plain file)");
    }
    // A socket cannot be opened (ENXIO, "No such device or address"): named as what it is.
    struct stat named;
    if (fd < 0 && errno == ENXIO && ::lstat(path_.c_str(), &named) == 0 && S_ISSOCK(named.st_mode)) {
      remove_if_empty(created_);
      throw InputError(option + ": the lock file " + path_ +
                       " is a socket, which heatrk4 would write its pid into: remove it (a run's lock file is a "
                       "plain file)");
    }
    if (fd < 0 || attempt == 100) {
      const int error = fd < 0 ? errno : EBUSY;
      if (fd >= 0) ::close(fd);
      remove_if_empty(created_);
      throw InputError(option + ": cannot create the lock file " + path_ + ": " + std::strerror(error));
    }
    if (const std::string why = not_a_lock_file(fd); !why.empty()) {
      ::close(fd);
      remove_if_empty(created_);
      throw InputError(option + ": the lock file " + path_ + " is " + why +
                       ", which heatrk4 would write its pid into: remove it (a run's lock file is a plain file)");
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const std::string holder = holder_written_in(fd);
      ::close(fd);
      // A file system without locks (some network ones) cannot keep two runs apart; refusing
      // every run there would be worse than running unguarded.
      if (error == ENOLCK || error == EOPNOTSUPP || error == ENOSYS) return;
      remove_if_empty(created_);
      if (error == EWOULDBLOCK)
        throw InputError(option + " is in use by another heatrk4 run (" + holder +
                         "): wait for it to end, or choose another --output");
      throw InputError(option + ": cannot lock " + path_ + ": " + std::strerror(error));
    }
    if (is_file_at(fd, path_)) fd_ = fd;
    else ::close(fd);
  }
  const std::string holder = this_process();
  // Only a refused run's message reads it: a failed write here costs nothing else.
  const ssize_t written = ::ftruncate(fd_, 0) == 0 ? ::pwrite(fd_, holder.data(), holder.size(), 0) : -1;
  (void)written;
  modified_with_lock_ = modification_time(directory);
}

OutputDirectoryLock::~OutputDirectoryLock() { release(); }

OutputDirectoryLock::OutputDirectoryLock(OutputDirectoryLock&& other) noexcept
    : fd_(other.fd_),
      path_(std::move(other.path_)),
      created_(std::move(other.created_)),
      directory_(std::move(other.directory_)),
      modified_before_(other.modified_before_),
      modified_with_lock_(other.modified_with_lock_) {
  other.fd_ = -1;
  other.created_.clear();
}

OutputDirectoryLock& OutputDirectoryLock::operator=(OutputDirectoryLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    created_ = std::move(other.created_);
    directory_ = std::move(other.directory_);
    modified_before_ = other.modified_before_;
    modified_with_lock_ = other.modified_with_lock_;
    other.fd_ = -1;
    other.created_.clear();
  }
  return *this;
}

void OutputDirectoryLock::release() {
  if (fd_ >= 0) {
    // Nothing but the lock changed the directory's entries since it was taken.
    const bool untouched = created_.empty() && same_time(modified_with_lock_, modification_time(directory_));
    // Removed while still locked, so the next run cannot lock this file after we let it go.
    ::unlink(path_.c_str());
    if (untouched) restore_modification_time(directory_, modified_before_);
    ::close(fd_);
    fd_ = -1;
  }
  remove_if_empty(created_);
  created_.clear();
}

}  // namespace heat
