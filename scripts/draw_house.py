#!/usr/bin/env python3
"""Draws the house: which folder's code includes which, from every `#include "..."` of the tree.

    scripts/draw_house.py            # writes docs/house.dot, and docs/house.svg where Graphviz is
    scripts/draw_house.py --check    # CTest's house_matches_includes; needs no Graphviz

Each source file (.hpp .cpp .cu .cuh .c, tracked or new and not ignored) and each file it includes
(resolved as the compiler does: beside the including file, then from the repository root) belongs
to a folder: its top folder, or for backends/ and io/zfp/ the folder one level down. The folders
are the boxes, the includes between them the arrows (from includer to included), each labelled
with how many `#include` lines it stands for; the layers are ranked from the top, each below the
ones that may include it. The arrows of tests/, benchmarks/ and fuzz/, which would cross every
other, are counted in their boxes instead.

The layers, from the bottom: stencils < core < backends < parallel < io < check < apps < python.
A file of a layer includes only files of its own layer or of layers below it: nothing under
stencils/, core/, backends/ or parallel/ includes io/ or apps/, and no layer includes tests/,
benchmarks/ or fuzz/, which may include anything. An include that breaks the rule is drawn red.

--check exits 1 when docs/house.dot is not what the includes draw now ("run scripts/draw_house.py")
or when an include breaks the layer rule (one `file:line #include "..."` line each).
"""
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOT = ROOT / "docs/house.dot"
SVG = ROOT / "docs/house.svg"
SOURCE_EXTENSIONS = (".hpp", ".cpp", ".cu", ".cuh", ".c")
# From the bottom; a folder's layer is its top folder's.
LAYERS = ["stencils", "core", "backends", "parallel", "io", "check", "apps", "python"]
# Folders outside the layers, which may include anything and which no layer includes.
FREE = ["tests", "benchmarks", "fuzz"]
SPLIT = {"backends": 2, "io/zfp": 2}  # folders drawn one level down
WHAT = {
    "stencils": "the math: coefficients, one point's Laplacian, RK4's forms",
    "core": "problem, field, backend interface, time loop, snapshot pipeline",
    "backends": "the registry",
    "backends/cpu": "cpu, cpu_reference",
    "backends/cuda": "CUDA base, naive, reuse",
    "backends/tiled": "the 2.5D shared-memory backend",
    "parallel": "decomposition, ghost-plane exchanges, ranks",
    "io": "snapshots, series, safe writes, input files",
    "io/zfp": "ZFP codec, GPU encoder",
    "check": "norms, reference, analytic, convergence",
    "apps": "the heatrk4 command line",
    "python": "the Python module",
    "tests": "the test programs",
    "benchmarks": "the benchmark programs",
    "fuzz": "the fuzz targets",
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def source_files():
    """The tree's source files relative to the root: git's (tracked, or new and not ignored) that
    exist; without git, every one outside hidden folders and build trees."""
    try:
        result = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard"],
                                capture_output=True, text=True)
        names = result.stdout.splitlines() if result.returncode == 0 else None
    except OSError:
        names = None
    if names is None:
        names = [path.relative_to(ROOT).as_posix() for path in ROOT.rglob("*")
                 if not any(part.startswith((".", "build")) for part in path.relative_to(ROOT).parts)]
    return sorted({name for name in names if name.endswith(SOURCE_EXTENSIONS) and (ROOT / name).is_file()})


def folder_of(path):
    parts = path.split("/")
    if len(parts) == 1:
        return "."
    for prefix, depth in SPLIT.items():
        if path.startswith(prefix + "/") and len(parts) > depth:
            return "/".join(parts[:depth])
    return parts[0]


def layer_of(folder):
    top = folder.split("/")[0]
    if top in LAYERS:
        return LAYERS.index(top)
    return None


def resolve(including, name, files):
    """The tree file `#include "name"` in including names, or None (a system or generated header)."""
    beside = (Path(including).parent / name).as_posix()
    for candidate in (beside, name):
        candidate = str(Path(candidate))  # drops "./"
        if candidate in files:
            return candidate
    # Found through an include directory of the build (tests/distributed/ includes tests/'s headers).
    found = [path for path in files if path.endswith("/" + name)]
    return found[0] if len(found) == 1 else None


def read_includes():
    files = source_files()
    present = set(files)
    includes = []  # (file, line, text, included file)
    for name in files:
        for number, line in enumerate((ROOT / name).read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if match:
                target = resolve(name, match.group(1), present)
                if target:
                    includes.append((name, number, match.group(1), target))
    return files, includes


def breaks_rule(source_folder, target_folder):
    source_layer, target_layer = layer_of(source_folder), layer_of(target_folder)
    if source_folder.split("/")[0] in FREE:
        return False
    if target_folder.split("/")[0] in FREE:
        return source_layer is not None
    return source_layer is not None and target_layer is not None and target_layer > source_layer


def dot_text(files, includes):
    folders = sorted({folder_of(name) for name in files})
    counts = Counter(folder_of(name) for name in files)
    inside = Counter(folder_of(source) for source, _, _, target in includes if folder_of(source) == folder_of(target))
    edges = Counter((folder_of(source), folder_of(target)) for source, _, _, target in includes
                    if folder_of(source) != folder_of(target))
    lines = [
        "// The house: which folder's code includes which. Generated by scripts/draw_house.py from the",
        "// #include lines of the tree; do not edit (CTest's house_matches_includes compares).",
        "digraph house {",
        '  graph [rankdir=TB, newrank=true, ranksep=0.55, nodesep=0.3, fontname="Helvetica", fontsize=11,',
        '         label="An arrow: the files of one folder include the other\'s (how many #include lines). '
        'Layers from the bottom; a red arrow points up.", labelloc=b];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, fillcolor="#eef3fb"];',
        '  edge [fontname="Helvetica", fontsize=9, color="#4a5a75", fontcolor="#4a5a75", arrowsize=0.6];',
    ]
    tiers = [("free", [f for f in folders if f.split("/")[0] in FREE or layer_of(f) is None])]
    tiers += [(layer, [f for f in folders if layer_of(f) == index]) for index, layer in reversed(list(enumerate(LAYERS)))]
    tiers = [(name, members) for name, members in tiers if members]
    for name, members in tiers:
        if name == "free" or len(members) == 1:
            lines.append(f"  subgraph tier_{name} {{ rank=same;")
        else:  # a layer of several folders: a frame, inside which the includes rank them
            lines.append(f'  subgraph cluster_{name} {{ label="{name} layer"; labeljust=r; style=dashed; '
                         'color="#9aa8bf"; fontsize=9; fontcolor="#6b7a94";')
        for folder in members:
            free = name == "free"
            label = f"{folder}/\\n{WHAT.get(folder, '')}\\n{counts[folder]} files, {inside[folder]} includes inside"
            if free:  # their arrows would cross every other: their counts are in the box instead
                out = sorted(((target, count) for (source, target), count in edges.items() if source == folder),
                             key=lambda item: (-item[1], item[0]))
                rows = [", ".join(f"{target} {count}" for target, count in out[i:i + 4]) for i in range(0, len(out), 4)]
                label += "\\nincludes (not drawn): " + "\\n".join(rows)
            style = ', fillcolor="#f4f4f4", color="#999999", fontsize=9' if free else ""
            lines.append(f'    "{folder}" [label="{label}"{style}];')
        lines.append("  }")
    # Invisible links hold the tiers in order from the top, whatever the arrows say.
    for (_, upper), (_, lower) in zip(tiers, tiers[1:]):
        for high in upper:
            for low in lower:
                lines.append(f'  "{high}" -> "{low}" [style=invis];')
    for (source, target), count in sorted(edges.items()):
        attributes = [f'label="{count}"']
        if breaks_rule(source, target):
            attributes += ['color="#d62728"', 'fontcolor="#d62728"', "penwidth=2", "constraint=false"]
        elif source.split("/")[0] in FREE:
            continue
        lines.append(f'  "{source}" -> "{target}" [{", ".join(attributes)}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        print("usage: scripts/draw_house.py [--check]", file=sys.stderr)
        return 2
    files, includes = read_includes()
    text = dot_text(files, includes)
    upward = [(source, number, name, target) for source, number, name, target in includes
              if breaks_rule(folder_of(source), folder_of(target))]
    for source, number, name, target in upward:
        print(f'{source}:{number} #include "{name}": {folder_of(source)}/ may not include {folder_of(target)}/')
    between = sum(folder_of(source) != folder_of(target) for source, _, _, target in includes)
    summary = (f"draw_house: {len(files)} source files, {len(includes)} includes of the tree's files "
               f"({between} between folders), {len({folder_of(name) for name in files})} folders; "
               f"{len(upward)} against the layers")
    problems = len(upward)
    if check:
        if not DOT.exists() or DOT.read_text() != text:
            print(f"{DOT.relative_to(ROOT)} is not what the includes draw now: run scripts/draw_house.py")
            problems += 1
        print(summary)
        return 1 if problems else 0
    DOT.write_text(text)
    written = [DOT.relative_to(ROOT).as_posix()]
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg", str(DOT), "-o", str(SVG)], check=True)
        written.append(SVG.relative_to(ROOT).as_posix())
    else:
        print("draw_house: no Graphviz `dot` here (apt-get install graphviz): docs/house.svg not redrawn")
    print(f"{summary}; wrote {', '.join(written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
