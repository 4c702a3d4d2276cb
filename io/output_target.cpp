#include "io/output_target.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "io/safe_write.hpp"
#include "core/errors.hpp"

namespace heat {

namespace fs = std::filesystem;

namespace {

// Links followed before a chain counts as a loop (the kernel's own limit for one lookup).
constexpr int kMostLinksFollowed = 40;

[[noreturn]] void refuse(const std::string& option, const std::string& path, const std::string& detail) {
  throw InputError(option + " '" + path + "': " + detail);
}

bool all_digits(const std::string& text) {
  return !text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
}

// The descriptor number when `path` is an entry of a process's /proc/<pid>/fd directory, where
// /dev/stdout, /dev/fd/N and /proc/self/fd/N all lead; its process in `owner`. -1 otherwise.
// Such an entry looks like a link to a file (or to "pipe:[N]"), but opening it opens the
// descriptor's file anew, and renaming over what it shows would replace the shell's redirection.
int descriptor_named_by(const fs::path& path, long& owner) {
  std::error_code ec;
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const fs::path directory = fs::canonical(parent, ec);
  const std::string name = path.filename().string();
  if (ec || !all_digits(name)) return -1;
  std::vector<std::string> parts;
  for (const auto& part : directory) parts.push_back(part.string());
  // "/", "proc", PID, "fd" or "/", "proc", PID, "task", TID, "fd"
  const bool process_fd = parts.size() == 4 && parts[3] == "fd";
  const bool thread_fd = parts.size() == 6 && parts[3] == "task" && all_digits(parts[4]) && parts[5] == "fd";
  if (parts.size() < 4 || parts[1] != "proc" || !all_digits(parts[2]) || !(process_fd || thread_fd)) return -1;
  owner = std::stol(parts[2]);
  return int(std::stol(name));
}

OutputTarget own_descriptor(const std::string& path, const std::string& option, long owner, int descriptor) {
  if (owner != long(::getpid()))
    refuse(option, path, "names file descriptor " + std::to_string(descriptor) + " of another process (" +
                             std::to_string(owner) + "): heatrk4 writes only to its own");
  const int flags = ::fcntl(descriptor, F_GETFL);
  if (flags < 0)
    refuse(option, path, "file descriptor " + std::to_string(descriptor) + " is not open: redirect it, or name a file");
  if ((flags & O_ACCMODE) == O_RDONLY)
    refuse(option, path, "file descriptor " + std::to_string(descriptor) + " is open for reading only");
  return {OutputTarget::Kind::Descriptor, path, descriptor};
}

}  // namespace

OutputTarget resolve_output_target(const std::string& path, const std::string& option) {
  if (path == "-") return own_descriptor(path, option, long(::getpid()), STDOUT_FILENO);
  // Follow the chain of links by hand: a link into /proc/<pid>/fd must be seen as one, and a
  // link to nothing must not have its target created.
  fs::path at = path;
  for (int followed = 0;; ++followed) {
    long owner = 0;
    if (const int descriptor = descriptor_named_by(at, owner); descriptor >= 0)
      return own_descriptor(path, option, owner, descriptor);
    struct stat link;
    if (::lstat(at.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) break;
    if (followed == kMostLinksFollowed) refuse(option, path, std::strerror(ELOOP));
    std::vector<char> text(std::size_t(link.st_size > 0 ? link.st_size : 4095) + 1);
    const ssize_t length = ::readlink(at.c_str(), text.data(), text.size());
    if (length < 0) refuse(option, path, std::string("cannot read the link: ") + std::strerror(errno));
    const fs::path next(std::string(text.data(), std::size_t(length)));
    at = next.is_absolute() ? next : at.parent_path() / next;
  }
  struct stat named;
  if (::stat(at.c_str(), &named) != 0) {
    if (errno == ENOENT && at != fs::path(path))
      refuse(option, path,
             "is a symbolic link to '" + at.string() +
                 "', which does not exist: heatrk4 does not create a link's target; name the file itself");
    // Not there yet (or not reachable: the directory checks say why).
    return {OutputTarget::Kind::NewFile, path, -1};
  }
  if (S_ISDIR(named.st_mode)) refuse(option, path, std::strerror(EISDIR));
  if (S_ISSOCK(named.st_mode)) refuse(option, path, "is a socket, which cannot be opened as a file");
  if (!S_ISREG(named.st_mode)) return {OutputTarget::Kind::InPlace, at.string(), -1};
  std::error_code ec;
  const fs::path file = fs::canonical(at, ec);
  return {OutputTarget::Kind::RegularFile, ec ? at.string() : file.string(), -1};
}

void write_text_to_target(const OutputTarget& target, const std::string& shown, const std::string& text) {
  switch (target.kind) {
    case OutputTarget::Kind::Descriptor:
      // What the program printed through stdio goes first, as on the terminal.
      if (target.descriptor == STDOUT_FILENO) std::fflush(stdout);
      if (target.descriptor == STDERR_FILENO) std::fflush(stderr);
      write_all_to(target.descriptor, text, shown);
      return;
    case OutputTarget::Kind::InPlace: {
      // No O_TRUNC, no O_CREAT: a device or FIFO is written, never made or emptied. O_NONBLOCK:
      // a FIFO that no process reads is refused (ENXIO) rather than waited on forever, past the
      // stop signals' handling; the writes then wait for the reader as usual (write_all_to).
      const int fd = ::open(target.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
      if (fd < 0 && errno == ENXIO)
        throw RunError("cannot write " + shown + ": it is a FIFO that no process is reading");
      if (fd < 0) throw RunError("cannot open " + shown + " for writing: " + std::strerror(errno));
      try {
        write_all_to(fd, text, shown);
      } catch (...) {
        ::close(fd);
        throw;
      }
      if (::close(fd) != 0) throw RunError("cannot close " + shown + ": " + std::strerror(errno));
      return;
    }
    case OutputTarget::Kind::NewFile:
    case OutputTarget::Kind::RegularFile: {
      // Its directory may be the --output directory, which exists only once a snapshot was written.
      const fs::path directory = fs::path(target.path).parent_path();
      std::error_code ec;
      if (!directory.empty()) fs::create_directories(directory, ec);
      if (ec) throw RunError("cannot create the directory of " + shown + ": " + ec.message());
      write_text_file_safely(target.path, text);
      return;
    }
  }
}

void write_named_output(const std::string& path, const std::string& option, const std::string& text) {
  OutputTarget target;
  try {
    target = resolve_output_target(path, option);
  } catch (const InputError& e) {
    throw RunError(e.what());
  }
  write_text_to_target(target, path == "-" ? "standard output" : path, text);
}

}  // namespace heat
