"""README.md's worked example (a heated block), run as it is written there and held to its physics.

usage: readme_example.py run|plot|paraview README HEATRK4 WORKDIR BUILD_DIR

The commands are read from the README's section "A worked example" (each shell command of its
```sh blocks), never copied here, so the example cannot rot. They run in WORKDIR, with HEATRK4's
folder first on the PATH and the README's relative paths there (`build/`: BUILD_DIR, `scripts/`:
the source tree's), as they run in the repository's root:
  run       the heatrk4 run; then the physics of its monitors.csv (check_physics)
  plot      `heatrk4 plot`: a PNG of 1000 x 700 pixels; skipped (77) without matplotlib
  paraview  the pvbatch command: a PNG of 800 x 600; skipped (77) without pvbatch, xvfb-run or
            ParaView's Python modules
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
SECTION = "### A worked example"
# The heat balance holds to this fraction of the heat through the faces: the monitors' rate on a
# convective face is the closure's to second order in h (0.05% in the README's run), not its flux
# to rounding.
BALANCE_TOLERANCE = 1e-3


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def skip(message):
    print(f"SKIPPED: {message}")
    sys.exit(SKIPPED)


def example_commands(readme):
    """The shell commands of the worked example's ```sh blocks, continuation lines joined."""
    text = readme.read_text()
    start = text.find(SECTION)
    if start < 0:
        fail(f"{readme} has no section '{SECTION}'")
    end = text.find("\n#", start + len(SECTION))
    blocks = re.findall(r"```sh\n(.*?)```", text[start:end if end > 0 else len(text)], re.S)
    commands = [line.strip() for block in blocks for line in block.replace("\\\n", " ").splitlines()]
    return [c for c in commands if c and not c.startswith("#")]


def command_of(part, commands):
    """The one command of `part`: the run (heatrk4 but plot), the plot or the pvbatch view."""
    def part_of(command):
        if "pvbatch" in command:
            return "paraview"
        if command.startswith("heatrk4 plot "):
            return "plot"
        if command.startswith("heatrk4 "):
            return "run"
        fail(f"the worked example's command '{command}' is none of the parts this test runs")
    chosen = [c for c in commands if part_of(c) == part]
    if len(chosen) != 1:
        fail(f"the worked example has {len(chosen)} {part} commands, the test expects one: {commands}")
    return chosen[0]


def prepare(workdir, build_dir):
    """WORKDIR as the repository's root looks to the README's commands."""
    workdir.mkdir(parents=True, exist_ok=True)
    source_scripts = pathlib.Path(__file__).resolve().parents[1] / "scripts"
    for name, target in (("build", build_dir), ("scripts", source_scripts)):
        link = workdir / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)


def run_shell(command, workdir, heatrk4):
    environment = dict(os.environ, PATH=f"{pathlib.Path(heatrk4).parent}{os.pathsep}{os.environ['PATH']}")
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


def check_physics(run_command, summary, workdir):
    """The monitors of the run: the heat balance, the heater's probe rising, the hottest and coldest points."""
    power = re.search(r"total power ([0-9.e+-]+) W", summary)
    if not power:
        fail("the summary states no total power")
    power = float(power.group(1))
    rows = list(csv.DictReader(open(workdir / option_value(run_command, "--output") / "monitors.csv")))
    if len(rows) < 10:
        fail(f"monitors.csv has {len(rows)} rows")
    probes = [name for name in rows[0] if name.startswith("probe(")]
    faces = [name for name in rows[0] if name.startswith("heat_in_")]
    if len(probes) != 2 or len(faces) != 6:
        fail(f"columns {list(rows[0])}: expected the heater's and the corner's probe and six faces")
    time = [float(r["time"]) for r in rows]
    heat = [float(r["total_heat"]) for r in rows]
    into_faces = [sum(float(r[face]) for face in faces) for r in rows]  # no layer face: every cell holds a rate
    t_end = float(option_value(run_command, "--t-end"))
    if time[-1] != t_end:
        fail(f"the last row is at time {time[-1]!r}, not --t-end {t_end!r}")

    # d(total heat)/dt = P + the heat into the faces, integrated over the rows by the trapezoid rule.
    through_faces = sum((time[n + 1] - time[n]) * (into_faces[n] + into_faces[n + 1]) / 2 for n in range(len(rows) - 1))
    lost = sum((time[n + 1] - time[n]) * (abs(into_faces[n]) + abs(into_faces[n + 1])) / 2 for n in range(len(rows) - 1))
    change = heat[-1] - heat[0]
    residual = change - (power * (time[-1] - time[0]) + through_faces)
    print(f"heat balance: change {change:.6g} J, source {power * t_end:.6g} J, faces {through_faces:.6g} J, "
          f"residual {residual:.3g} J = {residual / lost:.3g} of the heat through the faces "
          f"(tolerance {BALANCE_TOLERANCE})")
    if not through_faces < 0 or not abs(residual) <= BALANCE_TOLERANCE * lost:
        fail("the heat balance does not close")

    heater, corner = ([float(r[name]) for r in rows] for name in probes)
    if not all(later > earlier for earlier, later in zip(heater, heater[1:])):
        fail(f"{probes[0]} does not rise at every row: {heater}")
    # The corner, far from the heater, sits at its start until the heat arrives: there it may move by
    # a rounding either way (-2e-13 K at the first row in the README's run).
    if not all(later >= earlier - 1e-12 * abs(earlier) for earlier, later in zip(corner, corner[1:])) or \
            not corner[-1] > corner[0]:
        fail(f"{probes[1]} falls by more than a rounding somewhere, or never rises: {corner}")
    last = rows[-1]
    near = lambda a, b: abs(a - b) <= 1e-9 * abs(b)
    if not near(heater[-1], float(last["max"])) or not near(corner[-1], float(last["min"])):
        fail(f"the heater ({heater[-1]}) and the corner ({corner[-1]}) are not the hottest and the coldest points "
             f"({last['max']}, {last['min']})")
    print(f"probes: heater {heater[0]} -> {heater[-1]}, corner {corner[0]} -> {corner[-1]}, mean {last['mean']}")


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
    if len(sys.argv) != 6 or sys.argv[1] not in ("run", "plot", "paraview"):
        sys.exit(__doc__)
    part, readme, heatrk4, workdir, build_dir = sys.argv[1], *map(pathlib.Path, sys.argv[2:])
    command = command_of(part, example_commands(readme))
    workdir = workdir.resolve()
    prepare(workdir, build_dir.resolve())
    if part == "run":
        # A new run into an --output that holds another run's files is refused: the last test's goes first.
        shutil.rmtree(workdir / option_value(command, "--output"), ignore_errors=True)
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
