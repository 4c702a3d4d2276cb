#!/usr/bin/env bash
# Mutation testing: applies each small wrong patch of a list (tests/mutations/*.list) on its
# own to a scratch copy of this tree, builds it, runs the tests and reports whether any test
# failed (killed) or all passed (survived: the suite has a hole there). A record whose old text no
# longer occurs exactly once in its file is reported stale: update it where the code moved.
#
#   scripts/mutation_check.sh [--list FILE] [--full] [--only REGEX] [--jobs N] [--work DIR] [--cuda]
#                             [--families LIST] [--check-list]
#
#   --list FILE    the mutations (default tests/mutations/cpu.list; the CUDA kernels' list,
#                  tests/mutations/cuda.list, needs a GPU and --cuda)
#   --full         build everything and run the whole suite for each mutation (default: the
#                  targets and tests the record or the list names, a fast subset)
#   --only REGEX   only the records whose name matches REGEX (Python's re.search)
#   --jobs N       parallel build jobs and ctest jobs (default 2)
#   --work DIR     scratch directory, kept between runs so rebuilds are incremental
#                  (default ${TMPDIR:-/tmp}/heatrk4-mutations)
#   --cuda         configure with CUDA on (default off)
#   --families L   also build these tiled sweep families (HEAT_TILED_SWEEP_FAMILIES, a ;-list such
#                  as dmma): their kernels exist only in such a build, so their records need it
#   --check-list   only report stale records; builds nothing
#
# Exit 0 when every mutation was killed; 1 when one survived, is stale or did not build; 2 on bad
# usage or a baseline (the unmutated copy) that fails its own tests. Compiles through ccache
# where it is installed. PYTHON=/usr/bin/python3 picks the Python of the module and its tests.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
list=$repo/tests/mutations/cpu.list
full=0 only="" jobs=2 work=${TMPDIR:-/tmp}/heatrk4-mutations cuda=OFF families="" check_list=0
while (($#)); do
  case $1 in
    --list) list=$(realpath "$2"); shift 2 ;;
    --full) full=1; shift ;;
    --only) only=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --cuda) cuda=ON; shift ;;
    --families) families=$2; shift 2 ;;
    --check-list) check_list=1; shift ;;
    -h|--help) sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "mutation_check: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -f $list ]] || { echo "mutation_check: no list $list" >&2; exit 2; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "mutation_check: --jobs $jobs is not a positive whole number" >&2; exit 2; }

# The Python the build's module and its tests use ($PYTHON, else the first python3): it needs NumPy.
python=${PYTHON:-$(command -v python3)} || { echo "mutation_check: needs python3" >&2; exit 2; }
# The build directory sits in the copy as build/ does in a checkout, so that ccache (with
# CCACHE_BASEDIR above both) sees the same relative paths and reuses the checkout's compilations.
src=$work/src build=$work/src/build logs=$work/logs

# The scratch copy: the tracked and untracked-but-not-ignored files of this working tree, as they
# are now (uncommitted edits included). Over the last run's copy only a file whose bytes differ is
# written, and so gets a new time: make then rebuilds exactly what changed (a copy that kept the
# checkout's older times would leave objects of a mutated file looking up to date).
if ((!check_list)); then
  mkdir -p "$src" "$logs"
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard) | "$python" -c '
import pathlib, sys
repo, src = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for name in sys.stdin.buffer.read().decode().split("\0"):
    origin = repo / name
    if not name or not origin.is_file():
        continue
    target, data = src / name, origin.read_bytes()
    if not target.is_file() or target.read_bytes() != data:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        target.chmod(origin.stat().st_mode)
' "$repo" "$src"
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache
              -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$python" \
    -DHEAT_WITH_CUDA=$cuda -DHEAT_TILED_SWEEP_FAMILIES="$families" -DHEAT_WITH_FUZZERS=OFF -DHEAT_WITH_BENCHMARKS=OFF "${launcher[@]}" \
    >"$logs/configure.log" 2>&1 || { echo "mutation_check: configure failed: $logs/configure.log" >&2; exit 2; }
fi

exec "$python" "$repo/scripts/mutation_check.py" --list "$list" --src "$src" --build "$build" --logs "$logs" \
  --jobs "$jobs" --full "$full" --only "$only" --check-list "$check_list" --repo "$repo"
