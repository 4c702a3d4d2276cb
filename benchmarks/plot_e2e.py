"""Where the time of each end-to-end run goes (benchmarks/e2e.sh's JSON), one bar per run: the
run summary's phases, the rest of the wall time (process start, CUDA's start, exit) and the
bound measured beside it. A "sync" run writes its snapshots in the loop (--snapshot-buffers 0);
the run without it writes them on the writer thread while the steps go on.

    python3 benchmarks/plot_e2e.py E2E_JSON PNG [DEVICE]

Needs matplotlib; without it, says so and exits 0 (the JSON keeps everything for a later plot).
"""
import json
import sys

PARTS = ["setup_s", "upload_s", "compute_s", "download_s", "output_wait_s"]


def main():
    jsons, png = sys.argv[1:3]
    device = sys.argv[3] if len(sys.argv) > 3 else ""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: no plot; run benchmarks/plot_e2e.py on %s where it is installed)" % jsons)
        return
    entries = json.load(open(jsons))
    runs = [e for e in entries if "summary" in e]
    bounds = {e["label"]: e["write_bound_s"] for e in entries if "write_bound_s" in e}
    labels = [e["label"] for e in runs]
    fig, ax = plt.subplots(figsize=(11, 0.45 * len(labels) + 1.8))
    left = [0.0] * len(runs)
    for part in PARTS + ["other"]:
        if part == "other":
            widths = [max(0.0, e["wall_s"] - l) for e, l in zip(runs, left)]
        else:
            widths = [e["summary"]["timing"].get(part, 0) for e in runs]
        ax.barh(labels, widths, left=left, label=part.replace("_s", "").replace("_", " "))
        left = [a + b for a, b in zip(left, widths)]
    # The bound: setup + max(compute, the write bound of the same bytes on the same disk).
    for y, e in enumerate(runs):
        write = bounds.get(e["label"].replace(" sync", "").replace(" one core", ""))
        if write is not None:
            t = e["summary"]["timing"]
            ax.plot([t["setup_s"] + max(t["compute_s"], write)] * 2, [y - 0.4, y + 0.4], color="k", linewidth=2)
    ax.plot([], [], color="k", linewidth=2, label="bound")
    ax.invert_yaxis()
    ax.set_xlabel("seconds (wall time of the process)")
    ax.set_title("heatrk4 end to end%s: where the time goes (sync = before, snapshots written in the loop)" %
                 (" on " + device if device else ""))
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print("plot: %s" % png)


if __name__ == "__main__":
    main()
