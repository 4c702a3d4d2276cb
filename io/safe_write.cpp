#include "io/safe_write.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>

#include "core/errors.hpp"

namespace heat {

namespace {
std::string errno_text() { return std::strerror(errno); }

void flush_to_disk(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw RunError("cannot reopen " + path + " to flush it: " + errno_text());
  const int status = ::fsync(fd);
  const std::string reason = errno_text();
  ::close(fd);
  if (status != 0) throw RunError("cannot flush " + path + " to disk: " + reason);
}

// Makes the rename itself durable; a failure here loses nothing already written, so it is ignored.
void flush_directory_of(const std::string& path) {
  std::string directory = std::filesystem::path(path).parent_path().string();
  if (directory.empty()) directory = ".";
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}
// Asks the kernel, every few milliseconds while a file is being written, to start writing its
// dirty pages to disk. Left alone, the kernel keeps a snapshot's pages in memory (below its
// background threshold, a tenth of memory) until commit()'s fsync, which then writes all of it
// while the writer waits: on the H100 host that was half of an uncompressed run's wall time. Only
// a hint: where the file cannot be opened or the file system has no sync_file_range, the fsync
// does all of the work as before.
class WritebackWhileFilling {
 public:
  explicit WritebackWhileFilling(std::string path) : path_(std::move(path)), thread_([this] { run(); }) {}
  ~WritebackWhileFilling() {
    {
      std::lock_guard<std::mutex> hold(lock_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  WritebackWhileFilling(const WritebackWhileFilling&) = delete;
  WritebackWhileFilling& operator=(const WritebackWhileFilling&) = delete;

 private:
  // About 70 MB of an uncompressed snapshot at the H100 host's ~3 GB/s into the page cache.
  static constexpr std::chrono::milliseconds kInterval{25};

  void run() {
    int fd = -1;
    std::unique_lock<std::mutex> held(lock_);
    while (!wake_.wait_for(held, kInterval, [this] { return done_; })) {
      held.unlock();
      // The writer creates the file after this thread starts: until then, try again next time.
      if (fd < 0) fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd >= 0) ::sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
      held.lock();
    }
    if (fd >= 0) ::close(fd);
  }

  std::string path_;
  std::mutex lock_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: it starts once the members it reads exist
};
}  // namespace

std::string temporary_name_for(const std::string& final_path) {
  return final_path + ".tmp-" + std::to_string(::getpid());
}

void remove_abandoned_temporary_files(const std::string& directory,
                                      const std::function<bool(const std::string&)>& is_ours) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    const std::string name = entry.path().filename().string();
    const auto at = name.rfind(".tmp-");
    if (at == std::string::npos || !is_ours(name.substr(0, at))) continue;
    const std::string digits = name.substr(at + 5);
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = pid_t(std::stol(digits));
    // kill(pid, 0) sends nothing: it only asks whether the process exists (EPERM: it does).
    if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) std::filesystem::remove(entry.path(), ec);
  }
}

PendingFile::PendingFile(std::string final_path)
    : final_path_(std::move(final_path)), temporary_path_(temporary_name_for(final_path_)) {}

PendingFile::~PendingFile() {
  if (!committed_) std::remove(temporary_path_.c_str());
}

void PendingFile::commit() {
  // fsync before rename: otherwise after a power loss the final name can point at an empty file.
  flush_to_disk(temporary_path_);
  if (std::rename(temporary_path_.c_str(), final_path_.c_str()) != 0)
    throw RunError("cannot rename " + temporary_path_ + " to " + final_path_ + ": " + errno_text());
  committed_ = true;
  flush_directory_of(final_path_);
}

void PendingFile::fill(const std::function<void(const std::string& temporary_path)>& write_to) {
  try {
    const WritebackWhileFilling writeback(temporary_path_);
    write_to(temporary_path_);
  } catch (const RunError& e) {
    throw RunError(describe_write_failure(final_path_, e.what()));
  }
}

void PendingFile::write(const std::function<void(const std::string& temporary_path)>& write_to,
                        const std::function<void()>& before_commit) {
  fill(write_to);
  if (before_commit) before_commit();
  try {
    commit();
  } catch (const RunError& e) {
    throw RunError(describe_write_failure(final_path_, e.what()));
  }
}

std::string describe_write_failure(const std::string& path, const std::string& detail) {
  // The writers (HDF5, VTK, ours) word the failure each their own way, but all carry the
  // system's text for the errno: the only part they share.
  for (const auto& [error, what] : {std::pair{ENOSPC, "no space left on device"},
                                    std::pair{EFBIG, "file size limit exceeded"}})
    if (detail.find(std::strerror(error)) != std::string::npos)
      return std::string(what) + " writing " + path + " (" + detail + ")";
  // VTK's writer keeps no errno: it says this for any failed write, a size limit's too.
  if (detail.find("OutOfDiskSpaceError") != std::string::npos)
    return "no space left on device or file size limit exceeded writing " + path + " (" + detail + ")";
  return detail;
}

void write_all_to(int fd, const std::string& text, const std::string& shown) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd ready{fd, POLLOUT, 0};
      ::poll(&ready, 1, -1);
      continue;
    }
    if (n <= 0) throw RunError("cannot write " + shown + ": " + (n < 0 ? errno_text() : "no progress"));
    written += std::size_t(n);
  }
}

void write_text_file_safely(const std::string& final_path, const std::string& text) {
  PendingFile(final_path).write([&](const std::string& temporary_path) {
    const int fd = ::open(temporary_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) throw RunError("cannot create " + temporary_path + ": " + errno_text());
    try {
      write_all_to(fd, text, temporary_path);
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0) throw RunError("cannot close " + temporary_path + ": " + errno_text());
  });
}

}  // namespace heat
