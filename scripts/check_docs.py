#!/usr/bin/env python3
"""Checks docs/design.md and README.md against what the program prints.

    scripts/check_docs.py build/apps/heatrk4

The lists a user reads (run options, subcommands, backends, tiled's default of each order and
precision) are printed by `heatrk4 --help` and `heatrk4 backends`; this compares the documents with
them both ways: every option and backend the program has is documented, every option the documents
name exists, and every tiled configuration that docs/design.md or README.md names, and each row of
benchmarks/worklog.md's table of the defaults, is the default the program prints. Exit 0 when they
agree, 1 with one line per difference otherwise.
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def program_output(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


def help_options_and_commands(binary):
    text = program_output(binary, "--help")
    options = set(re.findall(r"^\s+(?:-\w,)?(--[a-z][a-z0-9-]*)", text, re.M))
    commands_block = text.split("Subcommands:", 1)[1] if "Subcommands:" in text else ""
    commands = set(re.findall(r"^  ([a-z]+)\s", commands_block, re.M))
    return options, commands


def registry_backends(text):
    """The backends this build has, and whether it has CUDA (else the CUDA ones are missing)."""
    rows = text.split("\n\n", 1)[0].splitlines()[1:]
    return {row.split()[0] for row in rows if row.strip()}, "this build has no CUDA" not in text


# A tiled configuration's name, e.g. factors/32x16/c2x1/a2/tma2 (docs/design.md §5).
CONFIGURATION = re.compile(r"\b((?:all4|factor-pairs|factors)/\d+x\d+/c2x\d+(?:/[a-z]+\d+)*)")


def tiled_defaults(text):
    """{(order, precision): configuration} from the table `heatrk4 backends` prints for tiled."""
    block = re.search(r"^tiled: the default of each order and precision.*\n[^\n]*\n((?:\d[^\n]*\n?)*)", text, re.M)
    rows = block.group(1).splitlines() if block else []
    return {(int(row.split()[0]), row.split()[1]): row.split()[2] for row in rows}


def worklog_defaults(worklog):
    """The rows "| 8 float | `factors/...` | ..." of the worklog's table of the tiled defaults."""
    match = re.search(r"^### The tiled defaults.*?(?=^### |\Z)", worklog, re.M | re.S)
    table = match.group(0) if match else ""
    return {(int(order), precision): configuration
            for order, precision, configuration in re.findall(r"^\| (\d) (float|double) \| `([^`]+)` \|", table, re.M)}


def tiled_problems(defaults, design, readme, worklog):
    """Where the documents' tiled defaults differ from the ones the program prints."""
    problems = []
    expected = {(order, precision) for order in (2, 4, 6, 8) for precision in ("float", "double")}
    for order, precision in sorted(expected - defaults.keys()):
        problems.append(f"heatrk4 backends prints no tiled default for order {order} in {precision}")
    if "`heatrk4 backends`" not in section(design, 5):
        problems.append("docs/design.md §5 does not cite `heatrk4 backends` for tiled's defaults")
    printed = set(defaults.values())
    for name, text in (("docs/design.md", design), ("README.md", readme)):
        for configuration in sorted(set(CONFIGURATION.findall(text)) - printed):
            problems.append(f"{name} names tiled configuration {configuration}, which is no default "
                            f"heatrk4 backends prints")
    logged = worklog_defaults(worklog)
    for key in sorted(defaults):
        if logged.get(key) != defaults[key]:
            problems.append(f"benchmarks/worklog.md's table of the tiled defaults has {logged.get(key)} for order "
                            f"{key[0]} in {key[1]}; heatrk4 backends prints {defaults[key]}")
    return problems


def section(text, number):
    match = re.search(rf"^## {number}\. .*?(?=^## \d+\. |\Z)", text, re.M | re.S)
    return match.group(0) if match else ""


def main():
    binary = sys.argv[1]
    options, commands = help_options_and_commands(binary)
    backends_text = program_output(binary, "backends")
    backends, complete_build = registry_backends(backends_text)
    defaults = tiled_defaults(backends_text)
    design = (ROOT / "docs/design.md").read_text()
    readme = (ROOT / "README.md").read_text()
    worklog = (ROOT / "benchmarks/worklog.md").read_text()
    command_line = section(design, 3)
    backend_table = section(design, 2)
    problems = []
    if not options or not backends:
        problems.append(f"could not read the options ({len(options)}) or backends ({len(backends)}) from {binary}")
    for option in sorted(options - {"--help"}):
        for name, text in (("docs/design.md §3", command_line), ("README.md", readme)):
            if not re.search(re.escape(option) + r"(?![a-z0-9-])", text):
                problems.append(f"{option} (in --help) is not in {name}")
    documented_options = set(re.findall(r"`(--[a-z][a-z0-9-]*)", command_line.split("**Tolerances.**")[0]))
    for option in sorted(documented_options - options):
        problems.append(f"{option} is in docs/design.md §3's run options but not in --help")
    for command in sorted(commands):
        if not re.search(rf"^heatrk4 {command}\b", command_line, re.M) and command != "run":
            problems.append(f"subcommand {command} (in --help) is not in docs/design.md §3")
    backend_list = re.search(r"`--backend\s+([a-z_|]+)`", command_line)
    listed = set(backend_list.group(1).split("|")) if backend_list else set()
    for backend in sorted(backends):
        if not re.search(rf"^\| `{backend}` \|", backend_table, re.M):
            problems.append(f"backend {backend} (in heatrk4 backends) has no row in docs/design.md §2")
        if backend not in listed:
            problems.append(f"backend {backend} is not in docs/design.md §3's --backend list")
    for backend in sorted(listed - backends - {"auto"} if complete_build else ()):
        problems.append(f"docs/design.md §3 lists --backend {backend}, which heatrk4 backends does not")
    # A build without CUDA has no tiled backend, so nothing to hold the documents to.
    if "tiled" in backends:
        problems += tiled_problems(defaults, design, readme, worklog)
    for line in problems:
        print(line)
    print(f"check_docs: {len(options)} options, {len(commands)} subcommands, {len(backends)} backends, "
          f"{len(defaults)} tiled defaults; {len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
