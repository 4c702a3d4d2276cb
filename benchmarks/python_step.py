#!/usr/bin/env python3
"""The reference problem (docs/design.md §1: 600^3, order 8, float32, 10 steps, randn, cfl 0.05)
from PyTorch: heatrk4.step on a CUDA tensor in place, against the same RK4 step in plain PyTorch
and under torch.compile (benchmarks/peers.py's peer, imported), all on the same tensor.

Each candidate first takes the 10 steps once and must agree with a float64 reference (the peer in
float64) to |x - ref| <= 1e-6 + 1e-6*|ref| at every point; one that disagrees is not timed. Then
ms per 10 steps (CUDA events, median of --repeats), its ratio to the copy floor (10 device-to-
device copies of u, the least any step can move), and heatrk4.step's time against the command
line's compute for the same problem (heatrk4.run's timing.compute_s; the goal: within 3%).

  PYTHONPATH=build/python python3 benchmarks/python_step.py [--n 600 --repeats 5]
Exit status: 0 all agree, 1 a candidate disagrees, 2 no PyTorch or no CUDA device.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import ATOL, RTOL, make_rk4, make_step, make_weights, run_steps  # noqa: E402

import heatrk4  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=600)
    parser.add_argument("--order", type=int, default=8)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--cfl", type=float, default=0.05)
    parser.add_argument("--alpha", type=float, default=1.0)
    parser.add_argument("--h", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"python_step: no PyTorch ({e})")
        return 2
    if not torch.cuda.is_available():
        print("python_step: PyTorch sees no CUDA device")
        return 2

    n, r, steps = args.n, args.order // 2, args.steps
    dt = args.cfl / (args.alpha * 3.0 / (args.h * args.h))
    generator = torch.Generator(device="cuda").manual_seed(2025)
    u0 = torch.randn((n, n, n), device="cuda", dtype=torch.float32, generator=generator)
    print(f"[python_step] {n}^3, order {args.order}, float32, {steps} steps, cfl {args.cfl}, alpha {args.alpha}, "
          f"h {args.h}, on {torch.cuda.get_device_name()}, torch {torch.__version__}", flush=True)

    def peer(dtype_name):
        w = make_weights(args.alpha, args.h, args.h, args.h, r, dtype_name)
        return make_step(w, make_rk4(dt, dtype_name), r, torch.clone)

    reference = run_steps(peer("float64"), u0.double(), steps)
    torch.cuda.synchronize()

    def heatrk4_steps(u):
        heatrk4.step(u, dt=dt, alpha=args.alpha, h=args.h, steps=steps, order=args.order, backend="tiled")
        return u

    eager = peer("float32")
    compiled = torch.compile(eager)
    candidates = [
        ("heatrk4.step (tiled, in place)", heatrk4_steps),
        ("pytorch", lambda u: run_steps(eager, u, steps)),
        ("torch.compile", lambda u: run_steps(compiled, u, steps)),
    ]

    def time_ms(fn, u):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(u)
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end)

    scratch = torch.empty_like(u0)

    def copies(u):
        for _ in range(steps):
            scratch.copy_(u)

    time_ms(copies, u0)
    floor = statistics.median(time_ms(copies, u0) for _ in range(args.repeats))
    print(f"[python_step] copy floor: {steps} device-to-device copies of u: {floor:.2f} ms", flush=True)

    status, timings = 0, {}
    for name, fn in candidates:
        result = fn(u0.clone()).double()  # warm-up (and compile), then the check
        torch.cuda.synchronize()
        excess = (result - reference).abs() - (ATOL + RTOL * reference.abs())
        failures = int((excess > 0).sum())
        if failures:
            print(f"[python_step] {name}: DISAGREE with the float64 reference at {failures} points; not timed")
            status = 1
            continue
        times = []
        for _ in range(args.repeats):
            u = u0.clone()
            torch.cuda.synchronize()
            times.append(time_ms(fn, u))
        timings[name] = statistics.median(times)
        print(f"[python_step] {name}: agrees; {timings[name]:.2f} ms per {steps} steps, "
              f"{timings[name] / floor:.2f}x the copy floor", flush=True)
        del result, excess

    name = candidates[0][0]
    if name in timings:
        summaries = [heatrk4.run(n=n, order=args.order, precision="float", init="randn", steps=steps, cfl=args.cfl,
                                 alpha=args.alpha, h=args.h, backend="tiled", format="none", quiet=True)
                     for _ in range(args.repeats)]
        command_line = 1e3 * statistics.median(s["timing"]["compute_s"] for s in summaries)
        print(f"[python_step] the command line's compute for the same problem: {command_line:.2f} ms; "
              f"heatrk4.step / command line = {timings[name] / command_line:.3f}")
        for other in ("pytorch", "torch.compile"):
            if other in timings:
                print(f"[python_step] {other} / heatrk4.step = {timings[other] / timings[name]:.1f}")
    return status


if __name__ == "__main__":
    sys.exit(main())
