// OpenMP after fork(). libgomp keeps a pool of threads per thread that has started a parallel
// region; fork() copies only the forking thread, so in the child that thread's pool names threads
// that stayed in the parent, and its next parallel region waits for them forever (a
// multiprocessing.Pool with the fork start method, after a step in the parent). A thread made in
// the child has no pool yet and gets a fresh one, so the forking thread's work runs on such a
// thread, with every OpenMP thread; every other thread runs its work itself.
#pragma once

#include <functional>

namespace heat::python {

// Registers the fork handler that notes the child's forking thread (once, at import).
void note_forks();

// Runs `work` (which may use OpenMP) on this thread, or, on the thread that forked this process,
// on a new thread, calling `while_waiting` (if given) on this thread about every 50 ms until it
// ends (Python runs signal handlers on its main thread only: the waiting thread runs them);
// work's exception, if any, is rethrown here. Called without the GIL.
void run_where_openmp_works(const std::function<void()>& work, const std::function<void()>& while_waiting = {});

}  // namespace heat::python
