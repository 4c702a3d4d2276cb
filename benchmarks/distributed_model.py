#!/usr/bin/env python3
"""The halo exchange's model of benchmarks/distributed_model.md, from its measured inputs to the
tables that file quotes: per rank of a P x Q x R split, the step's compute (the one-GPU step per
point), the ghost points recomputed, a fixed cost per face with a neighbour, the packing of x and
y faces, and the exchange (latency and bandwidth per link) hidden behind the launch that wrote the
planes it sends. Checked against the 1, 2 and 4 GPU runs on NVLink first (the 'NVLink check'
table; distributed_model_checked in CTest holds its errors to the limit it prints), then used for
the slow links of one host and for 8 to 4096 GPUs over a network, which nothing here has measured.

    python3 benchmarks/distributed_model.py
    python3 benchmarks/distributed_model.py --link 2.5:120   # and a link scaling.sh measured: GB/s:latency us

Standard library only. Times in seconds inside, ms or us where printed."""
import argparse
import itertools
import sys
from dataclasses import dataclass

N = 600                       # points per axis of the measured runs and of the weak boxes
VALUE_BYTES = 4               # float
COPY_BYTES_PER_S = 4.12e12    # H200 device-to-device copy of a 600^3 field, read plus write (worklog.md's preamble)
GPUS_PER_NODE = 8
CHECK_LIMIT = 0.10            # the model is trusted beyond the runs only if it predicts them this well
# The copy engines' exchange beside the interior against alone (order 8, 4 H100s: 0.37 / 0.24 ms a step,
# worklog s6): both GPUs' HBM is busy with the interior. Taken for NVLink's copies only; a network
# card reads HBM at a small share of its bandwidth (assumed 1).
PEER_BESIDE_INTERIOR = 0.37 / 0.24

# The step's shape per order (tiled's defaults, docs/design.md §7), in units of r: exchanges a step,
# ghost depth, the ghost planes each of the four passes writes beside its own, and the share of the
# step that the launch writing the exchanged planes takes (the exchange travels beside its rest).
@dataclass(frozen=True)
class Scheme:
    exchanges: int
    depth: int
    pass_widths: tuple
    launch_share: float


SCHEMES = {2: Scheme(1, 4, (3, 2, 1, 0), 1.0),      # PerStep: one fused launch of the four passes
           4: Scheme(2, 2, (1, 0, 1, 0), 0.5),      # PerHalfStep, a quadratic factor (two passes) a launch
           6: Scheme(2, 2, (1, 0, 1, 0), 0.5),
           8: Scheme(2, 2, (1, 0, 1, 0), 0.25)}     # PerHalfStep, one pass a launch


@dataclass(frozen=True)
class Link:
    latency_s: float
    bytes_per_s: float          # a GPU's, shared by every face it sends over the link at once
    beside_interior: float = 1.0


@dataclass(frozen=True)
class Route:
    """A way between two ranks: its Link for a rank sending k faces over it at once (rates[k - 1],
    the last one for any more)."""
    name: str
    rates: tuple

    def link(self, faces):
        return self.rates[min(faces, len(self.rates)) - 1]


def fitted_link(points, beside_interior=1.0):
    """Latency and bandwidth through two (MB, us) points of halo_bench."""
    (b0, t0), (b1, t1) = points
    per_byte = (t1 - t0) * 1e-6 / ((b1 - b0) * 1e6)
    return Link(t0 * 1e-6 - b0 * 1e6 * per_byte, 1 / per_byte, beside_interior)


# halo_bench, peer route, --scheme step, 600^3 on 4 H200s (results/scaling_4xh200_s12.txt, call 1):
# (MB a rank sends, us an exchange) on 2 ranks (one face each) and 4 (a middle rank's two faces);
# more faces than two are taken at the two-face rate (unmeasured).
HALO_BENCH_PEER = ([(5.76, 46.6), (23.0, 94.6)], [(11.5, 75.3), (46.1, 213.8)])
NVLINK = Route("NVLink, copy engines", tuple(fitted_link(p, PEER_BESIDE_INTERIOR) for p in HALO_BENCH_PEER))
# The one measurement of a slow link (issue 66, 2x H200, NCCL 2.28.3 forced through NET/Socket on
# loopback, default socket threads): 5.76 MB in ~31 ms. Its latency is not separated: 50 us assumed.
NCCL_SOCKET = Route("NCCL NET/Socket (measured)", (Link(50e-6, 5.76e6 / 31e-3),))
# The network: 50 GB/s a GPU between nodes; 20 us latency assumed (InfiniBand NDR, NCCL).
NETWORK = Route("network, 50 GB/s a GPU", (Link(20e-6, 50e9),))


def assumed_link(gb_per_s, latency_s=50e-6, label="assumed"):
    return Route("%g GB/s (%s)" % (gb_per_s, label), (Link(latency_s, gb_per_s * 1e9),))


def even_sizes(points, parts):
    return tuple(points // parts + (1 if i < points % parts else 0) for i in range(parts))


def balanced_slabs(points, parts, side, ghost):
    """parallel/decomposition.cpp's owned_begin_of without alignment: each side with a neighbour
    counts as `side` own planes of work, so a middle slab owns fewer; even where that leaves a slab
    fewer than `ghost` planes."""
    def sides_before(k):
        return 0 if k == 0 else 2 * k - 1 - (1 if k == parts else 0)
    work = points + side * sides_before(parts)
    begins = [(k * work + parts // 2) // parts - side * sides_before(k) for k in range(parts + 1)]
    sizes = tuple(b - a for a, b in zip(begins, begins[1:]))
    return sizes if min(sizes) >= ghost else even_sizes(points, parts)


def split_of(grid, ranks, order):
    """The own points of each rank position along each axis for `ranks` = (P, Q, R) over `grid`: z
    slabs balanced by their sides (GPU ranks' side planes r), other splits even on every axis (the
    cpu ranks' rank grid); None where a box would hold fewer points than its ghost depth."""
    r = order // 2
    ghost = SCHEMES[order].depth * r
    interior = [n - 2 * r for n in grid]
    if ranks[0] == ranks[1] == 1:
        sizes = ((interior[0],), (interior[1],), balanced_slabs(interior[2], ranks[2], r, ghost))
    else:
        sizes = tuple(even_sizes(n, p) for n, p in zip(interior, ranks))
    return None if min(min(s) for s in sizes) < ghost else sizes


def box_volume(box, grow=(0, 0, 0)):
    """The points of `box` grown (or shrunk) by `grow` points per axis; none where it shrinks away."""
    return max(0, box[0] + grow[0]) * max(0, box[1] + grow[1]) * max(0, box[2] + grow[2])


def rank_time(box, sides, order, t_point, face_cost, overlap):
    """One rank's step: `box` its own points per axis, `sides` (axis, Route) for each side with a
    neighbour. Returns (seconds, share of the exchange hidden)."""
    r, scheme = order // 2, SCHEMES[order]
    per_axis = [sum(1 for axis, _ in sides if axis == a) for a in range(3)]
    own = box_volume(box)
    # The ghost points each pass writes beside its own, stepped again by this rank (the recompute).
    recompute = sum(box_volume(box, [w * r * k for k in per_axis]) - own for w in scheme.pass_widths) / 4
    compute = t_point * (own + recompute)
    ghost = scheme.depth * r
    # The points the neighbours need are written first (on a split x or y the rim of the box's
    # columns too, core/step_columns.hpp); the rest of that launch hides the exchange.
    edges = own - box_volume(box, [-ghost * k for k in per_axis])
    hideable = scheme.launch_share * t_point * (own + recompute - edges)
    by_route = {}
    for axis, route in sides:
        face_bytes, faces = by_route.get(route, (0, 0))
        by_route[route] = (face_bytes + own // box[axis] * ghost * VALUE_BYTES, faces + 1)
    packed = sum(own // box[axis] * ghost * VALUE_BYTES for axis, _ in sides if axis < 2)
    # Pack out and unpack in, each reading and writing the face: on the exchange's stream beside the
    # interior, but taking the memory bandwidth the interior's kernels need, so never counted hidden.
    pack_unpack = 4 * packed / COPY_BYTES_PER_S
    exchange = 0.0   # the links run at once; each moves all of this rank's faces over it
    for route, (face_bytes, faces) in by_route.items():
        link = route.link(faces)
        alone = link.latency_s + face_bytes / link.bytes_per_s
        exchange = max(exchange, alone * (link.beside_interior if overlap else 1.0))
    exposed = max(0.0, exchange - hideable) if overlap else exchange
    hidden = 1 - exposed / exchange if exchange else 1.0
    seconds = compute + len(sides) * face_cost + scheme.exchanges * (pack_unpack + exposed)
    return seconds, hidden


def node_block(ranks):
    """The block of ranks one node holds: GPUS_PER_NODE of them, the shape that cuts the fewest
    faces among those dividing the split (a rankfile's placement; 1x1x8 for slabs)."""
    blocks = [b for b in itertools.product((1, 2, 4, 8), repeat=3)
              if b[0] * b[1] * b[2] == GPUS_PER_NODE and all(p % q == 0 for p, q in zip(ranks, b))]
    if not blocks:
        return None
    return min(blocks, key=lambda b: (b[0] * b[1] + b[1] * b[2] + b[0] * b[2], -b[2]))


def step_time(grid, ranks, order, t_point, face_cost, overlap, inside=NVLINK, network=None):
    """The slowest rank's (seconds, hidden share), or None where the split does not
    fit. Sides between ranks of one node take `inside`; with a `network`, sides to another node it."""
    split = split_of(grid, ranks, order)
    block = node_block(ranks) if network else ranks
    if split is None or block is None:
        return None
    slowest, seen = None, {}
    for position in itertools.product(*(range(p) for p in ranks)):
        box = tuple(split[a][position[a]] for a in range(3))
        sides = []
        for axis in range(3):
            for other in (position[axis] - 1, position[axis] + 1):
                if 0 <= other < ranks[axis]:
                    same_node = other // block[axis] == position[axis] // block[axis]
                    sides.append((axis, inside if same_node else network))
        key = (box, tuple(sides))
        if key not in seen:
            seen[key] = rank_time(box, sides, order, t_point, face_cost, overlap)
        if slowest is None or seen[key][0] > slowest[0]:
            slowest = seen[key]
    return slowest


def weak_grid(ranks, order):
    """n^3 per rank: every box owns the (n - 2r)^3 points one GPU's run owns."""
    r = order // 2
    return tuple(p * (N - 2 * r) + 2 * r for p in ranks)


def fewest_points_split(count, grid, order):
    """parallel/rank_grid.cpp's auto: the split whose cuts exchange the fewest points, of equal ones
    the most ranks along z, then y; only splits that leave every box its ghosts."""
    r = order // 2
    best = None
    for z in range(count, 0, -1):
        for y in range(count // z, 0, -1):
            if count % (z * y) or split_of(grid, (count // z // y, y, z), order) is None:
                continue
            ranks = (count // z // y, y, z)
            inner = [n - 2 * r for n in grid]
            points = sum((p - 1) * inner[(a + 1) % 3] * inner[(a + 2) % 3] for a, p in enumerate(ranks))
            if best is None or points < best[0]:
                best = (points, ranks)
    return best[1] if best else None


def cubic_split(count):
    """The split of `count` ranks nearest a cube (the weak 3D run's grid is n - 2r points a rank on every axis)."""
    return min(((count // z // y, y, z) for z in range(1, count + 1) for y in range(1, count // z + 1)
                if count % (z * y) == 0), key=lambda s: (max(s) - min(s), -s[2]))


# The measured runs (600^3 float tiled, 500 steps, peer route, the defaults; ms a step, the slowest
# rank's): per call and order, its one-GPU step and {(kind, ranks): ms}. The only figure fitted is
# each order's cost per face, on its 2-GPU runs (`fits`): the mean of what strong and weak spend
# beyond the modelled compute (they differ by up to 80 us, which the model does not explain).
# Every other row is a prediction.
@dataclass(frozen=True)
class Measured:
    call: str
    order: int
    one_gpu_ms: float
    runs: dict
    fits: bool = False


S12 = "results/scaling_4xh200_s12.txt"
S14 = "results/scaling_4xh200_s14.txt"
MEASURED = [
    Measured(S12 + " call 4 (dc1cb1c)", 8, 3.1794, {("strong", 2): 1.5899, ("strong", 4): 0.8570,
                                                   ("weak", 2): 3.2607, ("weak", 4): 3.2950}, fits=True),
    Measured(S12 + " call 4 (dc1cb1c)", 2, 1.0028, {("strong", 2): 0.5414, ("strong", 4): 0.3135,
                                                   ("weak", 2): 1.0198, ("weak", 4): 1.0279}, fits=True),
    Measured(S12 + " call 4 (dc1cb1c)", 4, 2.4447, {("strong", 4): 0.6586, ("weak", 4): 2.4633}),
    Measured(S12 + " call 4 (dc1cb1c)", 6, 3.0624, {("strong", 4): 0.8335, ("weak", 4): 3.1047}),
    # Call 3: the same stepping on 2 ranks (its middle ranks were not yet balanced: 4-rank rows left out).
    Measured(S12 + " call 3", 4, 2.4442, {("strong", 2): 1.2659, ("weak", 2): 2.4680}, fits=True),
    Measured(S12 + " call 3", 6, 3.0649, {("strong", 2): 1.5776, ("weak", 2): 3.0882}, fits=True),
    Measured(S14 + " call 4 (be7e872)", 8, 3.163, {("strong", 2): 1.585, ("strong", 4): 0.865, ("weak", 2): 3.233,
                                                  ("weak", 4): 3.256}),
    Measured(S14 + " call 4 (be7e872)", 2, 1.012, {("strong", 2): 0.545, ("strong", 4): 0.318, ("weak", 2): 1.028,
                                                  ("weak", 4): 1.037}),
]
# The one-GPU steps the projections start from: the latest call's.
LATEST_ONE_GPU_MS = {m.order: m.one_gpu_ms for m in MEASURED if m.call.startswith(S14)}


def t_point_of(order, one_gpu_ms):
    return one_gpu_ms * 1e-3 / (N - order) ** 3


def case_grid(kind, ranks, order):
    return (N, N, N) if kind == "strong" else weak_grid(ranks, order)


def efficiency(kind, count, one_gpu_s, seconds):
    return one_gpu_s / (count * seconds) if kind == "strong" else one_gpu_s / seconds


def face_costs():
    """Each order's cost per face with a neighbour: what its 2-GPU runs (one face a rank) spend
    beyond the model without it, strong and weak averaged."""
    costs = {}
    for m in MEASURED:
        if m.fits:
            excess = [m.runs[(kind, 2)] * 1e-3 - step_time(case_grid(kind, (1, 1, 2), m.order), (1, 1, 2), m.order,
                                                           t_point_of(m.order, m.one_gpu_ms), 0.0, True)[0]
                      for kind in ("strong", "weak")]
            costs[m.order] = sum(excess) / len(excess)
    return costs


def markdown(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def nvlink_check(costs):
    rows, worst = [], 0.0
    for m in MEASURED:
        for (kind, count), ms in sorted(m.runs.items()):
            seconds = step_time(case_grid(kind, (1, 1, count), m.order), (1, 1, count), m.order,
                                t_point_of(m.order, m.one_gpu_ms), costs[m.order], True)[0]
            error = seconds * 1e3 / ms - 1
            worst = max(worst, abs(error))
            rows.append([m.call, str(m.order), "%s %d" % (kind, count),
                         "fit" if m.fits and count == 2 else "prediction", "%.3f" % ms, "%.3f" % (seconds * 1e3),
                         "%+.1f%%" % (100 * error),
                         "%.1f%%" % (100 * efficiency(kind, count, m.one_gpu_ms, ms)),
                         "%.1f%%" % (100 * efficiency(kind, count, m.one_gpu_ms * 1e-3, seconds))])
    header = ["call", "order", "run", "role", "measured ms", "model ms", "error", "measured eff", "model eff"]
    return markdown(header, rows), worst


def hiding_rate(grid, ranks, order, t_point, cost):
    """The slowest link speed (GB/s) at which the overlap hides the whole exchange."""
    low, high = 0.01, 10000.0
    for _ in range(40):
        middle = (low * high) ** 0.5
        if step_time(grid, ranks, order, t_point, cost, True, assumed_link(middle))[1] >= 0.999:
            high = middle
        else:
            low = middle
    return high


def slow_links(costs, measured_routes):
    # Tuned socket threads and MPI over TCP are not measured yet: the assumed rates bracket them.
    routes = [NCCL_SOCKET] + measured_routes + [assumed_link(1), assumed_link(3), assumed_link(10)]
    cases = [("strong", (1, 1, 2)), ("strong", (1, 1, 4)), ("strong", (2, 2, 1)),
             ("weak", (1, 1, 2)), ("weak", (1, 1, 4)), ("weak", (2, 2, 1))]
    rows = []
    for order in (8, 2):
        one_gpu_ms = LATEST_ONE_GPU_MS[order]
        t_point = t_point_of(order, one_gpu_ms)
        for kind, ranks in cases:
            grid, count = case_grid(kind, ranks, order), ranks[0] * ranks[1] * ranks[2]
            row = [str(order), "%s %d" % (kind, count), "%dx%dx%d" % ranks]
            for route in routes:
                effs = []
                for overlap in (False, True):
                    seconds, hidden = step_time(grid, ranks, order, t_point, costs[order], overlap, route)
                    effs.append(100 * efficiency(kind, count, one_gpu_ms * 1e-3, seconds))
                row.append("%.1f / %.1f%% (%.0f%%)" % (effs[0], effs[1], 100 * hidden))
            row.append("%.0f" % hiding_rate(grid, ranks, order, t_point, costs[order]))
            rows.append(row)
    header = ["order", "run", "split"] + [r.name + ": off / on (hidden)" for r in routes] + ["GB/s to hide it all"]
    return markdown(header, rows)


def network_row(kind, count, order, costs, n_strong):
    """One count over nodes: slabs and the 3D split (auto's for strong, the cube for weak), overlap off / on."""
    one_gpu_ms = LATEST_ONE_GPU_MS[order]
    t_point = t_point_of(order, one_gpu_ms)
    row = [str(count), str(order)]
    slabs = (1, 1, count)
    if kind == "weak":
        splits = [(slabs, weak_grid(slabs, order)), (cubic_split(count), weak_grid(cubic_split(count), order))]
        one_gpu_s = one_gpu_ms * 1e-3
    else:
        grid = (n_strong,) * 3
        splits = [(slabs, grid), (fewest_points_split(count, grid, order), grid)]
        one_gpu_s = t_point * (n_strong - order) ** 3
    for ranks, grid in splits:
        results = [step_time(grid, ranks, order, t_point, costs[order], overlap, NVLINK, NETWORK)
                   if ranks else None for overlap in (False, True)]
        if results[0] is None:
            row += ["%dx%dx%d" % ranks if ranks else "-", "does not fit"]
            continue
        effs = [100 * efficiency(kind, count, one_gpu_s, result[0]) for result in results]
        row += ["%dx%dx%d" % ranks, "%.1f / %.1f%% (%.0f%%)" % (effs[0], effs[1], 100 * results[1][1])]
    return row


def measured_link(text):
    """--link GB/s:latency us, as scaling.sh's links table reports a link."""
    try:
        rate, latency = (float(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError("--link %s is not GB/s:latency_us (such as 2.5:120)" % text)
    if rate <= 0 or latency < 0:
        raise argparse.ArgumentTypeError("--link %s: the rate must be positive, the latency not negative" % text)
    return assumed_link(rate, latency * 1e-6, "%g us, given" % latency)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--link", type=measured_link, action="append", default=[],
                        help="a link to add to the slow-link table, GB/s:latency_us (repeatable)")
    args = parser.parse_args()
    costs = face_costs()
    print("# The halo exchange's model: its tables (benchmarks/distributed_model.py)\n")
    print("Inputs: NVLink copy engines %s; beside the interior x%.2f; NCCL NET/Socket %.3f GB/s; network %.0f GB/s "
          "and %.0f us a GPU, %d GPUs a node; pack and unpack at %.2f TB/s (read plus write)."
          % (", ".join("%d face%s %.1f us + %.0f GB/s" % (k + 1, "s" if k else "", l.latency_s * 1e6,
                                                          l.bytes_per_s / 1e9) for k, l in enumerate(NVLINK.rates)),
             PEER_BESIDE_INTERIOR, NCCL_SOCKET.rates[0].bytes_per_s / 1e9, NETWORK.rates[0].bytes_per_s / 1e9,
             NETWORK.rates[0].latency_s * 1e6, GPUS_PER_NODE, COPY_BYTES_PER_S / 1e12))
    print("Cost per face, fitted on each order's 2-GPU runs: "
          + ", ".join("order %d %.1f us" % (o, costs[o] * 1e6) for o in sorted(costs)) + ".\n")
    table, worst = nvlink_check(costs)
    print("## NVLink check: the model against the runs (600^3 float tiled, z slabs, copy engines)\n")
    print(table)
    print("\nNVLink check: largest |error| %.1f%% (limit %.0f%%): %s\n"
          % (100 * worst, 100 * CHECK_LIMIT, "within" if worst <= CHECK_LIMIT else "NOT within"))
    print("## Slow links on one host (predicted; efficiency with overlap off / on, share of the exchange hidden)\n")
    print(slow_links(costs, args.link))
    for kind, n_strong in (("weak", None), ("strong", 2400)):
        title = "600^3 a GPU" if kind == "weak" else "%d^3 in all" % n_strong
        print("\n## %s scaling over a network (%s; predicted): slabs and 3D, overlap off / on (hidden)\n"
              % (kind.capitalize(), title))
        rows = [network_row(kind, 2 ** k, order, costs, n_strong) for order in (8, 2) for k in range(3, 13)]
        print(markdown(["GPUs", "order", "slabs", "efficiency", "3D split", "efficiency"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
