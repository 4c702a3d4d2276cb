#!/usr/bin/env python3
"""The peers of heatrk4's cpu backend: the same problem (256^3, order 8, a few steps by default)
through PyTorch on the CPU, eager and under torch.compile, in float and double, on the threads
torch is given (--threads, default OMP_NUM_THREADS). Prints ms per step beside cpu_bench's rows.

Each peer is first checked against a float64 reference (the eager step in float64 from the same
initial field): float peers to |x - ref| <= 1e-6 + 1e-6*|ref|, double ones to 1e-12 + 1e-12*|ref|,
at every point. A peer that disagrees is reported as DISAGREE and not timed. The step is
peers.py's (peer_stencil.py): the same coefficients, constants and order of sums as heatrk4.

  OMP_NUM_THREADS=16 /opt/torch/.venv/bin/python3 benchmarks/cpu_peers.py
  build/benchmarks/cpu_bench --sizes 256 --steps 4   # heatrk4's rows, on the same threads

Exit status: 0 all agree (or no torch here: the peers are skipped with a message), 1 a peer
disagrees, 2 bad arguments.
"""
import argparse
import os
import statistics
import sys
import time

from peer_stencil import make_rk4, make_step, make_weights, run_steps

TOLERANCE = {"float32": 1e-6, "float64": 1e-12}  # atol = rtol, the --check rule of each precision


def compare(torch, x, ref, tolerance):
    """max abs, worst ratio to the tolerance and points outside it, of x against ref in double."""
    err = (x.double() - ref).abs()
    ratio = err / (tolerance + tolerance * ref.abs())
    outside = int((~(ratio <= 1.0)).sum())  # NaN fails
    return {"max_abs": float(err.max()), "worst_ratio": float(ratio.max()), "failures": outside}


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=256, help="points per axis (default 256)")
    parser.add_argument("--order", type=int, default=8, choices=(2, 4, 6, 8))
    parser.add_argument("--steps", type=int, default=4, help="steps per timed run (default 4)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs; the median is reported")
    parser.add_argument("--cfl", type=float, default=0.05, help="dt = cfl / (alpha * sum 1/h^2), as cpu_bench")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", "0") or 0),
                        help="torch's threads (default OMP_NUM_THREADS, else torch's own choice)")
    parser.add_argument("--precisions", nargs="+", default=["float", "double"], choices=("float", "double"))
    parser.add_argument("--variants", nargs="+", default=["torch.compile", "eager"],
                        choices=("torch.compile", "eager"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.n <= args.order or args.steps < 1 or args.repeats < 1:
        parser.error("--n must exceed --order, and --steps and --repeats be at least 1")
    return args


def main(argv):
    args = parse_args(argv)
    try:
        import torch
    except ImportError:
        print(f"[cpu_peers] no PyTorch in {sys.executable}: the CPU peers are skipped "
              "(run with a python that has torch, e.g. /opt/torch/.venv/bin/python3)")
        return 0
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    n, radius = args.n, args.order // 2
    h = 1.0 / (n - 1)
    alpha = 1.0
    dt = args.cfl / (alpha * 3.0 / (h * h))
    print(f"[cpu_peers] {n}^3, order {args.order}, {args.steps} steps, dt {dt!r}, torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads", flush=True)

    def step_in(dtype_name):
        weights = make_weights(alpha, h, h, h, radius, dtype_name)
        return make_step(weights, make_rk4(dt, dtype_name), radius, torch.clone)

    generator = torch.Generator().manual_seed(args.seed)
    u0_64 = torch.randn((n, n, n), generator=generator, dtype=torch.float64)
    t0 = time.perf_counter()
    reference = run_steps(step_in("float64"), u0_64, args.steps)
    print(f"[cpu_peers] float64 reference (eager): {time.perf_counter() - t0:.2f} s", flush=True)

    rows, disagree = [], False
    for precision in args.precisions:
        dtype_name = "float32" if precision == "float" else "float64"
        # The reference starts from the peer's rounded start, so only the steps' rounding differs.
        u0 = u0_64.to(getattr(torch, dtype_name))
        ref = reference if precision == "double" else run_steps(step_in("float64"), u0.double(), args.steps)
        for variant in args.variants:
            step = step_in(dtype_name)
            if variant == "torch.compile":
                step = torch.compile(step)
            name = f"{variant} {precision}"
            try:
                t0 = time.perf_counter()
                result = run_steps(step, u0, args.steps)
                first_s = time.perf_counter() - t0
            except Exception as error:  # inductor needs a C++ compiler; report and go on
                print(f"[cpu_peers] {name}: failed: {type(error).__name__}: {error}", flush=True)
                rows.append((name, None, "FAILED"))
                continue
            check = compare(torch, result, ref, TOLERANCE[dtype_name])
            agree = check["failures"] == 0
            print(f"[cpu_peers] {name}: first run {first_s:.2f} s; against float64: max abs {check['max_abs']:.3e}, "
                  f"worst {check['worst_ratio']:.2f} of the tolerance, {check['failures']} points outside", flush=True)
            if not agree:
                disagree = True
                rows.append((name, None, "DISAGREE"))
                continue
            times = []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                run_steps(step, u0, args.steps)
                times.append(1e3 * (time.perf_counter() - t0) / args.steps)
            rows.append((name, statistics.median(times), "agree"))
            print(f"[cpu_peers]   ms per step: median {statistics.median(times):.1f} of "
                  f"{', '.join(f'{t:.1f}' for t in times)}", flush=True)
            del result

    points = (n - 2 * radius) ** 3
    print(f"\n{'peer':<22} {'check':<9} {'ms/step':>9} {'Mpoints/s':>10}")
    for name, ms, check in rows:
        ms_text = f"{ms:9.1f}" if ms is not None else f"{'-':>9}"
        rate = f"{points / (ms * 1e-3) / 1e6:10.1f}" if ms is not None else f"{'-':>10}"
        print(f"{name:<22} {check:<9} {ms_text} {rate}")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
