// Where a file the user names (--json) is written, by what that name is (docs/design.md §4).
// A regular file, or a name not there yet, is replaced safely (a temporary file renamed over it);
// anything else is written in place and never replaced: standard output ("-", /dev/stdout,
// /dev/fd/N keep the shell's redirection, `>>` included), a character or block device, a FIFO.
// A symbolic link is never replaced: the rule applies to what it names.
#pragma once

#include <string>

namespace heat {

struct OutputTarget {
  enum class Kind {
    NewFile,      // nothing there yet: created under a temporary name and renamed
    RegularFile,  // renamed over, at `path`, the file itself (its links resolved)
    InPlace,      // a device or FIFO: opened for writing at `path` and written
    Descriptor,   // one of this process's open files (standard output): written to `descriptor`
  };
  Kind kind = Kind::NewFile;
  std::string path;
  int descriptor = -1;
};

// What `path` names, for writing. Throws InputError naming `option`, the path and the reason for
// a name nothing can be written to: a directory, a link to nothing (heatrk4 does not create a
// link's target), a loop of links, a socket, a file descriptor not open for writing, another
// process's file descriptor.
OutputTarget resolve_output_target(const std::string& path, const std::string& option);

// Writes `text` to the target as its kind says. Throws RunError naming `shown` (the name the
// user gave) and the reason (a full disk, /dev/full's "No space left on device").
void write_text_to_target(const OutputTarget& target, const std::string& shown, const std::string& text);

// Both, for a write at the end of a run: the path was checked before any work, so one that
// cannot take the text now (changed since) is a RunError (exit 3) like any failed write.
void write_named_output(const std::string& path, const std::string& option, const std::string& text);

}  // namespace heat
