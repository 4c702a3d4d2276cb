// One run at a time in an output directory: two runs writing into one directory at once would
// mix their snapshots and each rewrite the other's series file.
#pragma once

#include <sys/stat.h>

#include <string>
#include <vector>

namespace heat {

// The lock file's name in the output directory. The lock is flock()'s, which the operating
// system releases when the process dies however it dies, so a lock file left behind by a
// killed run blocks nothing; the file only tells a refused run who holds the directory.
inline const char* const kOutputLockName = ".heatrk4.lock";

// A directory's modification time (tv_nsec UTIME_OMIT where it cannot be read), and setting it
// back (nothing where it was unknown): what a probe or a lock that changed nothing else leaves.
timespec modification_time(const std::string& directory);
void restore_modification_time(const std::string& directory, const timespec& time);

// Holds an output directory for the lifetime of the object. Default-constructed: holds nothing.
class OutputDirectoryLock {
 public:
  OutputDirectoryLock() = default;
  // Creates `directory` (and its missing parents) when it does not exist, for the lock to live
  // in; InputError naming the holder's pid and host when another live process holds it, or the
  // reason when the lock file cannot be made.
  explicit OutputDirectoryLock(const std::string& directory);
  // Removes the lock file, then the directories the constructor created if they are still
  // empty: a run that fails before its first snapshot leaves no directory. A directory that
  // was there, in which the run changed nothing but the lock, gets its modification time back:
  // a refused run leaves it as it was.
  ~OutputDirectoryLock();
  OutputDirectoryLock(OutputDirectoryLock&& other) noexcept;
  OutputDirectoryLock& operator=(OutputDirectoryLock&& other) noexcept;
  OutputDirectoryLock(const OutputDirectoryLock&) = delete;
  OutputDirectoryLock& operator=(const OutputDirectoryLock&) = delete;

  bool holds() const { return fd_ >= 0; }

 private:
  void release();
  int fd_ = -1;
  std::string path_;
  std::vector<std::string> created_;  // deepest first
  std::string directory_;
  timespec modified_before_{}, modified_with_lock_{};  // the directory's mtime; tv_nsec UTIME_OMIT: unknown
};

}  // namespace heat
