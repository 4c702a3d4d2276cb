#!/usr/bin/env bash
# Distributed scaling in one command (issues 26 and 27): heatrk4 under mpirun on 1, 2, 4, ... ranks.
#
#   checks   first, the answers: the reference problem (CHECK_N^3, order 8, 10 steps, randn) with
#            --check on the largest count, and a small run (BITWISE_N^3) per order on 1 rank and
#            on the largest count, its snapshots compared bitwise (heatrk4 compare --rtol 0 --atol 0)
#   strong   one grid (STRONG_SIZES, default 600^3) over every rank count: ms per step and the
#            efficiency T(base) * base / (N * T(N)), base = the smallest count (normally 1)
#   weak     WEAK_N^3 per rank: --nx --ny WEAK_N, --nz N (WEAK_N - 2r) + 2r, so that every rank
#            owns exactly the WEAK_N - 2r interior planes the 1-rank run owns; efficiency T(base) / T(N)
#   halo     the halo exchange alone at each count > 1 (benchmarks/halo_bench: device memory by
#            the runs' route, HALO_ROUTE, when each rank has a GPU of its own, else host memory
#            through MPI), per ghost scheme
#   largest  optional: one large grid (LARGEST_N^3) on the largest count, a few steps, one snapshot
#   links    optional (--links, --slow-links): the checks, strong, weak and halo tables again with the
#            exchange forced through a slower link on this host (NCCL's sockets, MPI over TCP;
#            benchmarks/scaling_links.sh), each with overlap on and off (--overlaps), and each link's
#            latency and bandwidth from halo_bench at LINK_PROBE_N^3 and at the runs' size
#   mission  the mission's command as a user types it (--n MISSION_N --steps 4, its snapshot
#            written), by one process without mpirun and on every count, MISSION_REPEATS times in
#            turn: the wall time of the whole launch (set-up, writing and exit included), its median
#            and its excess over one process's
#
# Each heatrk4 run takes STEPS steps with --format none and its --json summary: ms per step is
# timing.compute_s / steps (the slowest rank's), the exchange's share exchange_s / compute_s. That
# is the steady state: the exchange's start (NCCL's communicator, the first connections) is paid
# in set-up and tabled beside it ('halo start s', timing.setup_phases.halo_connect_s); halo_bench
# reports its own start the same way ('start ms').
#
# On one machine with N GPUs (one rank per GPU; the rank counts default to the powers of two up
# to the number of GPUs that nvidia-smi -L lists):
#
#   benchmarks/scaling.sh [RESULTS_DIR]                      # build-gpu/, tiled, orders 2 8, float
#   benchmarks/scaling.sh --largest 2400 --ranks "1 2" out/  # and the largest grid on 2 GPUs
#   benchmarks/scaling.sh --heatrk4-args "--halo-exchange host" out/
#   benchmarks/scaling.sh --slow-links --ranks "1 2 4" --steps 20 out/  # NCCL sockets and MPI TCP, overlap on/off
#   benchmarks/scaling.sh --backend cpu --ranks "1 2 4" --strong-sizes 64 --weak-n 64 --steps 2 out/
#
# RESULTS_DIR (default $OUT, else benchmarks/results/latest) gets scaling.txt (the tables),
# scaling.json (the same rows with each run's whole summary) and scaling.log (every command and
# its output). Every option below can also be set from the environment (the names in brackets
# in --help: STRONG_SIZES="600 1200"). Exit status: 0 when every run succeeded, 3 when
# one failed (the others still run and are tabled), 2 for bad arguments. Relative paths are taken
# from the repository root (the script runs there), as in run_all.sh.
#
# mpirun (OpenMPI) gets -x NCCL_NVLS_ENABLE=0 always (NVLink multicast must stay off on the device
# machines: docs/design.md §6), --allow-run-as-root when root, --oversubscribe when there are
# more ranks than cores, OMP_NUM_THREADS = cores / (largest count) for every rank at every count
# (a rank's host threads stay the same as N grows), and MPIRUN_ARGS (default --bind-to none, so
# that OpenMPI's default binding of 1-2 ranks to one core each does not pin a rank's threads to it).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

usage() {
  sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  cat <<'EOF'

Options (environment variable in brackets, default after it):
  --build DIR            [BUILD build-gpu] where heatrk4 and halo_bench were built
  --heatrk4 PATH         [HEATRK4 BUILD/apps/heatrk4]
  --halo-bench PATH      [HALO_BENCH BUILD/benchmarks/halo_bench]
  --ranks "LIST"         [RANKS powers of two up to the GPU count]
  --backend NAME         [BACKEND tiled]
  --strong-sizes "LIST"  [STRONG_SIZES 600] grid points per axis; "" skips strong scaling
  --weak-n N             [WEAK_N 600] points per axis per rank; "" skips weak scaling
  --orders "LIST"        [ORDERS "2 8"]
  --precisions "LIST"    [PRECISIONS float]
  --steps N              [STEPS 50]
  --heatrk4-args "ARGS"  [HEATRK4_ARGS ""] added to every heatrk4 run
  --mpirun-args "ARGS"   [MPIRUN_ARGS "--bind-to none"]
  --halo-memory M        [HALO_MEMORY device with a GPU per rank, else host] halo_bench --memory
  --halo-route R         [HALO_ROUTE the --halo-exchange of --heatrk4-args, else peer] device memory's route
  --halo-schemes "LIST"  [HALO_SCHEMES "stage half step"] halo_bench --scheme; "" skips the halo
  --largest N            [LARGEST_N ""] the largest-grid run's points per axis; "" skips it
  --largest-ranks N      [LARGEST_RANKS the largest count]
  --largest-order N      [LARGEST_ORDER 8]
  --largest-steps N      [LARGEST_STEPS 3]
  --keep-snapshot        [KEEP_SNAPSHOT 0] keep the largest run's snapshot in WORK
  --work DIR             [WORK /tmp/heatrk4-scaling] scratch: summaries, the largest snapshot
  --check-n N            [CHECK_N 600] the reference problem's points per axis; "" skips it
  --bitwise-n N          [BITWISE_N 160] the bitwise run's points per axis; "" skips it
  --links "LIST"         [LINKS default] default, nccl-socket, mpi-tcp: the links the tables run over
  --overlaps "LIST"      [OVERLAPS ""] --halo-overlap values each link runs with; "" leaves heatrk4's auto
  --slow-links           --links "nccl-socket mpi-tcp" --overlaps "on off"
  --socket-threads "L"   [SOCKET_THREADS "1x1 2x2 4x4 8x4"] NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD
                         pairs halo_bench tries on nccl-socket; the fastest is the runs'
  --link-probe-n N       [LINK_PROBE_N 64] the small grid halo_bench times each link on (its latency)
  --mission-n N          [MISSION_N 600] the mission's command's points per axis; "" skips it
  --mission-repeats K    [MISSION_REPEATS 3] runs of it per launch
  --mission-pause S      [MISSION_PAUSE 3] seconds of rest before each of its launches
  --timeout S            [RUN_TIMEOUT 300] seconds before one mpirun is killed
  (environment only)     [MPIRUN mpirun] the MPI launcher (OpenMPI's options are passed)
EOF
}

gpu_count() { nvidia-smi -L 2>/dev/null | grep -c '^GPU '; }

# One rank per GPU: 1 2 4 ... up to the GPU count; "1 2" on a machine without GPUs (cpu ranks).
default_rank_counts() {
  local gpus=$1 n=1 list=""
  ((gpus > 0)) || { echo "1 2"; return; }
  while ((n <= gpus)); do
    list+="$n "
    n=$((n * 2))
  done
  echo "$list"
}

parse_arguments() {
  while (($#)); do
    case $1 in
      --build) BUILD=$2 ;;
      --heatrk4) HEATRK4=$2 ;;
      --halo-bench) HALO_BENCH=$2 ;;
      --ranks) RANKS=$2 ;;
      --backend) BACKEND=$2 ;;
      --strong-sizes) STRONG_SIZES=$2 ;;
      --weak-n) WEAK_N=$2 ;;
      --orders) ORDERS=$2 ;;
      --precisions) PRECISIONS=$2 ;;
      --steps) STEPS=$2 ;;
      --heatrk4-args) HEATRK4_ARGS=$2 ;;
      --mpirun-args) MPIRUN_ARGS=$2 ;;
      --halo-memory) HALO_MEMORY=$2 ;;
      --halo-route) HALO_ROUTE=$2 ;;
      --halo-schemes) HALO_SCHEMES=$2 ;;
      --largest) LARGEST_N=$2 ;;
      --largest-ranks) LARGEST_RANKS=$2 ;;
      --largest-order) LARGEST_ORDER=$2 ;;
      --largest-steps) LARGEST_STEPS=$2 ;;
      --keep-snapshot) KEEP_SNAPSHOT=1; shift; continue ;;
      --work) WORK=$2 ;;
      --check-n) CHECK_N=$2 ;;
      --bitwise-n) BITWISE_N=$2 ;;
      --links) LINKS=$2 ;;
      --overlaps) OVERLAPS=$2 ;;
      --slow-links) LINKS="nccl-socket mpi-tcp" OVERLAPS="on off"; shift; continue ;;
      --socket-threads) SOCKET_THREADS=$2 ;;
      --link-probe-n) LINK_PROBE_N=$2 ;;
      --mission-n) MISSION_N=$2 ;;
      --mission-repeats) MISSION_REPEATS=$2 ;;
      --mission-pause) MISSION_PAUSE=$2 ;;
      --timeout) RUN_TIMEOUT=$2 ;;
      -h | --help) usage; exit 0 ;;
      -*) echo "scaling: unknown option $1 (see --help)" >&2; exit 2 ;;
      *) RESULTS=$1; shift; continue ;;
    esac
    (($# >= 2)) || { echo "scaling: $1 needs a value" >&2; exit 2; }
    shift 2
  done
}

parse_arguments "$@"
GPUS=$(gpu_count)
BUILD=${BUILD:-build-gpu}
HEATRK4=${HEATRK4:-$BUILD/apps/heatrk4}
HALO_BENCH=${HALO_BENCH:-$BUILD/benchmarks/halo_bench}
RANKS=${RANKS:-$(default_rank_counts "$GPUS")}
BACKEND=${BACKEND:-tiled}
STRONG_SIZES=${STRONG_SIZES-600}
WEAK_N=${WEAK_N-600}
ORDERS=${ORDERS:-2 8}
PRECISIONS=${PRECISIONS:-float}
STEPS=${STEPS:-50}
HEATRK4_ARGS=${HEATRK4_ARGS:-}
MPIRUN_ARGS=${MPIRUN_ARGS---bind-to none}
HALO_SCHEMES=${HALO_SCHEMES-stage half step}
LARGEST_N=${LARGEST_N:-}
LARGEST_ORDER=${LARGEST_ORDER:-8}
LARGEST_STEPS=${LARGEST_STEPS:-3}
KEEP_SNAPSHOT=${KEEP_SNAPSHOT:-0}
CHECK_N=${CHECK_N-600}
BITWISE_N=${BITWISE_N-160}
MISSION_N=${MISSION_N-600}
LINKS=${LINKS:-default}
OVERLAPS=${OVERLAPS-}
SOCKET_THREADS=${SOCKET_THREADS-1x1 2x2 4x4 8x4}
LINK_PROBE_N=${LINK_PROBE_N:-64}
MISSION_REPEATS=${MISSION_REPEATS:-3}
MISSION_PAUSE=${MISSION_PAUSE:-3}
WORK=${WORK:-/tmp/heatrk4-scaling}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
RESULTS=${RESULTS:-${OUT:-benchmarks/results/latest}}
MPIRUN=${MPIRUN:-mpirun}

read -r -a rank_counts <<<"$RANKS"
read -r -a orders <<<"$ORDERS"
read -r -a precisions <<<"$PRECISIONS"
largest_count=$(printf '%s\n' "${rank_counts[@]}" | sort -n | tail -1)
LARGEST_RANKS=${LARGEST_RANKS:-$largest_count}
# Ranks with a GPU each are timed on device memory; ranks that share GPUs, or exchange through the
# host, on host memory.
if ((GPUS > 0 && largest_count <= GPUS)) && [[ $BACKEND != cpu && ! $HEATRK4_ARGS =~ --halo-exchange[=\ ]host ]]; then
  HALO_MEMORY=${HALO_MEMORY:-device}
else
  HALO_MEMORY=${HALO_MEMORY:-host}
fi
# halo_bench on device memory takes the route heatrk4's runs take.
if [[ $HEATRK4_ARGS =~ --halo-exchange[=\ ](peer|nccl) ]]; then HALO_ROUTE=${HALO_ROUTE:-${BASH_REMATCH[1]}}; fi
HALO_ROUTE=${HALO_ROUTE:-peer}
halo_label=$HALO_MEMORY
[[ $HALO_MEMORY == device ]] && halo_label="device ($HALO_ROUTE)"
cores=$(getconf _NPROCESSORS_ONLN)  # not nproc, which reports OMP_NUM_THREADS when set
threads=${OMP_NUM_THREADS:-$((cores / largest_count > 0 ? cores / largest_count : 1))}

for value in "${rank_counts[@]}" "${orders[@]}" $STRONG_SIZES $WEAK_N "$STEPS" $LARGEST_N "$LARGEST_RANKS" \
  "$LARGEST_ORDER" "$LARGEST_STEPS" $CHECK_N $BITWISE_N $MISSION_N "$MISSION_REPEATS" "$LINK_PROBE_N"; do
  [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "scaling: '$value' is not a positive integer" >&2; exit 2; }
done
[[ -x $HEATRK4 ]] || { echo "scaling: $HEATRK4 is missing: build first (or --build, --heatrk4)" >&2; exit 2; }
# shellcheck source=benchmarks/scaling_links.sh
source benchmarks/scaling_links.sh
check_links
set_link default ""
read -r -a links <<<"$LINKS"
read -r -a overlaps <<<"$OVERLAPS"
((${#overlaps[@]})) || overlaps=("")
if [[ -n $HALO_SCHEMES || " $LINKS " == *" nccl-socket "* ]] && [[ ! -x $HALO_BENCH ]]; then
  echo "scaling: $HALO_BENCH is missing: build the benchmarks with MPI (or --halo-schemes '' without nccl-socket)" >&2
  exit 2
fi
command -v "$MPIRUN" >/dev/null || { echo "scaling: $MPIRUN not found" >&2; exit 2; }

mkdir -p "$RESULTS" "$WORK" || exit 2
rm -f "$RESULTS"/scaling.{txt,json,log}  # a stale table must not pass for this run's
LOG=$RESULTS/scaling.log
: >"$LOG"
MANIFEST=$WORK/manifest.tsv
printf 'kind\tn\tnx\tny\tnz\torder\tprecision\tranks\tscheme\texit\twall_s\tfile\tlink\n' >"$MANIFEST"
rm -rf "$WORK/runs" && mkdir -p "$WORK/runs" || exit 2
status=0

say() { echo "$*" | tee -a "$LOG"; }

# The mpirun command line for $1 ranks, into the array mpirun_command; for $1 = plain, one process
# started as a user starts it, without mpirun.
set_mpirun_command() {
  mpirun_command=(timeout -k 10 "$RUN_TIMEOUT")
  [[ $1 == plain ]] && return
  mpirun_command+=("$MPIRUN" -np "$1" -x NCCL_NVLS_ENABLE=0 -x "OMP_NUM_THREADS=$threads")
  ((EUID == 0)) && mpirun_command+=(--allow-run-as-root)
  (($1 > cores)) && [[ " $MPIRUN_ARGS " != *" --oversubscribe "* ]] && mpirun_command+=(--oversubscribe)
  local extra
  read -r -a extra <<<"$MPIRUN_ARGS"
  mpirun_command+=("${extra[@]}" "${link_mpirun[@]}")
}

# launch RANKS LOGFILE PROGRAM ARGS...: runs it under mpirun (RANKS = plain: without), logs the
# command and its output; sets exit_code and wall_s.
launch() {
  local ranks=$1 output=$2
  shift 2
  set_mpirun_command "$ranks"
  say "== ${mpirun_command[*]} $*"
  local t0=$EPOCHREALTIME
  "${mpirun_command[@]}" "$@" >"$output" 2>&1
  exit_code=$?
  wall_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
  cat "$output" >>"$LOG"
  say "   -> exit $exit_code in $wall_s s"
  if ((exit_code != 0)); then
    tail -n 5 "$output"
    ((exit_code == 124 || exit_code == 137)) && say "   (killed after $RUN_TIMEOUT s)"
    status=3
  fi
}

record() {  # kind n nx ny nz order precision ranks scheme exit wall file (the link: set_link's)
  local IFS=$'\t'
  echo "$*"$'\t'"$link_tag" >>"$MANIFEST"
}

# run_heatrk4 KIND N NX NY NZ ORDER PRECISION RANKS: one timed run with its JSON summary.
# Runs already made with the same grid (the 1-rank weak run is the 1-rank strong run; one rank
# exchanges nothing, so its run serves every link) are reused.
run_heatrk4() {
  local kind=$1 n=$2 nx=$3 ny=$4 nz=$5 order=$6 precision=$7 ranks=$8
  local name=$WORK/runs/${nx}x${ny}x${nz}_o${order}_${precision}_np${ranks}
  ((ranks == 1)) || name+=_$link_slug
  if [[ ! -e $name.exit ]]; then
    local extra
    read -r -a extra <<<"$HEATRK4_ARGS"
    extra+=("${link_heatrk4[@]}")
    launch "$ranks" "$name.out" "$HEATRK4" --backend "$BACKEND" --order "$order" --precision "$precision" \
      --nx "$nx" --ny "$ny" --nz "$nz" --steps "$STEPS" --format none --json "$name.json" --quiet "${extra[@]}"
    echo "$exit_code $wall_s" >"$name.exit"
  fi
  local code wall
  read -r code wall <"$name.exit"
  record "$kind" "$n" "$nx" "$ny" "$nz" "$order" "$precision" "$ranks" - "$code" "$wall" "$name.json"
}

strong_scaling() {
  local n order precision ranks
  for n in $STRONG_SIZES; do
    for precision in "${precisions[@]}"; do
      for order in "${orders[@]}"; do
        for ranks in "${rank_counts[@]}"; do
          run_heatrk4 strong "$n" "$n" "$n" "$n" "$order" "$precision" "$ranks"
        done
      done
    done
  done
}

# Every rank owns the WEAK_N - 2r interior planes of the 1-rank run: the slabs split evenly.
weak_scaling() {
  [[ -n $WEAK_N ]] || return 0
  local order precision ranks
  for precision in "${precisions[@]}"; do
    for order in "${orders[@]}"; do
      local r=$((order / 2))
      for ranks in "${rank_counts[@]}"; do
        run_heatrk4 weak "$WEAK_N" "$WEAK_N" "$WEAK_N" $((ranks * (WEAK_N - 2 * r) + 2 * r)) "$order" "$precision" "$ranks"
      done
    done
  done
}

# halo_bench at every count > 1 for each grid size measured, per ghost scheme, over the link set_link
# chose (a link other than the default also at LINK_PROBE_N^3, whose exchange is mostly latency);
# orders whose ghost planes the count cannot hold (each rank needs as many interior planes as it
# sends) are skipped and tabled as such.
halo_exchange() {
  local n scheme ranks order probe=""
  [[ $link_tag == default ]] || probe=$LINK_PROBE_N
  # shellcheck disable=SC2086 # the lists split into words on purpose (checked integers)
  for n in $(printf '%s\n' $STRONG_SIZES $WEAK_N $probe | sort -nu); do
    for scheme in $HALO_SCHEMES; do
      for ranks in "${rank_counts[@]}"; do
        ((ranks > 1)) || continue
        local fitting=()
        for order in "${orders[@]}"; do
          local r=$((order / 2)) ghost=$((order / 2))
          [[ $scheme == half ]] && ghost=$((2 * r))
          [[ $scheme == step ]] && ghost=$((4 * r))
          if ((ranks * ghost <= n - 2 * r)); then
            fitting+=("$order")
          else
            record halo "$n" "$n" "$n" "$n" "$order" all "$ranks" "$scheme" skipped 0 -
          fi
        done
        ((${#fitting[@]})) || continue
        local name=$WORK/runs/halo_n${n}_${scheme}_np${ranks}_$link_slug
        launch "$ranks" "$name.out" "$HALO_BENCH" --n "$n" --orders "${fitting[@]}" --precisions "${precisions[@]}" \
          --memory "$link_halo_memory" --halo-exchange "$link_halo_route" --scheme "$scheme"
        record halo "$n" "$n" "$n" "$n" "${fitting[*]}" all "$ranks" "$scheme" "$exit_code" "$wall_s" "$name.out"
      done
    done
  done
}

# The largest grid: LARGEST_STEPS steps and one snapshot (the final state), its files' bytes kept
# in the manifest's summary; the snapshot is removed afterwards unless KEEP_SNAPSHOT=1.
largest_grid() {
  [[ -n $LARGEST_N ]] || return 0
  local n=$LARGEST_N precision=${precisions[0]} out=$WORK/largest name=$WORK/runs/largest
  rm -rf "$out"
  local value_bytes=4 free_bytes
  [[ $precision == double ]] && value_bytes=8
  free_bytes=$(df --output=avail -B1 "$WORK" | tail -1)
  if ((n * n * n * value_bytes > free_bytes)); then
    say "== largest grid $n^3 $precision: its snapshot needs $((n * n * n * value_bytes / 1000000000)) GB," \
      "$WORK has $((free_bytes / 1000000000)) GB free (--work elsewhere, or a smaller --largest)"
    record largest "$n" "$n" "$n" "$n" "$LARGEST_ORDER" "$precision" "$LARGEST_RANKS" - 2 0 -
    status=3
    return
  fi
  local extra
  read -r -a extra <<<"$HEATRK4_ARGS"
  launch "$LARGEST_RANKS" "$name.out" "$HEATRK4" --backend "$BACKEND" --order "$LARGEST_ORDER" \
    --precision "$precision" --n "$n" --steps "$LARGEST_STEPS" --output-every 0 --format hdf5 --output "$out" \
    --json "$name.json" --quiet "${extra[@]}"
  record largest "$n" "$n" "$n" "$n" "$LARGEST_ORDER" "$precision" "$LARGEST_RANKS" - "$exit_code" "$wall_s" "$name.json"
  find "$out" -type f -printf '%s\t%f\n' 2>/dev/null | sort -k2 >"$name.files"
  say "   snapshot files: $(wc -l <"$name.files"), $(awk '{ s += $1 } END { printf "%.2f GB", s / 1e9 }' "$name.files")"
  ((KEEP_SNAPSHOT)) || rm -rf "$out"
}

# The reference problem with --check on the largest count: the distributed run against the double
# cpu reference on the same decomposition.
reference_check() {
  [[ -n $CHECK_N ]] || return 0
  local name=$WORK/runs/reference_check_$link_slug
  local extra
  read -r -a extra <<<"$HEATRK4_ARGS"
  extra+=("${link_heatrk4[@]}")
  launch "$largest_count" "$name.out" "$HEATRK4" --backend "$BACKEND" --n "$CHECK_N" --steps 10 --order 8 \
    --precision float --init randn --check --format none --json "$name.json" --quiet "${extra[@]}"
  record check "$CHECK_N" "$CHECK_N" "$CHECK_N" "$CHECK_N" 8 float "$largest_count" - "$exit_code" "$wall_s" "$name.json"
}

# A small run per order and precision on 1 rank and on the largest count: every snapshot bitwise equal.
bitwise_check() {
  [[ -n $BITWISE_N ]] && ((largest_count > 1)) || return 0
  local order precision ranks extra
  read -r -a extra <<<"$HEATRK4_ARGS"
  extra+=("${link_heatrk4[@]}")
  for precision in "${precisions[@]}"; do
    for order in "${orders[@]}"; do
      local name=$WORK/runs/bitwise_o${order}_${precision}_$link_slug
      for ranks in 1 "$largest_count"; do
        rm -rf "$name.np$ranks"
        launch "$ranks" "$name.np$ranks.out" "$HEATRK4" --backend "$BACKEND" --n "$BITWISE_N" --order "$order" \
          --precision "$precision" --steps 4 --output-every 2 --init randn --output "$name.np$ranks" --quiet "${extra[@]}"
      done
      local step differ=0
      for step in 000000 000002 000004; do
        say "== heatrk4 compare (np $largest_count against np 1) heat_$step.hdf --rtol 0 --atol 0"
        "$HEATRK4" compare "$name.np$largest_count/heat_$step.hdf" "$name.np1/heat_$step.hdf" --rtol 0 --atol 0 \
          >>"$LOG" 2>&1 || differ=$?
      done
      say "   -> $( ((differ == 0)) && echo "bitwise equal" || echo "NOT bitwise equal (compare: exit $differ)")"
      ((differ == 0)) || status=3
      record bitwise "$BITWISE_N" "$BITWISE_N" "$BITWISE_N" "$BITWISE_N" "$order" "$precision" "$largest_count" - \
        "$differ" 0 -
      rm -rf "$name.np1" "$name.np$largest_count"
    done
  done
}

checks() {
  reference_check
  bitwise_check
}

# The mission's command, one process and every count in turn, MISSION_REPEATS rounds, so that a
# drift of the machine (the disk's cache, another job) spreads over every launch alike.
mission_command() {
  [[ -n $MISSION_N ]] || return 0
  local repeat ranks extra out=$WORK/mission
  read -r -a extra <<<"$HEATRK4_ARGS"
  for ((repeat = 1; repeat <= MISSION_REPEATS; repeat++)); do
    for ranks in plain "${rank_counts[@]}"; do
      local name=$WORK/runs/mission_${ranks}_$repeat
      rm -rf "$out"
      # A launch right after another run's exit started 0.3-0.5 s sooner or later by what that run
      # left the GPUs' driver to do: each starts on a machine at rest.
      sleep "$MISSION_PAUSE"
      launch "$ranks" "$name.out" "$HEATRK4" --backend "$BACKEND" --n "$MISSION_N" --steps 4 --output "$out" \
        --json "$name.json" --quiet "${extra[@]}"
      # The plain launch is one process; the manifest's scheme column names the launch.
      local launcher=mpirun count=$ranks
      [[ $ranks == plain ]] && launcher=plain count=1
      record mission "$MISSION_N" "$MISSION_N" "$MISSION_N" "$MISSION_N" - - "$count" "$launcher" "$exit_code" \
        "$wall_s" "$name.json"
    done
  done
  rm -rf "$out"
}

device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
[[ -n $device ]] || device="host, $cores cores"
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
say "scaling: $device ($GPUS GPUs listed), commit $commit, ranks ${rank_counts[*]}, backend $BACKEND," \
  "orders ${orders[*]}, ${precisions[*]}, $STEPS steps, $threads OpenMP threads per rank"

# Each link: its checks and tables with each overlap, then the exchange alone over it; nccl-socket
# first proves its transport and picks its socket threads.
for link in "${links[@]}"; do
  if [[ $link == nccl-socket ]]; then
    transport_check
    tune_sockets
  fi
  for overlap in "${overlaps[@]}"; do
    set_link "$link" "$overlap"
    checks
    strong_scaling
    weak_scaling
  done
  set_link "$link" ""
  halo_exchange
done
set_link default ""
largest_grid
mission_command

python3 benchmarks/scaling_report.py --manifest "$MANIFEST" --out-dir "$RESULTS" --device "$device" \
  --gpus "$GPUS" --commit "$commit" --backend "$BACKEND" --steps "$STEPS" --largest-steps "$LARGEST_STEPS" \
  --halo-memory "$halo_label" --heatrk4-args="$HEATRK4_ARGS" --mpirun-args="$MPIRUN_ARGS" \
  --threads "$threads" --socket-threads "$socket_pair" | tee -a "$LOG"
report_rc=${PIPESTATUS[0]}
((report_rc == 0)) || status=$report_rc
say "scaling: exit $status"
exit "$status"
