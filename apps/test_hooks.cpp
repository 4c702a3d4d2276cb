#include "apps/test_hooks.hpp"

#include <cstdlib>

namespace heat {

TestHooks test_hooks_from_environment() {
  TestHooks hooks;
  if (const char* delay = std::getenv("HEATRK4_TEST_WRITE_DELAY_MS"))
    hooks.write_delay = std::chrono::milliseconds(std::atoi(delay));
  if (const char* rank = std::getenv("HEATRK4_TEST_FAIL_RANK")) hooks.fail_rank = std::atoi(rank);
  if (const char* rank = std::getenv("HEATRK4_TEST_LATE_RANK")) hooks.late_rank = std::atoi(rank);
  if (const char* late = std::getenv("HEATRK4_TEST_LATE_MS"))
    hooks.late_by = std::chrono::milliseconds(std::atoi(late));
  return hooks;
}

}  // namespace heat
