#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# CPU model benchmark: the same .vmfb files (bench/models/, compiled for the host CPU) timed per
# call by our build/bin/iree-rt-benchmark and by IREE's iree-benchmark-module
# (iree-base-runtime==3.13.0), on local-sync and local-task, with the same inputs. Runs come in
# pairs, ours and theirs back to back (the order alternating), so the state of the machine
# (other tenants, clocks) is alike within a pair; each run is one process, a warm-up call, then
# --benchmark_min_time of timed calls. The ratio ours/theirs is the median of the REPS pair
# ratios: on a host whose speed drifts between runs it is the stable figure, where best-of-runs
# can swing by 10% with which side caught a fast spell. The ratio of the best runs and of the
# medians are printed beside it. Goals: <= 0.5 for add (pure runtime overhead), <= 1.0 for the
# models. Writes the table to bench/results/cpu_models.txt.
#   usage: bench/hal_bench.sh [REPETITIONS=5] [MIN_TIME_SECONDS=1]
#   env:   BUILD_DIR=build (the CMake build to use), WORKLOADS="add matmul_1024 mlp cnn",
#          DEVICES="local-sync local-task", OURS=<tool> (e.g. IREE's, to check this script),
#          JOBS=2 (build parallelism), REALTIME=1 (run local-sync, which is one thread, under
#          SCHED_FIFO so builds sharing the machine cannot preempt either side, or where that is
#          not permitted and there are more than 2 cores, pinned to core 1; local-task
#          always runs at normal priority: how its workers share the cores is part of what is
#          measured, and real-time workers would change it; 0 for normal priority everywhere),
#          PAYLOAD=<dir from bench/cpu/build_payload.sh> (on a machine with no build or compiler:
#          use its tools and the models compiled for the CPU closest to this host's, or
#          MODEL_CPU=<name>; results go to RESULTS=<file>, default $PAYLOAD/cpu_models.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-5}
MIN_TIME=${2:-1}
BUILD=${BUILD_DIR:-build}
WORKLOADS=${WORKLOADS:-add matmul_1024 mlp cnn}
DEVICES=${DEVICES:-local-sync local-task}
if [ -n "${PAYLOAD:-}" ]; then
  # The target CPU nearest this host among those the payload was compiled for.
  flags=$(grep -m1 '^flags' /proc/cpuinfo); vendor=$(grep -m1 '^vendor_id' /proc/cpuinfo)
  has() { [[ " $flags " == *" $1 "* ]]; }
  if [[ $vendor == *AMD* ]]; then cpu=$(has avx512f && echo znver4 || echo znver3)
  elif has amx_tile; then cpu=sapphirerapids
  elif has avx512f; then cpu=icelake-server
  else cpu=x86-64-v3; fi
  cpu=${MODEL_CPU:-$cpu}
  MODELS=$PAYLOAD/models/$cpu
  [ -d "$MODELS" ] || { echo "bench: payload has no models for $cpu" >&2; exit 1; }
  export LD_LIBRARY_PATH=$PAYLOAD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  OURS=${OURS:-$PAYLOAD/bin/iree-rt-benchmark}
  THEIRS=$PAYLOAD/bin/iree-benchmark-module
  PYTHON=python3
  RESULTS=${RESULTS:-$PAYLOAD/cpu_models.txt}
  TARGET_NOTE="$cpu (payload $PAYLOAD; $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
else
  ./scripts/setup.sh
  if ! build/venv/bin/python -c 'import importlib.metadata as m
assert m.version("iree-base-runtime") == "3.13.0"' 2>/dev/null; then
    echo "bench: installing iree-base-runtime==3.13.0 into build/venv"
    build/venv/bin/pip install -q --disable-pip-version-check "iree-base-runtime==3.13.0"
  fi
  cmake -S . -B "$BUILD" -G Ninja >/dev/null
  OURS=${OURS:-$BUILD/bin/iree-rt-benchmark}
  THEIRS=build/venv/bin/iree-benchmark-module
  PYTHON=build/venv/bin/python
  MODELS=$BUILD/bench
  RESULTS=${RESULTS:-bench/results/cpu_models.txt}
  TARGET_NOTE=host
  targets=(bench_cpu_models)
  [ "$OURS" = "$BUILD/bin/iree-rt-benchmark" ] && targets+=(iree-rt-benchmark)
  cmake --build "$BUILD" --parallel "${JOBS:-2}" --target "${targets[@]}" >/dev/null  # shared machine
fi
PRIO=()
if [ "${REALTIME:-1}" = 1 ] && command -v chrt >/dev/null && chrt -f 50 true 2>/dev/null; then
  PRIO=(chrt -f 50)
elif [ "${REALTIME:-1}" = 1 ] && [ "$(nproc)" -gt 2 ] && command -v taskset >/dev/null; then
  PRIO=(taskset -c 1)  # no real-time class here (a container): one fixed core, no migrations
fi

inputs() {  # the --input flags of each workload (splats: values do not change the work done)
  case $1 in
    add) echo "--input=4xf32=1 2 3 4|--input=4xf32=10 20 30 40" ;;
    matmul_1024) echo "--input=1024x1024xf32=0.5|--input=1024x1024xf32=0.25" ;;
    mlp) echo "--input=8x784xf32=0.5" ;;
    cnn) echo "--input=1x32x32x3xf32=0.5" ;;
    *) echo "bench: unknown workload $1" >&2; exit 1 ;;
  esac
}
goal() { [ "$1" = add ] && echo 0.5 || echo 1.0; }
# ms_per_call JSON: the real_time of the (single) iteration run, converted to ms.
ms_per_call() {
  "$PYTHON" -c '
import json, sys
b = [b for b in json.load(sys.stdin)["benchmarks"] if b.get("run_type") != "aggregate"][0]
print("%.6f" % (b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]))'
}
# run TOOL WORKLOAD DEVICE: one process, prints ms per call; a failing run aborts the script.
run() {
  local tool=$1 workload=$2 device=$3 json ins
  IFS='|' read -r -a ins <<<"$(inputs "$workload")"
  local prio=()
  [ "$device" = local-sync ] && prio=("${PRIO[@]}")
  if ! json=$("${prio[@]}" "$tool" --module="$MODELS/bench_$workload.vmfb" --function="$workload" \
                "${ins[@]}" --device="$device" --benchmark_min_time="$MIN_TIME" \
                --benchmark_format=json 2>/tmp/hal_bench.$$.err); then
    echo "bench: $tool failed on $workload/$device:" >&2; cat /tmp/hal_bench.$$.err >&2; exit 1
  fi
  ms_per_call <<<"$json"
}
best() { printf '%s\n' "$@" | sort -g | head -1; }
median() {
  printf '%s\n' "$@" | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

mkdir -p "$(dirname "$RESULTS")"
out=$RESULTS
{
  echo "cpu_models: bench/models/ for llvm-cpu (target-cpu=$TARGET_NOTE) on $(nproc) cores, $(uname -m)," \
       "$(date -u +%Y-%m-%d), load average $(cut -d' ' -f1-3 /proc/loadavg)," \
       "local-sync under ${PRIO[*]:-normal priority}"
  echo "ours: $OURS; theirs: IREE 3.13.0 iree-benchmark-module. $REPS pairs of runs of" \
       "--benchmark_min_time=$MIN_TIME; ms per call: the best run of each side. ratio: median of" \
       "the pair ratios ours/theirs; best: ratio of the best runs; median: ratio of the medians."
  echo "Noisy when the machine is shared: compare ratios, and rerun before trusting a small gap."
  printf '%-12s %-11s %12s %12s %7s %7s %7s %5s  %s\n' workload device ours_ms theirs_ms ratio \
         best median goal met

} | tee "$out"
runs_log=""
for workload in $WORKLOADS; do
  for device in $DEVICES; do
    ours=(); theirs=(); pairs=()
    for rep in $(seq "$REPS"); do
      if (( rep % 2 )); then
        o=$(run "$OURS" "$workload" "$device"); t=$(run "$THEIRS" "$workload" "$device")
      else
        t=$(run "$THEIRS" "$workload" "$device"); o=$(run "$OURS" "$workload" "$device")
      fi
      ours+=("$o"); theirs+=("$t")
      pairs+=("$(awk -v o="$o" -v t="$t" 'BEGIN { printf "%.4f", o / t }')")
    done
    o=$(best "${ours[@]}"); t=$(best "${theirs[@]}"); g=$(goal "$workload")
    ratio=$(awk -v r="$(median "${pairs[@]}")" 'BEGIN { printf "%.3f", r }')
    bratio=$(awk -v o="$o" -v t="$t" 'BEGIN { printf "%.3f", o / t }')
    mratio=$(awk -v o="$(median "${ours[@]}")" -v t="$(median "${theirs[@]}")" \
               'BEGIN { printf "%.3f", o / t }')
    met=$(awk -v r="$ratio" -v g="$g" 'BEGIN { print (r <= g) ? "yes" : "NO" }')
    printf '%-12s %-11s %12.6f %12.6f %7s %7s %7s %5s  %s\n' "$workload" "$device" "$o" "$t" \
           "$ratio" "$bratio" "$mratio" "$g" "$met" | tee -a "$out"
    runs_log+="  $workload/$device: ours ${ours[*]} (median $(median "${ours[@]}"))"$'\n'
    runs_log+="    theirs ${theirs[*]} (median $(median "${theirs[@]}"))"$'\n'
    runs_log+="    pair ratios ${pairs[*]}"$'\n'
  done
done
rm -f /tmp/hal_bench.$$.err
{ echo "all runs (ms per call):"; printf '%s' "$runs_log"; } | tee -a "$out"
