#!/bin/sh
# Runs one libFuzzer target for a bounded time and judges what it found.
# usage: run_fuzz_target.sh FUZZER SEED_CORPUS WORK_DIR SECONDS
# The seed corpus (with every kept regression input) is replayed first. Fork mode keeps fuzzing
# past a crash so that one run reports all it finds; each crash is then replayed alone: a fault
# whose sanitizer summary lies in Debian's HDF5 (which does not validate corrupt metadata) is
# listed as the library's, and anything else (heatrk4's code, an escaped exception) fails the test.
set -u
fuzzer=$1 seeds=$2 work=$3 seconds=$4
name=$(basename "$fuzzer")
rm -rf "$work/artifacts-$name"
mkdir -p "$work/corpus-$name" "$work/artifacts-$name"
# An input takes milliseconds; one that hangs (a loop in corrupt metadata) becomes a timeout input,
# judged like a crash, instead of outliving CTest's limit (libFuzzer's default is 20 minutes).
timeout=-timeout=10
"$fuzzer" -fork=1 -ignore_crashes=1 -max_total_time="$seconds" -close_fd_mask=3 $timeout \
  -artifact_prefix="$work/artifacts-$name/" "$work/corpus-$name" "$seeds" >"$work/$name.log" 2>&1
status=$?
tail -n 3 "$work/$name.log"
# Some of HDF5's faults appear only after the same input has been read many times in one process
# (state the library keeps between calls; fork mode's children read thousands of inputs before one
# faults): each input is replayed up to this many times, stopping at the first fault. The kept
# inputs of hdf5_crashes/ fault on their 1st, 4th and 600th-1200th read.
replays=10000
failed=0
for input in "$work/artifacts-$name"/*; do
  [ -e "$input" ] || continue
  report=$("$fuzzer" -runs=$replays $timeout "$input" 2>&1)
  summary=$(printf '%s\n' "$report" | grep -m1 '^SUMMARY:')
  # Out of memory by the resident-set limit: the report's stack is libFuzzer's own. Replayed with a
  # small limit per allocation instead, the large allocation is reported where it is made.
  case "$summary" in
    *out-of-memory*) report=$("$fuzzer" -runs=$replays $timeout -malloc_limit_mb=64 -rss_limit_mb=0 "$input" 2>&1) ;;
  esac
  # An abort with no sanitizer stack (glibc's "stack smashing detected" inside HDF5): gdb's
  # backtrace names the frames instead.
  if ! printf '%s\n' "$report" | grep -qE '^ *#[0-9]+ ' && command -v gdb >/dev/null; then
    report=$(gdb -q -batch -ex run -ex bt --args "$fuzzer" -runs=$replays $timeout "$input" 2>&1)
    summary=$(printf '%s\n' "$report" | grep -m1 -E '\*\*\* .* \*\*\*|signal SIG')
  fi
  # Whose fault: the innermost frame that is either HDF5's (or zlib's) or heatrk4's (namespace heat,
  # or the target itself); the frames inside libFuzzer, the sanitizers, libc and the C++ runtime
  # belong to neither.
  frame=$(printf '%s\n' "$report" | grep -E '^ *#[0-9]+ ' |
          grep -E 'libhdf5|libz\.so| in heat::| in LLVMFuzzerTestOneInput' | head -n 1)
  case "$frame" in
    *libhdf5* | *libz.so*) echo "HDF5 library fault (not heatrk4's): $input: $summary" ;;
    *) echo "FINDING in heatrk4: $input: ${summary:-no sanitizer summary}"; failed=1 ;;
  esac
done
if [ "$failed" -eq 0 ] && [ "$status" -ne 0 ] && ! ls "$work/artifacts-$name"/* >/dev/null 2>&1; then
  echo "$name exited with $status and left no input behind (see $work/$name.log)"
  failed=1
fi
exit "$failed"
