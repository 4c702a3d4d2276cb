// The run's set-up, phase by phase, for the JSON summary's timing.setup_phases.
#pragma once

#include "apps/run_summary.hpp"
#include "core/seconds.hpp"

namespace heat {

// Marks the end of each set-up phase with the seconds it took; the first phase runs from the
// process's start (to /proc's resolution) to the clock's.
class SetupClock {
 public:
  explicit SetupClock(RunReport& report);
  void mark(const char* phase);
  // Seconds since the clock started.
  double seconds() const;

 private:
  RunReport& report_;
  WallClock::time_point start_, last_;
};

}  // namespace heat
