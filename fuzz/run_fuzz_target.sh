#!/bin/sh
# Runs one libFuzzer target a fixed number of times and judges what it found.
# usage: run_fuzz_target.sh FUZZER SEED_CORPUS WORK_DIR RUNS ROUNDS [FIRST_SEED]
#
# Deterministic, so that CTest gives the same answer every time: ROUNDS rounds, round r in a
# fresh process with -seed=FIRST_SEED+r and -runs=RUNS from the seed corpus alone (replayed first,
# with every regression input kept there). The same binary and seeds try the same inputs in the
# same order (checked: fuzz_init_file three times, in two work folders, and fuzz_command_line twice
# gave the same findings and the same coverage at every new input), and no round depends on
# another round's new inputs or on the clock. (Fork mode for a number of seconds did both: its
# children read different inputs from run to run, so a fault came in about one CTest run of five,
# and it kept only the fault's first line.) To fuzz for longer or afresh, give more rounds or
# runs, or another first seed; CI's values are in fuzz_tests.cmake.
#
# A round ends at its first crash, leak or timeout. Its log is the whole report; it is kept with
# the input in WORK_DIR/findings-FUZZER/ and judged: memory that heatrk4 allocated (or its stack
# frame) overrun, or else an innermost frame (of those that are HDF5's or heatrk4's) that is
# heatrk4's, fails the test and prints the report and the input; a fault of HDF5 (Debian's 1.10
# does not validate corrupt metadata) is listed. A finding that no frame attributes (a fault that
# appears only after other inputs, whose replay alone shows nothing) is run again from the same
# seed under gdb: one that comes back is judged by gdb's backtrace (not HDF5's: the test fails);
# one that does not is listed with its report.
set -u
fuzzer=$1 seeds=$2 work=$3 runs=$4 rounds=$5 first_seed=${6:-1}
name=$(basename "$fuzzer")
findings=$work/findings-$name
rm -rf "$findings" "$work/corpus-$name" "$work/artifacts-$name"
mkdir -p "$findings"
# An input takes milliseconds; one that hangs (a loop in corrupt metadata) becomes a timeout input,
# judged like a crash, instead of outliving CTest's limit (libFuzzer's default is 20 minutes).
timeout=-timeout=10
# Some of HDF5's faults appear only after the same input has been read many times in one process;
# a replay reads the input up to this many times, stopping at the first fault (the kept inputs of
# hdf5_crashes/ fault on their 1st, 4th and 600th-1200th read).
replays=10000

# The same seed makes the same inputs only where each input runs the same way: one thread (OpenMP
# threads allocate in an order of their own, and HDF5's faults depend on the heap's layout), the
# same addresses (no address-space randomisation), the inputs at a path of the same length
# wherever the build is (HEATRK4_FUZZ_DIR) and mutations that do not learn from compared values
# (-use_cmp=0: those include addresses).
export OMP_NUM_THREADS=1
inputs=$(mktemp -d /tmp/heatrk4-fuzz-XXXXXX)
trap 'rm -rf "$inputs"' EXIT
no_aslr=
setarch "$(uname -m)" -R true 2>/dev/null && no_aslr="setarch $(uname -m) -R"

# One round from the seed corpus with -seed=$1, named $2: new inputs into a fresh corpus folder,
# a finding to $findings/$2-<kind>-<hash>, the log to $findings/$2.log, the exit status to
# $findings/$2.status. With a third word, under gdb (its backtrace where the process faults).
# Prints the finding's path, if any.
run_round() {
  corpus=$findings/$2.corpus
  rm -rf "$corpus" && mkdir -p "$corpus"
  HEATRK4_FUZZ_DIR=$inputs $no_aslr ${3:+gdb -q -batch -ex run -ex bt --args} "$fuzzer" -seed="$1" \
    -runs="$runs" -use_cmp=0 $timeout -close_fd_mask=3 -artifact_prefix="$findings/$2-" "$corpus" "$seeds" \
    >"$findings/$2.log" 2>&1
  echo $? >"$findings/$2.status"
  rm -rf "$corpus"
  for input in "$findings/$2-"*; do [ -e "$input" ] && echo "$input" && break; done
}

frames() { grep -E '^ *#[0-9]+ ' "$1"; }

# The report that names the fault's frames: the round's log, or a replay of the input alone when
# the log has none (an abort with no sanitizer stack: glibc's "stack smashing detected" inside
# HDF5, whose backtrace gdb gives), or when the resident-set limit reported libFuzzer's own stack
# (replayed with a limit per allocation, the large allocation is reported where it is made).
attributing_report() {
  input=$1 log=$2
  if grep -q '^SUMMARY: libFuzzer: out-of-memory (used' "$log"; then
    HEATRK4_FUZZ_DIR=$inputs "$fuzzer" -runs=$replays $timeout -malloc_limit_mb=64 -rss_limit_mb=0 "$input" \
      >"$input.replay.log" 2>&1
    echo "$input.replay.log"
  elif ! frames "$log" >/dev/null && command -v gdb >/dev/null; then
    HEATRK4_FUZZ_DIR=$inputs gdb -q -batch -ex run -ex bt --args "$fuzzer" -runs=$replays $timeout "$input" \
      >"$input.replay.log" 2>&1
    echo "$input.replay.log"
  else
    echo "$log"
  fi
}

# hdf5, heatrk4 or none for the frames on standard input: whose is the innermost frame that is
# either HDF5's (or zlib's) or heatrk4's (namespace heat, or the target itself); the frames inside
# libFuzzer, the sanitizers, libc and the C++ runtime belong to neither.
owner_of_frames() {
  case "$(grep -E 'libhdf5|libz\.so| in heat::| in LLVMFuzzerTestOneInput' | head -n 1)" in
    *libhdf5* | *libz.so*) echo hdf5 ;;
    "") echo none ;;
    *) echo heatrk4 ;;
  esac
}

# Whose fault a report shows. Memory that heatrk4 allocated (or that lies in its stack frame) and
# HDF5 overran is heatrk4's: it gave HDF5 a buffer smaller than what the file holds (a string
# attribute of many values into a buffer of one was such a finding, first listed as HDF5's).
# Otherwise the fault's own frames say.
owner() {
  buffer=$(awk '/allocated by thread|is located in stack of thread/ {on = 1; next}
                on && /^ *#[0-9]+ / {print; seen = 1; next}
                on && seen {exit}' "$1" | owner_of_frames)
  if [ "$buffer" = heatrk4 ]; then echo heatrk4; else frames "$1" | owner_of_frames; fi
}

# The first line that names the fault, from the report that attributes it or else the round's log.
summary() {
  grep -h -m1 -E '^SUMMARY:|\*\*\* .* \*\*\*|^ERROR: libFuzzer|signal SIG' "$@" | head -n 1 | grep . ||
    echo "no sanitizer summary"
}

# The whole report (from the first line of the fault on; a replay's too, where one was made) and
# the input, for a reader of CI's log.
show() {
  input=$1
  shift
  for log in "$@"; do
    echo "----- report ($log) -----"
    awk 'found || /ERROR|runtime error|\*\*\*|ALARM|deadly signal|^Program received/ {found = 1; print}' "$log"
  done
  echo "----- input $(basename "$input") ($(wc -c <"$input") bytes; base64 -d to restore) -----"
  base64 "$input"
  echo "-----"
}

failed=0
round=0
while [ "$round" -lt "$rounds" ]; do
  seed=$((first_seed + round))
  round=$((round + 1))
  input=$(run_round "$seed" "seed-$seed")
  log=$findings/seed-$seed.log
  grep -E '^(#[0-9]+ +DONE|Done [0-9]+ runs)' "$log" | tail -n 1 | sed "s/^/seed $seed: /"
  if [ -z "$input" ]; then
    status=$(cat "$findings/seed-$seed.status")
    if [ "$status" -ne 0 ]; then
      echo "FAILED: seed $seed: $name exited with $status and left no input behind"
      tail -n 40 "$log"
      failed=1
    fi
    continue
  fi
  report=$(attributing_report "$input" "$log")
  reports=$log
  [ "$report" != "$log" ] && reports="$log $report"
  case "$(owner "$report")" in
    hdf5) echo "HDF5 library fault (not heatrk4's): $input: $(summary $report $log)" ;;
    heatrk4)
      echo "FINDING in heatrk4: $input: $(summary $report $log)"
      show "$input" $reports
      failed=1 ;;
    none)
      # The same seed takes the same inputs: run again under gdb, whose backtrace names the frames
      # of a fault that left the sanitizers none (a smashed stack) after an earlier input's state.
      again=$(run_round "$seed" "seed-$seed-again" gdb)
      again_log=$findings/seed-$seed-again.log
      reports="$reports $again_log"
      if [ -z "$again" ] && ! grep -qE '^Program (received|terminated with) signal' "$again_log"; then
        echo "Not attributed and not found again from seed $seed (listed, not failed): $input: $(summary $report $log)"
      elif [ "$(owner "$again_log")" = hdf5 ]; then
        echo "HDF5 library fault (not heatrk4's; found again from seed $seed under gdb): $input: $(summary $again_log $log)"
      else
        echo "FINDING found again from seed $seed, not HDF5's: $input: $(summary $again_log $report $log)"
        failed=1
      fi
      show "$input" $reports ;;
  esac
done
exit "$failed"
