#include "apps/setup_clock.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace heat {
namespace {

// Seconds since this process started (/proc/self/stat's start time, in clock ticks since boot).
double seconds_since_process_start() {
  std::ifstream stat("/proc/self/stat"), uptime("/proc/uptime");
  std::string field;
  double up = 0;
  if (!std::getline(stat, field) || !(uptime >> up)) return 0;
  // Field 22 counts from the one after the command name, which may hold spaces: ") " ends it.
  std::istringstream rest(field.substr(field.rfind(") ") + 2));
  unsigned long long ticks = 0;
  for (int n = 3; n <= 22 && rest >> field; ++n) ticks = n == 22 ? std::stoull(field) : 0;
  return up - double(ticks) / double(sysconf(_SC_CLK_TCK));
}

}  // namespace

SetupClock::SetupClock(RunReport& report) : report_(report), start_(WallClock::now()), last_(start_) {
  report_.setup_phases.emplace_back("process_start_to_run", seconds_since_process_start());
}

void SetupClock::mark(const char* phase) {
  const auto now = WallClock::now();
  report_.setup_phases.emplace_back(phase, seconds_between(last_, now));
  last_ = now;
}

double SetupClock::seconds() const {
  return seconds_since(start_);
}

}  // namespace heat
