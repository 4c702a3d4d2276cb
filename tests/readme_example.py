"""README.md's worked examples (a heated block; a copper block in epoxy), run as they are written
there and held to their physics.

usage: readme_example.py run|plot|paraview README HEATRK4 WORKDIR BUILD_DIR [block|copper]

The commands are read from the example's README section (each shell command of its ```sh blocks),
never copied here, so the example cannot rot. They run in WORKDIR, with HEATRK4's folder first on
the PATH, then a `python3` that is this script's Python (the one the heatrk4 module is built for),
and the README's relative paths there (`build/`: BUILD_DIR, `scripts/` and `docs/`: the source
tree's), as they run in the repository's root:
  run       the commands that write the run's inputs (python3 scripts/...), then the heatrk4 run;
            then the physics of its monitors.csv (the example's check)
  plot      `heatrk4 plot`: a PNG of 1000 x 700 pixels; skipped (77) without matplotlib
  paraview  the pvbatch command: a PNG of 800 x 600; skipped (77) without pvbatch, xvfb-run or
            ParaView's Python modules
The example is `block` (the default) or `copper`.
Exit 0: passed, 1: failed, 77: skipped (CTest's SKIP_RETURN_CODE)."""
import csv
import os
import pathlib
import re
import shlex
import shutil
import struct
import subprocess
import sys

SKIPPED = 77
# The heated block's heat balance holds to this fraction of the heat through the faces: at order 8
# the monitors' rate on a convective face is the closure's to second order in h (0.05% in the
# README's run), not its flux to rounding.
BLOCK_BALANCE_TOLERANCE = 1e-3


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def skip(message):
    print(f"SKIPPED: {message}")
    sys.exit(SKIPPED)


def section_text(readme, section):
    """The text of the README's section headed `section`, up to the next heading."""
    text = readme.read_text()
    start = text.find(section + "\n")
    if start < 0:
        fail(f"{readme} has no section '{section}'")
    end = text.find("\n#", start + len(section))
    return text[start:end if end > 0 else len(text)]


def example_commands(text):
    """The shell commands of a section's ```sh blocks, continuation lines joined."""
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    commands = [line.strip() for block in blocks for line in block.replace("\\\n", " ").splitlines()]
    return [c for c in commands if c and not c.startswith("#")]


def part_of(command):
    """The part a command belongs to: the run's inputs (a script of scripts/), the run (heatrk4
    but plot), the plot or the pvbatch view."""
    if "pvbatch" in command:
        return "paraview"
    if "python3 scripts/" in command:
        return "inputs"
    if command.startswith("heatrk4 plot "):
        return "plot"
    if command.startswith("heatrk4 "):
        return "run"
    fail(f"the worked example's command '{command}' is none of the parts this test runs")


def commands_of(part, commands):
    return [c for c in commands if part_of(c) == part]


def command_of(part, commands):
    """The one command of `part`."""
    chosen = commands_of(part, commands)
    if len(chosen) != 1:
        fail(f"the worked example has {len(chosen)} {part} commands, the test expects one: {commands}")
    return chosen[0]


def prepare(workdir, build_dir):
    """WORKDIR as the repository's root looks to the README's commands, and a folder `bin` holding
    `python3`: this script's Python."""
    workdir.mkdir(parents=True, exist_ok=True)
    source = pathlib.Path(__file__).resolve().parents[1]
    (workdir / "bin").mkdir(exist_ok=True)
    links = (("build", build_dir), ("scripts", source / "scripts"), ("docs", source / "docs"),
             ("bin/python3", pathlib.Path(sys.executable)))
    for name, target in links:
        link = workdir / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)


def run_shell(command, workdir, heatrk4):
    path = os.pathsep.join((str(pathlib.Path(heatrk4).parent), str(workdir / "bin"), os.environ["PATH"]))
    environment = dict(os.environ, PATH=path)
    print(f"$ {command}", flush=True)
    done = subprocess.run(command, shell=True, cwd=workdir, env=environment, capture_output=True, text=True,
                          timeout=240)
    print(done.stdout + done.stderr)
    return done


def option_value(command, option):
    words = shlex.split(command)
    values = [words[n + 1] for n, word in enumerate(words[:-1]) if word == option]
    if len(values) != 1:
        fail(f"the run command gives {option} {len(values)} times")
    return values[0]


def monitors(run_command, summary, workdir, probe_count):
    """The run's monitors.csv as columns: time, total heat, the heat into all faces together, each
    probe's temperatures (`probe_count` of them), and the last row; and the source's power."""
    power = re.search(r"total power ([0-9.e+-]+) W", summary)
    if not power:
        fail("the summary states no total power")
    rows = list(csv.DictReader(open(workdir / option_value(run_command, "--output") / "monitors.csv")))
    if len(rows) < 10:
        fail(f"monitors.csv has {len(rows)} rows")
    probes = [name for name in rows[0] if name.startswith("probe(")]
    faces = [name for name in rows[0] if name.startswith("heat_in_")]
    if len(probes) != probe_count or len(faces) != 6:
        fail(f"columns {list(rows[0])}: expected {probe_count} probes and six faces")
    time = [float(r["time"]) for r in rows]
    t_end = float(option_value(run_command, "--t-end"))
    if time[-1] != t_end:
        fail(f"the last row is at time {time[-1]!r}, not --t-end {t_end!r}")
    return dict(power=float(power.group(1)), time=time, heat=[float(r["total_heat"]) for r in rows],
                # no layer face: every row holds each face's rate
                into_faces=[sum(float(r[face]) for face in faces) for r in rows],
                probes=[[float(r[name]) for r in rows] for name in probes], names=probes, last=rows[-1])


def trapezoid(time, rate, rows):
    """The integral of `rate` over time by the trapezoid rule on the rows `rows` (indices)."""
    return sum((time[b] - time[a]) * (rate[a] + rate[b]) / 2 for a, b in zip(rows, rows[1:]))


def check_heat_balance(m, tolerance_of):
    """d(total heat)/dt = P + the heat into the faces, the rates integrated over the rows by the
    trapezoid rule: the residual within tolerance_of(m, every_row, through_faces, lost) joules, `lost`
    the heat through the faces either way."""
    time, every_row = m["time"], list(range(len(m["time"])))
    through_faces = trapezoid(time, m["into_faces"], every_row)
    lost = trapezoid(time, [abs(q) for q in m["into_faces"]], every_row)
    change = m["heat"][-1] - m["heat"][0]
    residual = change - (m["power"] * (time[-1] - time[0]) + through_faces)
    tolerance = tolerance_of(m, every_row, through_faces, lost)
    print(f"heat balance: change {change:.6g} J, source {m['power'] * time[-1]:.6g} J, faces {through_faces:.6g} J, "
          f"residual {residual:.3g} J = {residual / lost:.3g} of the heat through the faces "
          f"(tolerance {tolerance:.3g} J)")
    if not through_faces < 0 or not abs(residual) <= tolerance:
        fail("the heat balance does not close")


def near(a, b):
    return abs(a - b) <= 1e-9 * abs(b)


def rises_at_every_row(name, values):
    if not all(later > earlier for earlier, later in zip(values, values[1:])):
        fail(f"{name} does not rise at every row: {values}")


def check_block(run_command, summary, workdir):
    """The heated block's monitors: the heat balance, the heater's probe rising, the hottest and
    coldest points."""
    m = monitors(run_command, summary, workdir, 2)
    check_heat_balance(m, lambda m, rows, through_faces, lost: BLOCK_BALANCE_TOLERANCE * lost)
    heater, corner = m["probes"]
    rises_at_every_row(m["names"][0], heater)
    # The corner, far from the heater, sits at its start until the heat arrives: there it may move by
    # a rounding either way (-2e-13 K at the first row in the README's run).
    if not all(later >= earlier - 1e-12 * abs(earlier) for earlier, later in zip(corner, corner[1:])) or \
            not corner[-1] > corner[0]:
        fail(f"{m['names'][1]} falls by more than a rounding somewhere, or never rises: {corner}")
    last = m["last"]
    if not near(heater[-1], float(last["max"])) or not near(corner[-1], float(last["min"])):
        fail(f"the heater ({heater[-1]}) and the corner ({corner[-1]}) are not the hottest and the coldest points "
             f"({last['max']}, {last['min']})")
    print(f"probes: heater {heater[0]} -> {heater[-1]}, corner {corner[0]} -> {corner[-1]}, mean {last['mean']}")


def check_copper(run_command, summary, workdir):
    """The copper block's monitors: the heat balance, the die hottest, silicon and copper nearly
    isothermal against the epoxy beside the die."""
    m = monitors(run_command, summary, workdir, 4)

    # At order 2 the face rates are the closures' fluxes exactly (docs/design.md §1, "Monitors"), so
    # the balance is off by the trapezoid rule's error over the rows alone, which the rule on every
    # other row estimates (Richardson: the error of the finer rule is a third of their difference).
    # Twice that estimate, and a rounding of the total heat.
    def quadrature_error(m, rows, through_faces, lost):
        coarse = rows[::2] if rows[::2][-1] == rows[-1] else rows[::2] + rows[-1:]
        estimate = abs(trapezoid(m["time"], m["into_faces"], coarse) - through_faces) / 3
        return 2 * estimate + 1e-12 * abs(m["heat"][-1])

    check_heat_balance(m, quadrature_error)
    die, copper_top, copper_corner, epoxy = m["probes"]
    rises_at_every_row(m["names"][0], die)
    # Silicon and copper (diffusivities 9.2e-5 and 1.2e-4 m^2/s) even out over their millimetres in a
    # fraction of a second, and the copper's Biot number on the sink, h L / K, is 0.02: the hottest
    # point (the die's edge, beyond the copper's shadow) lies within a tenth of the die's rise of its
    # underside's centre, and the copper's two ends within a tenth of its rise. Epoxy (1.25e-7 m^2/s)
    # carries heat sqrt(4 alpha t) = 1.2 mm in 3 s: 2 mm beside the die it rises less than a tenth of
    # the die's rise.
    start, hottest = die[0], float(m["last"]["max"])
    if not 0 <= hottest - die[-1] < (die[-1] - start) / 10 or max(p[-1] for p in m["probes"]) != die[-1]:
        fail(f"the die's underside ({die[-1]} K) is not the hottest probe within a tenth of its rise of the "
             f"hottest point ({hottest} K)")
    copper_rise, copper_spread = copper_top[-1] - start, abs(copper_corner[-1] - copper_top[-1])
    print(f"probes at {m['time'][-1]} s: die {die[-1]:.6g} K, copper top {copper_top[-1]:.6g} K, copper corner "
          f"{copper_corner[-1]:.6g} K, epoxy beside the die {epoxy[-1]:.6g} K, from {start} K")
    if not 0 < copper_spread < copper_rise / 10:
        fail(f"the copper's ends differ by {copper_spread} K, not within a tenth of its rise {copper_rise} K")
    if not 0 < epoxy[-1] - start < (die[-1] - start) / 10:
        fail(f"the epoxy beside the die rose {epoxy[-1] - start} K, not less than a tenth of the die's "
             f"{die[-1] - start} K")


# Each example's README heading, its physics, and the files of the tree its ```toml blocks show.
EXAMPLES = {
    "block": ("### A worked example: a heated block", check_block, []),
    "copper": ("### A worked example with materials: a copper block in epoxy", check_copper,
               ["docs/copper_block/materials.toml"]),
}


def check_shown_files(text, files):
    """Each ```toml block of the section is its file of the tree, comment lines left out."""
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    if len(blocks) != len(files):
        fail(f"the section shows {len(blocks)} TOML blocks, the test knows {len(files)} files: {files}")
    source = pathlib.Path(__file__).resolve().parents[1]
    for block, name in zip(blocks, files):
        lines = [line for line in (source / name).read_text().splitlines() if not line.startswith("#")]
        if block.strip() != "\n".join(lines).strip():
            fail(f"the README's TOML block is not {name} (its comment lines left out)")


def png_size(path):
    data = path.read_bytes()[:24] if path.is_file() else b""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    return struct.unpack(">II", data[16:24])


def image_of(command):
    images = [word for word in shlex.split(command) if word.endswith(".png")]
    if len(images) != 1:
        fail(f"'{command}' names {len(images)} PNG files")
    return images[0]


def require_paraview(workdir, command):
    for program in ("pvbatch", "xvfb-run"):
        if not any((pathlib.Path(d) / program).exists() for d in os.environ["PATH"].split(os.pathsep)):
            skip(f"{program} not found (scripts/setup.sh installs paraview, xvfb and xauth)")
    path = re.search(r"PYTHONPATH=(\S+)", command)
    unpacked = path and (workdir / path.group(1) / "paraview" / "simple.py").is_file()
    if not unpacked and not pathlib.Path("/usr/lib/python3/dist-packages/paraview/simple.py").is_file():
        skip("ParaView's Python modules are neither where the README says nor installed "
             "(scripts/setup.sh unpacks python3-paraview into build/paraview-python)")


def main():
    if len(sys.argv) not in (6, 7) or sys.argv[1] not in ("run", "plot", "paraview") or \
            sys.argv[6:] and sys.argv[6] not in EXAMPLES:
        sys.exit(__doc__)
    part, readme, heatrk4, workdir, build_dir = sys.argv[1], *map(pathlib.Path, sys.argv[2:6])
    section, check_physics, shown_files = EXAMPLES[sys.argv[6] if len(sys.argv) == 7 else "block"]
    text = section_text(readme, section)
    commands = example_commands(text)
    command = command_of(part, commands)
    workdir = workdir.resolve()
    prepare(workdir, build_dir.resolve())
    if part == "run":
        check_shown_files(text, shown_files)
        # A new run into an --output that holds another run's files is refused: the last test's goes first.
        shutil.rmtree(workdir / option_value(command, "--output"), ignore_errors=True)
        for inputs in commands_of("inputs", commands):
            if run_shell(inputs, workdir, heatrk4).returncode != 0:
                fail(f"'{inputs}' failed")
    if part == "paraview":
        require_paraview(workdir, command)
    done = run_shell(command, workdir, heatrk4)
    # Once in a while xvfb-run's X server is not ready in time (README, "Viewing results").
    if part == "paraview" and "bad X server connection" in done.stdout + done.stderr:
        done = run_shell(command, workdir, heatrk4)
    if part == "plot" and done.returncode == 2 and "matplotlib" in done.stderr:
        skip("no python3 with matplotlib (scripts/setup.sh installs python3-matplotlib)")
    if done.returncode != 0:
        fail(f"exit {done.returncode}")
    if part == "run":
        check_physics(command, done.stdout, workdir)
        return
    if part == "paraview" and " ERR| " in done.stdout + done.stderr:
        fail("ParaView reported errors (the ERR| lines above)")
    expected = (1000, 700) if part == "plot" else (800, 600)
    size = png_size(workdir / image_of(command))
    if size != expected:
        fail(f"{image_of(command)} is {size[0]} x {size[1]} pixels, not {expected[0]} x {expected[1]}")
    print(f"{image_of(command)}: {size[0]} x {size[1]} pixels")


if __name__ == "__main__":
    main()
