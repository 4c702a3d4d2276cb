#!/usr/bin/env bash
# The GPU workflow, in one call on the device machine (no VTK, no network there):
# configure and build, the test suites, heatrk4 verify, compute-sanitizer (memcheck and
# racecheck) on a small grid for each CUDA backend, the reference problem with --check for each
# CUDA backend, and the benchmark. Logs go under $OUT (default /tmp/heatrk4-device).
#
#   scripts/device_check.sh                 # everything
#   scripts/device_check.sh build bench     # only the named phases, in the order given
# Phases: build test verify sanitize reference bench sweep cpu e2e results profile pipeline
#         time_to_solution sweep_build sweep_test tiled_sweep distributed mission_timeline scaling
#         python baseline_build baseline_bench baseline_scaling mutations scaling_no_overlap faces
# The build phase builds the product: the default tiled configuration of each order and precision.
# sweep_build builds every tiled configuration (-DHEAT_WITH_TILED_SWEEP=ON) in a second directory
# ($SWEEP_BUILD), which sweep_test and tiled_sweep bring up to date first and then use.
# One more phase, codecs, runs benchmarks/e2e.sh's codec tables alone (PARTS="codecs ranks").
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/heatrk4-device}
mkdir -p "$OUT"
BUILD=${BUILD:-build-gpu}
SWEEP_BUILD=${SWEEP_BUILD:-build-gpu-sweep}
BASELINE_BUILD=${BASELINE_BUILD:-build-gpu-baseline}
BIN=$BUILD/apps/heatrk4
LOG=$OUT/device.log
read -r -a CUDA_BACKENDS <<<"${BACKENDS:-naive reuse tiled}"
# Packages the machine lacks (toml++'s headers), unpacked here by scripts/stage_device_deps.sh
# and carried in .deps/: every configure below finds them through CMAKE_PREFIX_PATH.
[ -d .deps/usr ] && export CMAKE_PREFIX_PATH="$PWD/.deps/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
# An installed program or module (python_install_under_prefix) keeps run paths only to library
# folders outside the project, which .deps/ is not: the loader path names it.
[ -d .deps/usr ] && export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
phases=("$@")
((${#phases[@]})) || phases=(build test verify sanitize reference bench)

# Runs a command, appends its output to the log and prints its last lines and exit code.
step() {
  local name=$1
  shift
  echo "== $name: $*" | tee -a "$LOG"
  local t0=$SECONDS
  "$@" >"$OUT/current.log" 2>&1
  local rc=$?
  cat "$OUT/current.log" >>"$LOG"
  tail -n "${TAIL_LINES:-4}" "$OUT/current.log"
  echo "   -> exit $rc in $((SECONDS - t0)) s" | tee -a "$LOG"
  rm -f "$OUT/current.log"
  return $rc
}

phase_build() {
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv | tee -a "$LOG"
  step configure cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHEAT_WITH_VTK=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90 || exit 1
  # BUILD_TARGETS="heatrk4 halo_bench ...": only those (a call that needs no whole suite).
  step build cmake --build "$BUILD" -j16 ${BUILD_TARGETS:+--target $BUILD_TARGETS} || exit 1
  grep -E "spill|stack frame" "$LOG" | grep -v " 0 bytes spill" | sort -u | head -5
}

# Eight tests at once, each cpu reference with 2 OpenMP threads: with 16 threads each, the cpu
# tests ran 5-10x slower than alone (83 s for a steady-state test).
phase_test() {
  TAIL_LINES=12 step ctest env OMP_NUM_THREADS="${TEST_THREADS:-2}" ctest --test-dir "$BUILD" -j8 --output-on-failure \
    -R "${TEST_FILTER:-.}"
}
phase_verify() { TAIL_LINES=60 step verify "$BIN" verify; }

phase_sanitize() {
  # Every CUDA backend at orders 2 and 8 in float on rows of odd length; tiled also on rows of even
  # length, where its kernels load and store the own pairs as vector accesses: at orders 2 and 4 in
  # both precisions (all four passes in one kernel at order 2, a factor per kernel at 4), at order 6
  # in float (a factor per kernel), and at order 8 in float and 6 in double (single passes; order 6 double's rows of 38
  # doubles are 19 x 16 bytes, so its passes run on the copy engine).
  for backend in "${CUDA_BACKENDS[@]}"; do
    local runs=("37 2 float" "37 8 float")
    [[ $backend == tiled ]] && runs+=("38 2 float" "38 4 float" "38 2 double" "38 4 double" "38 6 float" "38 8 float" "38 6 double")
    for tool in memcheck racecheck; do
      for run in "${runs[@]}"; do
        set -- $run
        TAIL_LINES=2 step "sanitize-$tool-$backend-nx$1-o$2-$3" compute-sanitizer --tool "$tool" --error-exitcode 9 \
          "$BIN" --nx "$1" --ny 29 --nz 23 --order "$2" --precision "$3" --steps 2 --init randn --backend "$backend" \
          --format none --quiet
      done
    done
  done
  # The GPU's ZFP encoder: its test (chunks partial on every axis, float and double), and a run
  # whose snapshots it encodes.
  TAIL_LINES=2 step sanitize-memcheck-zfp-encoder compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BUILD/tests/test_gpu_zfp_encoder"
  TAIL_LINES=2 step sanitize-memcheck-zfp-run compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN" --nx 37 \
    --ny 29 --nz 23 --steps 4 --output-every 2 --init randn --backend tiled --compress zfp:1e-6 \
    --output /tmp/heatrk4-sanitize-zfp --overwrite --quiet
  # The material fields' shared-memory passes (orders 2 to 8, both precisions, faces, a source, odd
  # rows) and the rank grid's face packing (the exchange on every grid of one process's ranks).
  for tool in memcheck racecheck; do
    TAIL_LINES=2 step "sanitize-$tool-tiled-materials" compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$BUILD/tests/test_tiled_materials" --gtest_brief=1
  done
}

phase_reference() {
  for backend in "${CUDA_BACKENDS[@]}"; do
    TAIL_LINES=8 step "reference-$backend" "$BIN" --n 600 --steps 10 --order 8 --init randn --backend "$backend" \
      --check --format none
  done
}

phase_bench() {
  TAIL_LINES=30 step bench "$BUILD/benchmarks/heatrk4-bench" --sizes 600 --orders 8 --precisions float \
    --backends "${CUDA_BACKENDS[@]}" --csv "$OUT/bench.csv" --json "$OUT/bench.json"
}

# The cpu backends' speed on the device machine's 16 cores, beside the copy rate of the same run.
# The plain reference only at 256^3: at 600^3 it would take minutes. Then the reference problem's
# --check (the fast cpu in double, on the host; the summary's "check" time), and the same 256^3
# problem through PyTorch on the CPU on the same threads (TORCH_PYTHON; skipped without torch).
phase_cpu() {
  local threads=(env OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_WAIT_POLICY=passive)
  TAIL_LINES=12 step cpu-bench-256 "${threads[@]}" "$BUILD/benchmarks/cpu_bench" --sizes 256 --steps 4 --repeats 3
  TAIL_LINES=8 step cpu-bench-600 "${threads[@]}" "$BUILD/benchmarks/cpu_bench" --sizes 600 --backends cpu --steps 3 \
    --repeats 3
  TAIL_LINES=14 step cpu-check-600 "${threads[@]}" "$BIN" --n 600 --steps 10 --order 8 --init randn --backend tiled \
    --check --format none
  local python=${TORCH_PYTHON:-/opt/torch/.venv/bin/python3}
  [[ -x $python ]] || python=python3
  TAIL_LINES=8 step cpu-peers "${threads[@]}" "$python" benchmarks/cpu_peers.py --n 256 --order 8 --steps 4
}

# The main job end to end, as a user runs it: where a whole process's time goes.
phase_e2e() {
  local dir=/tmp/heatrk4-e2e
  rm -rf "$dir"
  TAIL_LINES=9 step e2e bash -c "time $BIN --n 600 --steps 4 --backend tiled --output $dir --json $dir/e2e.json && cat $dir/e2e.json"
}

# Issue 25's snapshot copies and fields made on the device, and the blow-up check beside them:
# their tests, and compute-sanitizer memcheck on runs that snapshot every step (the device copy,
# the copy stream, pinned buffers).
phase_pipeline() {
  TAIL_LINES=12 step pipeline-tests ctest --test-dir "$BUILD" -j4 --output-on-failure \
    -R "SnapshotPipeline|StartDownload|SnapshotsBesideTheLoop|GeneratedField|RoundTrip|FirstNonfinite|BlowUp"
  for backend in "${CUDA_BACKENDS[@]}"; do
    for buffers in 1 2; do
      rm -rf /tmp/heatrk4-pipeline
      TAIL_LINES=2 step "sanitize-memcheck-snapshots-$backend-b$buffers" compute-sanitizer --tool memcheck \
        --error-exitcode 9 "$BIN" --nx 37 --ny 29 --nz 23 --steps 6 --output-every 1 --snapshot-buffers "$buffers" \
        --init randn --backend "$backend" --output /tmp/heatrk4-pipeline --quiet
    done
  done
}

# The Python module (python/, docs/design.md §11) for the PyTorch environment's Python
# (PYTHON_TORCH): its tests, the GPU and PyTorch ones included, and the reference problem from
# PyTorch (benchmarks/python_step.py). pybind11 from that environment where it has one.
phase_python() {
  local py=${PYTHON_TORCH:-/opt/torch/.venv/bin/python3} pybind=() dir
  dir=$("$py" -c "import pybind11; print(pybind11.get_cmake_dir())" 2>/dev/null) && pybind=(-Dpybind11_DIR="$dir")
  step python-configure cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHEAT_WITH_VTK=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DPython3_EXECUTABLE="$py" "${pybind[@]}" || return 1
  [ -f "$BUILD/python/cmake_install.cmake" ] ||
    { echo "python: module not configured: python3-dev or pybind11 missing for $py (see $LOG)" | tee -a "$LOG"; return 1; }
  step python-build cmake --build "$BUILD" -j16 --target heatrk4_python heatrk4 || return 1
  TAIL_LINES=12 step python-tests ctest --test-dir "$BUILD" -R python_ -V
  TAIL_LINES=12 step python-bench env PYTHONPATH="$BUILD/python" "$py" benchmarks/python_step.py
}

# Time to solution end to end against the disk's and the compute's bounds (benchmarks/e2e.sh).
phase_time_to_solution() {
  TAIL_LINES=40 step time-to-solution env RESULTS="$OUT" benchmarks/e2e.sh "$BUILD" /tmp/heatrk4-e2e
}

# The snapshot codecs alone (benchmarks/e2e.sh PARTS="codecs ranks"): the uncompressed real run,
# each codec of CODECS on it, the mission's command with and without each codec (MISSION_REPEATS
# times in turn), and with 2 GPUs or more the same on 2 ranks over NCCL; e2e_codecs_<device>.txt
# in $OUT. CODECS, MISSION_REPEATS, RANKS and PARTS pass through from the environment.
phase_codecs() {
  TAIL_LINES=40 step codecs env RESULTS="$OUT" PARTS="${PARTS:-codecs ranks}" benchmarks/e2e.sh "$BUILD" \
    /tmp/heatrk4-e2e
}

# The whole benchmark table, CSV, JSON, peers and pictures (benchmarks/run_all.sh).
phase_results() { TAIL_LINES=40 step results benchmarks/run_all.sh "$BUILD" "$OUT"; }

# Where a tiled step's time goes: ncu on the kernel launches of one timed step (order 8 float by
# default: PROFILE_ORDER, PROFILE_PRECISION), through the benchmark so any configuration can be
# named (PROFILE_BACKEND, e.g. tiled:factor-pairs/64x8/c2x1; PROFILE_N; PROFILE_KERNELS a regex; a
# configuration that is no default needs BUILD=$SWEEP_BUILD). The
# benchmark's check (10 steps at 64^3) and its warm-up step come first: PROFILE_SKIP launches, 11
# steps of 4 kernels for single passes (44), of 2 for a factor per kernel (22; PROFILE_COUNT=2).
# PROFILE_STALLS=1 adds why warps waited (cycles per issued instruction, by stall reason).
phase_profile() {
  TAIL_LINES=200 step profile ncu --clock-control none \
    --kernel-name regex:"${PROFILE_KERNELS:-one_pass_kernel}" --launch-skip "${PROFILE_SKIP:-44}" \
    --launch-count "${PROFILE_COUNT:-4}" --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis --section SchedulerStats --metrics \
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed_op_shared_ld.sum,lts__t_bytes.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes.sum,smsp__inst_executed.sum${PROFILE_STALLS:+,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio}" \
    "$BUILD/benchmarks/heatrk4-bench" --sizes "${PROFILE_N:-400}" --orders "${PROFILE_ORDER:-8}" \
    --precisions "${PROFILE_PRECISION:-float}" --backends "${PROFILE_BACKEND:-tiled}" --repeats 1 --steps 1
}

# The build with every tiled configuration: the benchmark and test_tiled only (incremental: a
# second call only checks that it is up to date).
phase_sweep_build() {
  step configure-sweep cmake -S . -B "$SWEEP_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHEAT_WITH_VTK=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DHEAT_WITH_TILED_SWEEP=ON || exit 1
  step build-sweep cmake --build "$SWEEP_BUILD" -j16 --target heatrk4-bench test_tiled || exit 1
}

# Every built tiled configuration against the cpu reference (test_tiled of the sweep build).
phase_sweep_test() {
  phase_sweep_build
  TAIL_LINES=6 step sweep-test "$SWEEP_BUILD/tests/test_tiled" --gtest_brief=1
}

# Every tiled configuration at the reference size, every order and precision (issue 4's measured
# sweep), from the sweep build.
phase_tiled_sweep() {
  phase_sweep_build
  TAIL_LINES=40 step tiled-sweep "$SWEEP_BUILD/benchmarks/heatrk4-bench" --sizes 600 --orders 2 4 6 8 \
    --precisions float double --backends tiled:all reuse --repeats 5 --csv "$OUT/tiled_sweep.csv"
}

# GPU ranks under mpirun on this machine's GPUs: their tests, the reference problem with
# --check on 2 ranks, and compute-sanitizer memcheck on each rank of a 2-rank run. With one GPU the
# ranks share it and exchange through host memory; with two or more, NCCL's route runs too.
phase_distributed() {
  local mpirun=(mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE=0 -x OMP_NUM_THREADS=8 -np 2)
  local routes=(host peer)
  (($(nvidia-smi -L | wc -l) >= 2)) && routes+=(nccl)
  TAIL_LINES=12 step distributed-tests ctest --test-dir "$BUILD" -j4 --output-on-failure -R "gpu_halo|MpirunGpuRanks"
  for route in "${routes[@]}"; do
    TAIL_LINES=10 step "reference-2-ranks-$route" "${mpirun[@]}" "$BIN" --n 600 --steps 10 --order 8 --init randn \
      --backend tiled --check --format none --halo-exchange "$route"
    # Over NCCL, API errors are not reported: ncclCommInitRank probes its kernels with
    # cudaFuncGetAttributes and handles the "no kernel image" it gets, which memcheck would count
    # (every backend exited 9 on 2 H100s); heatrk4 checks each of its own calls.
    local api_errors=()
    [[ $route == nccl ]] && api_errors=(--report-api-errors no)
    for backend in "${CUDA_BACKENDS[@]}"; do
      TAIL_LINES=3 step "sanitize-memcheck-2-ranks-$route-$backend" "${mpirun[@]}" compute-sanitizer --tool memcheck \
        "${api_errors[@]}" --error-exitcode 9 "$BIN" --nx 37 --ny 29 --nz 61 --order 8 --steps 3 --init randn \
        --backend "$backend" --halo-exchange "$route" --output /tmp/heatrk4-sanitize-ranks --overwrite --quiet
    done
    # Each rank's slab encoded on its GPU.
    TAIL_LINES=3 step "sanitize-memcheck-2-ranks-$route-zfp" "${mpirun[@]}" compute-sanitizer --tool memcheck \
      "${api_errors[@]}" --error-exitcode 9 "$BIN" --nx 37 --ny 29 --nz 61 --steps 4 --output-every 2 --init randn \
      --backend tiled --compress zfp:1e-6 --halo-exchange "$route" --output /tmp/heatrk4-sanitize-ranks --overwrite \
      --quiet
    # A middle rank (both ranges beside its ghosts in one launch) and rows the copy engine reads.
    [[ $route == nccl ]] && (($(nvidia-smi -L | wc -l) < 3)) && continue
    TAIL_LINES=3 step "sanitize-memcheck-3-ranks-$route-tiled-copy-engine" "${mpirun[@]:0:${#mpirun[@]}-1}" 3 \
      compute-sanitizer --tool memcheck "${api_errors[@]}" --error-exitcode 9 "$BIN" --nx 40 --ny 29 --nz 83 \
      --order 8 --steps 3 --init randn --backend tiled --halo-exchange "$route" --output /tmp/heatrk4-sanitize-ranks \
      --overwrite --quiet
  done
}

# benchmarks/scaling.sh on this machine's GPUs (SCALING_ARGS adds options: on one GPU,
# --ranks "1 2" --heatrk4-args "--halo-exchange host" runs the script's every part with two ranks
# sharing the GPU, which checks the script and the answers but measures no scaling).
phase_scaling() {
  TAIL_LINES=60 step scaling benchmarks/scaling.sh --build "$BUILD" ${SCALING_ARGS:-} "$OUT"
}

# The same with --halo-overlap off (results under $OUT/no-overlap): the overlap's gain, measured
# beside it.
phase_scaling_no_overlap() {
  TAIL_LINES=60 step scaling-no-overlap benchmarks/scaling.sh --build "$BUILD" --halo-schemes "" --check-n "" --bitwise-n "" \
    --heatrk4-args "--halo-overlap off" ${SCALING_ARGS:-} "$OUT/no-overlap"
}

# Where the mission command's wall time goes outside the summary's phases: the process's start
# until run() (JSON process_start_to_run), and from the JSON summary's writing to the process's end
# (the teardown: freeing the fields, the CUDA context).
phase_mission_timeline() {
  local dir=/tmp/heatrk4-mission
  for n in 1 2 3; do
    rm -rf "$dir"
    local t0 t1 written
    t0=$(date +%s.%N)
    "$BIN" --n 600 --steps 4 --backend tiled --output "$dir" --json "$dir/run.json" --quiet
    t1=$(date +%s.%N)
    written=$(stat -c %.9Y "$dir/run.json")
    python3 - "$t0" "$t1" "$written" "$dir/run.json" <<'PY' | tee -a "$LOG"
import json, sys
t0, t1, written = map(float, sys.argv[1:4])
run = json.load(open(sys.argv[4]))
t = run["timing"]
inside = t["setup_s"] + t["upload_s"] + t["compute_s"] + t["download_s"] + t["output_wait_s"]
print(f"mission wall {t1 - t0:.3f} s: start to run {t['setup_phases']['process_start_to_run_s']:.3f}, "
      f"summary phases {inside:.3f} (setup {t['setup_s']:.3f}, download {t['download_s']:.3f}, output wait "
      f"{t['output_wait_s']:.3f}), summary written to exit {t1 - written:.3f}")
PY
  done
  # The same run's system calls, timed, where strace is installed: what the teardown does.
  if command -v strace >/dev/null; then
    rm -rf "$dir"
    strace -f -tt -T -e trace=write,fsync,rename,munmap,exit_group -o "$OUT/mission.strace" \
      "$BIN" --n 600 --steps 4 --backend tiled --output "$dir" --quiet
    grep -E "rename|exit_group|munmap\([^,]+, [0-9]{7,}" "$OUT/mission.strace" | tail -20 | tee -a "$LOG"
    tail -3 "$OUT/mission.strace" | tee -a "$LOG"
  fi
}

# The tree a change starts from, built beside it, so that one call times both on one machine:
# .baseline/tree.tar is a `git archive` of that commit (git archive -o .baseline/tree.tar COMMIT),
# carried with the call. baseline_bench alternates the two builds' benchmark, A B A B.
phase_baseline_build() {
  local src=$BASELINE_BUILD-src
  [ -d "$src" ] || { mkdir -p "$src" && tar -xf .baseline/tree.tar -C "$src"; } || exit 1
  # The tests' option under both its names: a baseline older than the rename knows HEAT_BUILD_TESTS only.
  step configure-baseline cmake -S "$src" -B "$BASELINE_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHEAT_WITH_VTK=OFF \
    -DHEAT_WITH_TESTS=OFF -DHEAT_BUILD_TESTS=OFF -DHEAT_WITH_PYTHON=OFF -DCMAKE_CUDA_ARCHITECTURES=90 || exit 1
  step build-baseline cmake --build "$BASELINE_BUILD" -j16 --target heatrk4 heatrk4-bench || exit 1
}

phase_baseline_bench() {
  local args=(--sizes 600 --orders ${BENCH_ORDERS:-2 8} --precisions float double --backends tiled --repeats 5)
  for round in 1 2; do
    for build in "$BASELINE_BUILD" "$BUILD"; do
      TAIL_LINES=12 step "bench-$round-$(basename "$build")" "$build/benchmarks/heatrk4-bench" "${args[@]}"
    done
  done
}

# Faces that are not layer on the GPU (docs/design.md §1, "Boundary"): memcheck on each CUDA
# backend with every kind of condition, --t-end's shortened last step with --check on each backend
# and precision, and the tiled step with each condition on all six faces beside layer.
phase_faces() {
  local faces=(--bc-x-low temperature:1 --bc-x-high flux:2 --bc-y-low convective:3,0.5 --bc-y-high insulated
               --bc-z-low periodic --bc-z-high periodic)
  for backend in "${CUDA_BACKENDS[@]}"; do
    TAIL_LINES=2 step "faces-memcheck-$backend" compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN" --nx 37 \
      --ny 29 --nz 23 --order 8 --steps 2 --init randn --backend "$backend" "${faces[@]}" --format none --quiet
    # A radiation face: the stage form's passes and the fill's radiation rows kernel.
    for tool in memcheck racecheck; do
      TAIL_LINES=2 step "radiation-$tool-$backend" compute-sanitizer --tool "$tool" --error-exitcode 9 "$BIN" --nx 37 \
        --ny 29 --nz 23 --order 8 --steps 2 --init uniform:350 --backend "$backend" --bc radiation:0.5,300 \
        --bc-x-low insulated --format none --quiet
    done
    for precision in float double; do
      TAIL_LINES=3 step "t-end-$backend-$precision" "$BIN" --n 40 --order 6 --t-end 0.00123 --check --backend "$backend" \
        --precision "$precision" "${faces[@]}" --format none
    done
  done
  TAIL_LINES=2 step faces-memcheck-device-fill compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BUILD/tests/test_cuda_boundary_fill" --gtest_filter='DeviceBoundaryFill.*' --gtest_brief=1
  TAIL_LINES=12 step faces-bench "$BUILD/benchmarks/heatrk4-bench" --sizes 600 --orders 8 2 --precisions float \
    --backends tiled --repeats 5 --faces layer insulated periodic convective:1,0 --csv "$OUT/faces.csv"
  # Each fill launch alone, its time and DRAM bytes (the field's first fill, then four fills a step:
  # u's, whole, and three operands', StencilRead), against the fill's byte model (design.md §1).
  step faces-fills ncu --clock-control none --kernel-name regex:"fill_ghosts|hold_face_points" --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --log-file "$OUT/faces_fills.csv" \
    "$BUILD/benchmarks/heatrk4-bench" --sizes 600 --orders 8 --precisions float --backends tiled --repeats 1 \
    --steps 1 --faces insulated periodic convective:1,0 temperature:1
  TAIL_LINES=80 step faces-fills-table python3 -c 'import collections, csv, re, sys
launches = collections.OrderedDict()
for r in csv.DictReader(line for line in open(sys.argv[1]) if line.startswith("\"")):
    kernel = re.search(r"(fill_ghosts|hold_face_points)<[^>]*>", r["Kernel Name"]).group(0)
    launches.setdefault((r["ID"], kernel, r["Grid Size"]), []).append(r["Metric Name"] + " " + r["Metric Value"] + " " + r["Metric Unit"])
for (launch, kernel, grid), metrics in launches.items(): print(launch, kernel, grid, "; ".join(metrics))' "$OUT/faces_fills.csv"
}

# The baseline tree's own benchmarks/scaling.sh on its build, results under $OUT/baseline, for
# phase_scaling's figures of the same machine (SCALING_ARGS apply to both; no halo_bench there).
phase_baseline_scaling() {
  TAIL_LINES=40 step scaling-baseline "$BASELINE_BUILD-src/benchmarks/scaling.sh" --build "$PWD/$BASELINE_BUILD" \
    --halo-schemes "" ${SCALING_ARGS:-} "$OUT/baseline"
}

# The CUDA kernels' wrong patches (tests/mutations/cuda.list), each built and tested on its own.
phase_mutations() {
  TAIL_LINES=40 step mutations scripts/mutation_check.sh --cuda --list tests/mutations/cuda.list --jobs 16 \
    --work "${MUTATION_WORK:-/tmp/heatrk4-mutations}"
}

# Every order and precision, for the tiled tuning worklog.
phase_sweep() {
  TAIL_LINES=60 step sweep "$BUILD/benchmarks/heatrk4-bench" --sizes 600 --orders 2 4 6 8 --precisions float double \
    --backends "${CUDA_BACKENDS[@]}" --repeats 5 --csv "$OUT/sweep.csv"
}

for phase in "${phases[@]}"; do
  "phase_$phase"
done
echo "== done; logs in $OUT"
