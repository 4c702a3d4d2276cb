#include "python/fork_safety.hpp"

#include <pthread.h>

#include <atomic>
#include <exception>
#include <thread>

namespace heat::python {
namespace {

std::atomic<bool> forked{false};
pthread_t forking_thread;

// In the child, on the thread that called fork(): async-signal-safe stores only.
void note_child() {
  forking_thread = pthread_self();
  forked.store(true);
}

}  // namespace

void note_forks() { pthread_atfork(nullptr, nullptr, note_child); }

void run_where_openmp_works(const std::function<void()>& work) {
  if (!forked.load() || !pthread_equal(pthread_self(), forking_thread)) {
    work();
    return;
  }
  std::exception_ptr failure;
  std::thread fresh([&] {
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  fresh.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace heat::python
