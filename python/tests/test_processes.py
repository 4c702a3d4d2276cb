"""heatrk4.step among processes, signals and threads: a forked child steps (OpenMP's threads do
not survive fork), Ctrl-C stops a long step between chunks with KeyboardInterrupt and the array
as it was, and two threads stepping one array take turns instead of losing steps. Each waits
with a timeout, so a hang fails the test instead of stalling the suite."""
import os

# More than one OpenMP thread, so that the parent has a pool of threads for fork to lose (read
# when the OpenMP runtime loads, with heatrk4).
os.environ["OMP_NUM_THREADS"] = "2"

import multiprocessing  # noqa: E402
import queue  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import unittest  # noqa: E402

import numpy as np  # noqa: E402

import heatrk4  # noqa: E402
from support import assert_bitwise_equal, random_field  # noqa: E402

TIMEOUT_S = 120  # far beyond what each takes (a few seconds on 2 busy cores); reached only by a hang


def stepped(seed):
    u = random_field(shape=(24, 24, 24), seed=seed)
    heatrk4.step(u, steps=5)
    return u


class ForkedChildren(unittest.TestCase):
    def test_a_pool_forked_after_a_step_steps_as_the_parent_does(self):
        want = [stepped(seed) for seed in (1, 2, 3)]  # the parent's OpenMP threads are running now
        pool = multiprocessing.get_context("fork").Pool(2)
        try:
            got = pool.map_async(stepped, (1, 2, 3)).get(timeout=TIMEOUT_S)
        except multiprocessing.TimeoutError:
            self.fail(f"a forked child's step did not return in {TIMEOUT_S} s")
        finally:
            pool.terminate()
            pool.join()
        for seed, (g, w) in enumerate(zip(got, want), start=1):
            assert_bitwise_equal(self, g, w, f"seed {seed}: forked child against the parent")

    def test_a_forked_child_steps_again_and_forks_again(self):
        stepped(1)
        child = multiprocessing.get_context("fork").Process(target=_step_twice_and_fork)
        child.start()
        child.join(TIMEOUT_S)
        if child.is_alive():
            child.kill()
            child.join()
            self.fail(f"a forked child did not finish in {TIMEOUT_S} s")
        self.assertEqual(child.exitcode, 0)


def _step_twice_and_fork():
    stepped(1)
    stepped(2)
    grandchild = multiprocessing.get_context("fork").Process(target=stepped, args=(3,))
    grandchild.start()
    grandchild.join(TIMEOUT_S)
    if grandchild.is_alive():
        grandchild.kill()
        sys.exit(1)
    sys.exit(grandchild.exitcode)


# A step of about an hour on 2 cores: only an interrupt ends it within the test's timeout.
INTERRUPTED_STEP = """
import numpy as np, heatrk4
u = np.random.default_rng(1).standard_normal((64, 64, 64))
before = u.copy()
print("stepping", flush=True)
try:
    heatrk4.step(u, steps=100000)
    print("finished")
except KeyboardInterrupt:
    print("interrupted", "unchanged" if np.array_equal(u, before) else "changed")
"""


class CtrlC(unittest.TestCase):
    def test_sigint_stops_a_long_step_and_leaves_the_array_as_it_was(self):
        child = subprocess.Popen([sys.executable, "-c", INTERRUPTED_STEP], stdout=subprocess.PIPE, text=True,
                                 env=dict(os.environ))
        try:
            self.assertEqual(child.stdout.readline().strip(), "stepping")
            time.sleep(1)  # into the step (a signal before it would raise there too, as it should)
            child.send_signal(signal.SIGINT)
            out, _ = child.communicate(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.fail(f"the step went on for {TIMEOUT_S} s after SIGINT")
        finally:
            child.kill()
            child.wait()
        self.assertEqual(out.strip(), "interrupted unchanged")


def _interrupted_step(started, result):
    u = np.random.default_rng(1).standard_normal((64, 64, 64))
    before = u.copy()
    started.set()
    try:
        heatrk4.step(u, steps=100000)
        result.put("finished")
    except KeyboardInterrupt:
        result.put("interrupted " + ("unchanged" if np.array_equal(u, before) else "changed"))


class CtrlCInAForkedChild(unittest.TestCase):
    def test_sigint_stops_a_forked_childs_step(self):
        stepped(1)  # the parent's OpenMP threads, which the child's step must do without
        context = multiprocessing.get_context("fork")
        started, result = context.Event(), context.Queue()
        child = context.Process(target=_interrupted_step, args=(started, result))
        child.start()
        try:
            self.assertTrue(started.wait(TIMEOUT_S), "the child did not start its step")
            time.sleep(1)
            os.kill(child.pid, signal.SIGINT)
            self.assertEqual(result.get(timeout=TIMEOUT_S), "interrupted unchanged")
        except queue.Empty:
            self.fail(f"the forked child's step went on for {TIMEOUT_S} s after SIGINT")
        finally:
            child.kill()
            child.join()


class TwoThreadsOneArray(unittest.TestCase):
    def test_steps_on_one_array_from_two_threads_are_all_taken(self):
        u = random_field(shape=(48, 48, 48), seed=5)
        want = u.copy()
        heatrk4.step(want, steps=2 * 30)
        start = threading.Barrier(2)
        failures = []

        def step_thirty():
            start.wait()
            try:
                heatrk4.step(u, steps=30)
            except Exception as e:  # reported by the test, not lost in the thread
                failures.append(e)

        threads = [threading.Thread(target=step_thirty) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(TIMEOUT_S)
            self.assertFalse(t.is_alive(), f"a step did not return in {TIMEOUT_S} s")
        self.assertEqual(failures, [])
        assert_bitwise_equal(self, u, want, "two threads' 30 steps each against 60 steps in one call")


if __name__ == "__main__":
    unittest.main()
