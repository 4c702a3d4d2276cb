// The progress line (apps/progress.hpp): a run's steps with the snapshots still being written, and
// steps that write none (--check's reference) without them.
#include <gtest/gtest.h>

#include <string>

#include "apps/progress.hpp"

namespace heat {
namespace {

using testing::internal::CaptureStderr;
using testing::internal::GetCapturedStderr;

// Lines are shown at once (no quiet second) and, stderr being captured into a file, not rewritten
// in place; the last step's line is always shown.
TEST(ProgressLine, ShowsStepsWithoutSnapshotsForWorkThatWritesNone) {
  CaptureStderr();
  {
    ProgressLine check("check", true, std::chrono::seconds(0));
    check.update(1, 4, 2.0);
    check.update(4, 4, 8.0);
  }
  const std::string text = GetCapturedStderr();
  EXPECT_NE(text.find("check: step 1/4, 0.5 steps/s, 6 s left\n"), std::string::npos) << text;
  EXPECT_NE(text.find("check: step 4/4, 0.5 steps/s, 0 s left\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("snapshot"), std::string::npos) << text;
}

TEST(ProgressLine, ShowsTheSnapshotsBeingWrittenForARun) {
  CaptureStderr();
  {
    ProgressLine run("cpu", true, std::chrono::seconds(0));
    run.update(3, 3, 1.5, 2);
  }
  const std::string text = GetCapturedStderr();
  EXPECT_NE(text.find("cpu: step 3/3, 2.0 steps/s, 0 s left, 2 snapshot(s) being written\n"), std::string::npos)
      << text;
}

TEST(ProgressLine, ShowsNothingWhenDisabledOrBeforeItsQuietTime) {
  CaptureStderr();
  {
    ProgressLine quiet("check", false, std::chrono::seconds(0));
    quiet.update(4, 4, 1.0);
    ProgressLine early("check", true, std::chrono::hours(1));
    early.update(4, 4, 1.0);
  }
  EXPECT_EQ(GetCapturedStderr(), "");
}

}  // namespace
}  // namespace heat
