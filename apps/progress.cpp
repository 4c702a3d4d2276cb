#include "apps/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace heat {

ProgressLine::ProgressLine(std::string label, bool enabled, std::chrono::duration<double> quiet_for)
    : label_(std::move(label)), enabled_(enabled), terminal_(isatty(STDERR_FILENO) == 1),
      quiet_seconds_(quiet_for.count()), start_(WallClock::now()), last_(start_) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::update(int done, int total, double busy_seconds, int pending_writes) {
  show(done, total, busy_seconds, ", " + std::to_string(pending_writes) + " snapshot(s) being written");
}

void ProgressLine::update(int done, int total, double busy_seconds) { show(done, total, busy_seconds, ""); }

void ProgressLine::show(int done, int total, double busy_seconds, const std::string& tail) {
  if (!enabled_) return;
  const auto now = WallClock::now();
  const double since_start = seconds_between(start_, now);
  const double since_last = seconds_between(last_, now);
  const double interval = terminal_ ? 0.2 : 5.0;
  if (since_start < quiet_seconds_ || (shown_ && since_last < interval && done < total)) return;
  const double rate = busy_seconds > 0 ? done / busy_seconds : 0;
  const double left = rate > 0 ? (total - done) / rate : 0;
  std::fprintf(stderr, "%s%s: step %d/%d, %.1f steps/s, %.0f s left%s%s", terminal_ ? "\r" : "", label_.c_str(), done,
               total, rate, left, tail.c_str(), terminal_ ? "   " : "\n");
  std::fflush(stderr);
  shown_ = true;
  last_ = now;
}

void ProgressLine::finish() {
  if (shown_ && terminal_) std::fprintf(stderr, "\n");
  shown_ = false;
}

}  // namespace heat
