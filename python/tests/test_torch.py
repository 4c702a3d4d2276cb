"""heatrk4.step of PyTorch CUDA tensors: stepped in place where they live (the same memory, no
device-to-host copy, counted by PyTorch's profiler), the same numbers as the NumPy path and the
command line, ordered after work queued on the caller's stream, and bad tensors refused.
Needs PyTorch with a CUDA GPU; without them every test skips (CTest: skipped)."""
import json
import os
import re
import tempfile
import unittest

import numpy as np

import heatrk4
from support import assert_bitwise_equal, boundary_planes, command_line_run, random_field, step_like

try:
    import torch

    WHY_NOT = None if torch.cuda.is_available() else "PyTorch sees no CUDA device"
except ImportError as e:
    torch, WHY_NOT = None, f"no PyTorch ({e})"
if WHY_NOT is None and not heatrk4.gpu():
    WHY_NOT = f"heatrk4 sees no CUDA GPU: {heatrk4.gpu().reason}"


def cuda(a):
    return torch.from_numpy(a).cuda()


@unittest.skipIf(WHY_NOT, WHY_NOT)
class TensorsInPlace(unittest.TestCase):
    def test_same_numbers_as_numpy_and_the_command_line(self):
        # Orders 2 and 8 in both precisions: tiled's kernels that swap the field with a buffer of
        # their own (order 2: all passes in one kernel) and those that do not (order 8 float).
        with tempfile.TemporaryDirectory() as tmp:
            for order in (2, 4, 8):
                for precision in ("float", "double"):
                    for steps in (1, 3):
                        with self.subTest(order=order, precision=precision, steps=steps):
                            runs = os.path.join(tmp, f"{steps}-steps")  # a run's directory per step count
                            os.makedirs(runs, exist_ok=True)
                            first, last = command_line_run(runs, "tiled", order, precision, steps=steps)
                            t = cuda(first["u"].copy())
                            address = t.data_ptr()
                            step_like(first, t, "tiled", steps=steps)
                            self.assertEqual(t.data_ptr(), address, "the tensor moved")
                            assert_bitwise_equal(self, t.cpu().numpy(), last["u"],
                                                 f"torch tensor on tiled, order {order}, {precision}, {steps} steps, "
                                                 "against heatrk4.run")
                            for backend in ("naive", "reuse"):
                                t = cuda(first["u"].copy())
                                step_like(first, t, backend, steps=steps)
                                u = step_like(first, first["u"].copy(), backend, steps=steps)
                                assert_bitwise_equal(self, t.cpu().numpy(), u,
                                                     f"torch tensor against NumPy array on {backend}")

    def test_material_fields_as_tensors_step_as_numpy_arrays(self):
        # K and C as CPU tensors (read as NumPy reads them) and as CUDA tensors (copied to the host
        # after the caller's stream's work), against NumPy arrays, on cpu and on tiled.
        shape = (13, 14, 15)
        rng = np.random.default_rng(2)
        k, c = (np.exp(rng.uniform(np.log(low), np.log(high), shape)) for low, high in ((0.5, 50), (1, 10)))
        step = dict(cfl=0.2, order=8, bc="insulated")
        u = random_field(shape=shape)
        want = u.copy()
        heatrk4.step(want, conductivity=k, heat_capacity=c, **step)
        got = u.copy()
        heatrk4.step(got, conductivity=torch.from_numpy(k), heat_capacity=torch.from_numpy(c), **step)
        assert_bitwise_equal(self, got, want, "CPU tensors of K and C against NumPy arrays")
        on_gpu = cuda(u.copy())
        heatrk4.step(on_gpu, conductivity=cuda(k), heat_capacity=cuda(c), **step)
        from_host = cuda(u.copy())
        heatrk4.step(from_host, conductivity=k, heat_capacity=c, **step)
        assert_bitwise_equal(self, on_gpu.cpu().numpy(), from_host.cpu().numpy(),
                             "CUDA tensors of K and C against NumPy arrays, u on tiled")

    def test_no_copy_to_the_host(self):
        # The profiler's trace lists every kernel and copy on the GPU with its bytes. The one copy
        # to the host allowed is the blow-up check's answer (an index, 8 bytes), as on the command line.
        t = cuda(random_field(shape=(64, 64, 64), dtype=np.float32))
        heatrk4.step(t, cfl=0.05, steps=2)  # warm-up: CUDA's lazy loading happens outside the count
        torch.cuda.synchronize()
        activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        with torch.profiler.profile(activities=activities) as profile:
            heatrk4.step(t, cfl=0.05, steps=2)
            torch.cuda.synchronize()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "trace.json")
            profile.export_chrome_trace(path)
            with open(path) as f:
                events = json.load(f)["traceEvents"]
        kernels = [e["name"] for e in events if e.get("cat") == "kernel"]
        copies = [e for e in events if e.get("cat") == "gpu_memcpy"]
        to_host = [(e["name"], e.get("args", {}).get("bytes")) for e in copies if "DtoH" in e["name"]]
        self.assertTrue(kernels, "the profiler recorded no kernel of heatrk4.step, so it cannot count its copies: "
                                 f"event categories seen: {sorted({e.get('cat') for e in events} - {None})}")
        big = [(name, size) for name, size in to_host if size is None or size > 64]
        self.assertEqual(big, [], f"heatrk4.step copied device memory to the host (the field is {t.nbytes} bytes); "
                                  f"kernels seen: {sorted(set(kernels))[:5]}")

    def test_boundary_layer_unchanged(self):
        for order in (2, 4, 6, 8):
            for dtype in (np.float32, np.float64):
                with self.subTest(order=order, dtype=dtype.__name__):
                    r = order // 2
                    before = random_field(shape=(21, 19, 34), dtype=dtype)
                    t = cuda(before)
                    heatrk4.step(t, cfl=0.1, steps=3, order=order)
                    assert_bitwise_equal(self, boundary_planes(t.cpu().numpy(), r), boundary_planes(before, r),
                                         "boundary layer of a tensor after 3 steps")

    def test_ordered_after_the_callers_stream(self):
        # The field is written on a side stream just before the step; stepping the old values
        # (a missing wait) gives another answer.
        want = random_field(shape=(96, 96, 96), dtype=np.float32)
        heatrk4.step(want, cfl=0.05, steps=2, backend="tiled")  # the tensor's backend, through host memory
        source = cuda(random_field(shape=(96, 96, 96), dtype=np.float32))
        side = torch.cuda.Stream()
        for _ in range(3):
            t = torch.zeros_like(source)
            torch.cuda.synchronize()
            with torch.cuda.stream(side):
                torch.cuda._sleep(20_000_000)  # keeps the stream busy for a while
                t.copy_(source)
                heatrk4.step(t, cfl=0.05, steps=2)
            torch.cuda.synchronize()
            assert_bitwise_equal(self, t.cpu().numpy(), want, "a tensor written on the caller's stream just before")

    def test_a_kept_backend_steps_other_tensors_right(self):
        # The second and third calls reuse the first call's backend (same problem): each tensor's
        # own boundary layer must reach the backend's scratch fields, or its result is another's,
        # and no later call may write an earlier call's tensor. Order 2 swaps u with a buffer of
        # the backend's (an odd number of steps leaves the field there); order 8 does not.
        for order in (2, 8):
            for dtype in (np.float32, np.float64):
                with self.subTest(order=order, dtype=dtype.__name__):
                    fields = [random_field(shape=(23, 21, 38), dtype=dtype, seed=seed) for seed in (1, 2, 3)]
                    stepped = []
                    for n, field in enumerate(fields + fields[:1]):
                        if n == 3:
                            heatrk4.release()
                        want = field.copy()
                        heatrk4.step(want, cfl=0.05, steps=3, order=order, backend="tiled")  # a backend of its own
                        t = cuda(field)
                        heatrk4.step(t, cfl=0.05, steps=3, order=order)
                        assert_bitwise_equal(self, t.cpu().numpy(), want,
                                             f"call {n + 1} (after release() where 4) of one kept backend")
                        stepped.append((t, want))
                    for n, (t, want) in enumerate(stepped):
                        assert_bitwise_equal(self, t.cpu().numpy(), want, f"call {n + 1}'s tensor after the later calls")

    def test_a_blow_up_is_found_at_its_chunk(self):
        # The same chunks and checks as a NumPy array's: the blow-up is reported at the first check
        # after it, not after the last step, and the tensor holds the field of that check's step.
        t = cuda(random_field(shape=(20, 20, 20), dtype=np.float32))
        with self.assertRaises(RuntimeError) as caught:
            heatrk4.step(t, cfl=50.0, steps=400, allow_unstable=True)
        found = re.search(r"after step (\d+), finite after step (\d+)", str(caught.exception))
        self.assertIsNotNone(found, str(caught.exception))
        self.assertLess(int(found[1]), 400, str(caught.exception))
        self.assertEqual(int(found[1]) - int(found[2]), 16, str(caught.exception))
        self.assertFalse(bool(torch.isfinite(t).all()), "the tensor does not hold the field that blew up")
        heatrk4.step(cuda(random_field()), cfl=0.05, steps=2)  # the failed call's backend is not kept

    def test_bad_tensors_refused(self):
        u = cuda(random_field())
        cases = {
            "float32 or float64": u.half(),
            "C-contiguous": u.transpose(0, 2),
            "dimensions": u[0],
            "steps host memory": u,
        }
        for expected, tensor in cases.items():
            with self.subTest(expected=expected):
                with self.assertRaises(ValueError) as caught:
                    heatrk4.step(tensor, backend="cpu" if expected == "steps host memory" else "auto")
                self.assertIn(expected, str(caught.exception))
        with self.assertRaises(ValueError):
            heatrk4.step(u.clone().requires_grad_(True))
        with self.assertRaises(ValueError) as caught:
            heatrk4.step(torch.zeros(9, 9, 9))  # a CPU tensor
        self.assertIn("u.numpy()", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
