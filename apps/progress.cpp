#include "apps/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace heat {

ProgressLine::ProgressLine(std::string label, bool enabled)
    : label_(std::move(label)), enabled_(enabled), terminal_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::update(int done, int total, double busy_seconds, int pending_writes) {
  if (!enabled_) return;
  using namespace std::chrono;
  const auto now = steady_clock::now();
  const double since_start = duration<double>(now - start_).count();
  const double since_last = duration<double>(now - last_).count();
  const double interval = terminal_ ? 0.2 : 5.0;
  if (since_start < 1.0 || (shown_ && since_last < interval && done < total)) return;
  const double rate = busy_seconds > 0 ? done / busy_seconds : 0;
  const double left = rate > 0 ? (total - done) / rate : 0;
  std::fprintf(stderr, "%s%s: step %d/%d, %.1f steps/s, %.0f s left, %d snapshot(s) being written%s",
               terminal_ ? "\r" : "", label_.c_str(), done, total, rate, left, pending_writes,
               terminal_ ? "   " : "\n");
  std::fflush(stderr);
  shown_ = true;
  last_ = now;
}

void ProgressLine::finish() {
  if (shown_ && terminal_) std::fprintf(stderr, "\n");
  shown_ = false;
}

}  // namespace heat
