#include "python/fork_safety.hpp"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
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

void run_where_openmp_works(const std::function<void()>& work, const std::function<void()>& while_waiting) {
  if (!forked.load() || !pthread_equal(pthread_self(), forking_thread)) {
    work();
    return;
  }
  std::exception_ptr failure;
  std::mutex mutex;
  std::condition_variable ended;
  bool done = false;
  std::thread fresh([&] {
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
    const std::lock_guard<std::mutex> lock(mutex);
    done = true;
    ended.notify_one();
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (!ended.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; }))
      if (while_waiting) {
        lock.unlock();
        while_waiting();
        lock.lock();
      }
  }
  fresh.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace heat::python
