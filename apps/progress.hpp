// The live progress line on stderr: steps done, rate, time left and snapshots not yet written. Quiet for short work
// (it appears only after a second), rewritten in place on a terminal, and at most one line
// every few seconds when stderr is a file or pipe.
#pragma once

#include <chrono>
#include <string>

namespace heat {

class ProgressLine {
 public:
  ProgressLine(std::string label, bool enabled);
  ~ProgressLine();
  void update(int done, int total, double busy_seconds, int pending_writes);
  void finish();

 private:
  std::string label_;
  bool enabled_, terminal_, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace heat
