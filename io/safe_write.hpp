// Safe writes (docs/design.md §4): a file is written under a temporary name in its final
// directory and renamed over the final name only when complete, so a crash or a full disk never
// leaves a truncated file under a final name and never damages the file it would replace.
#pragma once

#include <functional>
#include <string>

namespace heat {

// One file being written. The writer fills temporary_path(), then calls commit(); if commit()
// is never reached (an exception on the way), the destructor removes the temporary file.
class PendingFile {
 public:
  explicit PendingFile(std::string final_path);
  ~PendingFile();
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

  const std::string& temporary_path() const { return temporary_path_; }
  const std::string& final_path() const { return final_path_; }
  // Flushes the file to disk, then renames it over the final name. Throws RunError.
  void commit();
  // write_to(temporary_path()). A failure for want of room (a full disk, a file size limit) is
  // reported as that first, naming the final file, with the writer's detail after it.
  void fill(const std::function<void(const std::string& temporary_path)>& write_to);
  // fill(write_to), then before_commit() (when given), then commit(), a failed commit reported
  // as fill's are.
  void write(const std::function<void(const std::string& temporary_path)>& write_to,
             const std::function<void()>& before_commit = {});

 private:
  std::string final_path_;
  std::string temporary_path_;
  bool committed_ = false;
};

// Writes a small text file (the series files) the same safe way. Throws RunError.
void write_text_file_safely(const std::string& final_path, const std::string& text);

// Writes all of `text` to the open descriptor `fd` (short writes, EINTR, and a non-blocking one's
// EAGAIN waited out). Throws RunError naming `shown`, the file as the user named it.
void write_all_to(int fd, const std::string& text, const std::string& shown);

// "no space left on device writing PATH (DETAIL)" when `detail`, a writer's failure message,
// carries the system's reason for a full disk (ENOSPC) or a file size limit (EFBIG, also what a
// write past `ulimit -f` fails with once SIGXFSZ is ignored); else `detail` unchanged.
std::string describe_write_failure(const std::string& path, const std::string& detail);

// The temporary name a file is written under ("F.tmp-PID"): the pid keeps two runs writing into
// one directory apart, and tells a later run whether the writer still exists.
std::string temporary_name_for(const std::string& final_path);

// Removes the temporary files in `directory` whose writing process no longer exists (a run
// killed with SIGKILL cannot remove its own) and whose final name `is_ours` accepts, so a user's
// own "notes.tmp-123" is never touched. Files of live processes are left alone.
void remove_abandoned_temporary_files(const std::string& directory,
                                      const std::function<bool(const std::string&)>& is_ours);

}  // namespace heat
