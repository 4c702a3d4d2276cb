// The live progress line on stderr: steps done, rate, time left and, for a run, the snapshots not
// yet written. Quiet for short work (it appears only after a second), rewritten in place on a
// terminal, and at most one line every few seconds when stderr is a file or pipe.
#pragma once

#include <chrono>
#include <string>

#include "core/seconds.hpp"

namespace heat {

class ProgressLine {
 public:
  // `quiet_for`: how long work goes before the line appears.
  ProgressLine(std::string label, bool enabled, std::chrono::duration<double> quiet_for = std::chrono::seconds(1));
  ~ProgressLine();
  void update(int done, int total, double busy_seconds, int pending_writes);
  // For steps that write no snapshots (--check's reference).
  void update(int done, int total, double busy_seconds);
  void finish();

 private:
  void show(int done, int total, double busy_seconds, const std::string& tail);

  std::string label_;
  bool enabled_, terminal_, shown_ = false;
  double quiet_seconds_;
  WallClock::time_point start_, last_;
};

}  // namespace heat
