// Another run's snapshots in an output directory that a new run replaces (--overwrite, or the
// default directory): set aside at once, removed beside the run (docs/design.md §4, "Replacing a
// run's snapshots"). Removing 9.5 GB of snapshots takes about a second; renaming them takes
// microseconds, so the run's own work never waits for the removal.
#pragma once

#include <string>
#include <thread>
#include <vector>

namespace heat {

// The directory inside an output directory that replaced files are moved into before they are
// removed. Whatever it holds is garbage: a run that was killed before it had removed them leaves
// it behind, and the next run that writes a snapshot there removes it.
inline const char* const kTrashName = ".heatrk4-trash";

// "" when `directory` has no trash entry or a plain directory under that name; otherwise why it
// cannot be used (a symbolic link, a file), for the run's checks to refuse before any work: a link
// there would move the replaced files out of the output directory.
std::string unusable_trash_reason(const std::string& directory);

// Whether `directory` holds a trash entry (of any kind).
bool has_trash(const std::string& directory);

// Moves `names` (entries of `directory`, in the order given) into its trash directory, made
// when missing, then removes the trash's entries and the trash itself on a thread of its own.
// Entries are removed one by one and never recursively: a directory in the trash that is not
// empty stays, and is reported. A file that cannot be moved is RunError, thrown by start() (the
// ones moved before it stay in the trash, which the next run removes).
class StaleFileRemoval {
 public:
  StaleFileRemoval() = default;
  ~StaleFileRemoval();  // waits for the removal
  StaleFileRemoval(const StaleFileRemoval&) = delete;
  StaleFileRemoval& operator=(const StaleFileRemoval&) = delete;

  void start(const std::string& directory, const std::vector<std::string>& names);
  // Waits for the removal; the seconds this call waited. Then seconds() is the removal's own time
  // (on its thread, beside the run) and problem() what it could not remove ("" when nothing).
  double finish();
  bool started() const { return started_; }
  std::size_t files_set_aside() const { return set_aside_; }
  double seconds() const { return seconds_; }
  const std::string& problem() const { return problem_; }

 private:
  void remove_trash();
  bool started_ = false;
  std::size_t set_aside_ = 0;
  int directory_fd_ = -1, trash_fd_ = -1;
  std::string trash_path_;
  std::thread thread_;
  double seconds_ = 0;
  std::string problem_;
};

}  // namespace heat
