# Sourced by the ParaView tests: the skip rule, where ParaView's python modules are, and a
# headless pvbatch run judged by its log. Exit 77 is CTest's SKIP_RETURN_CODE for these tests.

skip() { echo "SKIPPED: $*"; exit 77; }

# Skips unless pvbatch, xvfb-run and ParaView's python modules are there; $1: where the set-up
# unpacked python3-paraview (Debian 12's conflicts with libvtk9-dev, see docs/design.md §6), a
# normally installed one works too.
require_paraview() {
  command -v pvbatch >/dev/null 2>&1 || skip "pvbatch not found (the set-up command installs Debian's paraview)"
  command -v xvfb-run >/dev/null 2>&1 || skip "xvfb-run not found (the set-up command installs xvfb and xauth)"
  if [ -f "$1/paraview/simple.py" ]; then
    PYTHONPATH="$1${PYTHONPATH:+:$PYTHONPATH}"
    export PYTHONPATH
  elif [ ! -f /usr/lib/python3/dist-packages/paraview/simple.py ]; then
    skip "ParaView's python modules are neither in $1 nor installed (the set-up command unpacks python3-paraview there)"
  fi
}

# run_pvbatch LOG SCRIPT [ARGS...]: pvbatch headless, its log printed; exits with its status, or 1
# when ParaView reported an error. -a: a free display number, so parallel ctest runs do not
# collide. Once in ~20 CI runs the virtual X server was gone when pvbatch opened its window ("bad
# X server connection"): that is the harness, not a reader, so such a run is repeated once.
run_pvbatch() {
  log=$1
  shift
  status=0
  xvfb-run -a pvbatch "$@" >"$log" 2>&1 || status=$?
  if grep -q "bad X server connection" "$log"; then
    cat "$log"
    echo "RETRY: the virtual X server was not reachable; once more on a fresh one"
    status=0
    xvfb-run -a pvbatch "$@" >"$log" 2>&1 || status=$?
  fi
  cat "$log"
  # A reader that reports an error has not opened the file cleanly, even if values came through.
  if grep -q " ERR| " "$log"; then
    echo "FAILED: ParaView reported errors (the ERR| lines above)"
    exit 1
  fi
  exit "$status"
}
