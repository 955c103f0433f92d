#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Tracing ON against tracing OFF (issue 24): the model zoo's programs (tests/models, compiled by
# zoo.py prepare) timed per call by build/bin/iree-rt-benchmark, once as is and once with
# --trace=FILE (every host span, queue operation, command buffer and dispatch recorded; the file
# is written after the timed loop, so writing it is not counted). Runs come in pairs, off and on
# back to back with the order alternating, so the state of the machine is alike within a pair;
# the ratio on/off is the median of the pair ratios (the stable figure on a host whose speed
# drifts), printed with the medians of each side. Goal: on <= 1.10x off. Run it on an idle
# machine: a build sharing the cores moves single runs by more than the cost measured.
# (bench/results/trace_overhead.txt has the tracing-OFF figures, from bench/hal_bench.sh.)
#   usage: bench/trace_overhead.sh [REPETITIONS=7] [MIN_TIME_SECONDS=2]
#   env:   BUILD_DIR=build, MODEL_DIR=build/models (zoo.py's output; or IREE_RT_MODEL_DIR),
#          MODELS="mobilenet_v3_small resnet50", DEVICES=local-task, FUNCTION=main,
#          TOOL=<iree-rt-benchmark to time>, RESULTS=bench/results/trace_overhead_on.txt
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-7}
MIN_TIME=${2:-2}
BUILD=${BUILD_DIR:-build}
MODEL_DIR=${MODEL_DIR:-${IREE_RT_MODEL_DIR:-build/models}}
MODELS=${MODELS:-mobilenet_v3_small resnet50}
DEVICES=${DEVICES:-local-task}
FUNCTION=${FUNCTION:-main}
TOOL=${TOOL:-$BUILD/bin/iree-rt-benchmark}
RESULTS=${RESULTS:-bench/results/trace_overhead_on.txt}
GOAL=1.10
PYTHON=$(command -v build/venv/bin/python || command -v python3)
[ -x "$TOOL" ] || { echo "trace_overhead: no $TOOL (ninja -C $BUILD iree-rt-benchmark)" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# ms_per_call < benchmark JSON: the real_time of the (single) iteration run, in ms.
ms_per_call() {
  "$PYTHON" -c '
import json, sys
b = [b for b in json.load(sys.stdin)["benchmarks"] if b.get("run_type") != "aggregate"][0]
print("%.6f" % (b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]))'
}
# run MODEL DEVICE off|on: one process; prints ms per call; a failing run aborts the script.
run() {
  local model=$1 device=$2 mode=$3 json inputs=() trace=()
  for input in "$MODEL_DIR/$model".input*.npy; do inputs+=("--input=@$input"); done
  [ "$mode" = on ] && trace=("--trace=$WORK/$model.json")
  if ! json=$("$TOOL" --module="$MODEL_DIR/$model.vmfb" --function="$FUNCTION" "${inputs[@]}" \
                --device="$device" --benchmark_min_time="$MIN_TIME" --benchmark_format=json \
                "${trace[@]}" 2>"$WORK/err"); then
    echo "trace_overhead: $model/$device ($mode) failed:" >&2; cat "$WORK/err" >&2; exit 1
  fi
  [ "$mode" = off ] || [ -s "$WORK/$model.json" ] ||
    { echo "trace_overhead: $model/$device wrote no trace" >&2; exit 1; }
  ms_per_call <<<"$json"
}
median() {
  printf '%s\n' "$@" | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

mkdir -p "$(dirname "$RESULTS")"
{
  echo "trace_overhead: tracing on (--trace=FILE) vs off, $TOOL, $(nproc) cores, $(uname -m)," \
       "$(date -u +%Y-%m-%d\ %H:%M) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "$REPS pairs of runs of --benchmark_min_time=$MIN_TIME (order alternating); ms per call:" \
       "median of each side; ratio: median of the pair ratios on/off. Goal: ratio <= $GOAL."
  printf '%-20s %-11s %12s %12s %7s %5s  %s\n' model device off_ms on_ms ratio goal met
} | tee "$RESULTS"
log=""
for model in $MODELS; do
  [ -f "$MODEL_DIR/$model.vmfb" ] ||
    { echo "trace_overhead: no $MODEL_DIR/$model.vmfb (tests/models/zoo.py prepare $model)" >&2; exit 1; }
  for device in $DEVICES; do
    offs=(); ons=(); pairs=()
    for rep in $(seq "$REPS"); do
      if (( rep % 2 )); then
        off=$(run "$model" "$device" off); on=$(run "$model" "$device" on)
      else
        on=$(run "$model" "$device" on); off=$(run "$model" "$device" off)
      fi
      offs+=("$off"); ons+=("$on")
      pairs+=("$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.4f", a / b }')")
    done
    ratio=$(awk -v r="$(median "${pairs[@]}")" 'BEGIN { printf "%.3f", r }')
    met=$(awk -v r="$ratio" -v g="$GOAL" 'BEGIN { print (r <= g) ? "yes" : "NO" }')
    printf '%-20s %-11s %12.6f %12.6f %7s %5s  %s\n' "$model" "$device" "$(median "${offs[@]}")" \
           "$(median "${ons[@]}")" "$ratio" "$GOAL" "$met" | tee -a "$RESULTS"
    log+="  $model/$device: off ${offs[*]}; on ${ons[*]}; pair ratios ${pairs[*]}"$'\n'
  done
done
{ echo "all runs (ms per call):"; printf '%s' "$log"; } | tee -a "$RESULTS"
