#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Issue 5's CUDA benchmarks, run on a GPU machine from the payload of bench/cuda/build_payload.sh,
# in one go (results: bench/results/cuda.txt):
#   1. the dispatch-bound module (bench/cuda/gen_chain.py: 100 dependent elementwise dispatches in
#      one command buffer) by our runtime in graph and stream modes, against raw_graph (the same
#      PTX, grid, block and parameters as one CUDA graph through the driver API);
#   2. chain, matmul_4096, mlp and cnn (.vmfb compiled once for sm_80) by our iree-rt-benchmark
#      and by IREE 3.13.0's iree-benchmark-module (iree-base-runtime wheel), on the same files.
# Every figure is wall time per call (median of $REPS runs of the benchmark tool): both tools
# time a synchronous call, launch to completion. raw_graph also prints GPU-only event time.
# Before timing, iree-rt-run checks that uploaded inputs reach the kernels intact.
#   usage: bench/cuda/run_bench.sh [payload=.gpu/cuda]   env: OUT, REPS=3, MIN_TIME=0.5 (s),
#          IREE_BENCH (default: <payload>/../iree-benchmark-module)
set -u
PAYLOAD=$(cd "${1:-.gpu/cuda}" && pwd)
IREE_BENCH=${IREE_BENCH:-$PAYLOAD/../iree-benchmark-module}
OUT=${OUT:-/tmp/cuda_bench}
REPS=${REPS:-3}
MIN_TIME=${MIN_TIME:-0.5}
mkdir -p "$OUT"
LOG=$OUT/bench.log
RESULT=$OUT/cuda.txt
: > "$LOG"
export LD_LIBRARY_PATH="$PAYLOAD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
N=100  # dispatches in chain.vmfb (build_payload.sh: gen_chain.py ... 100)

inputs() {
  case $1 in
    chain) echo "--input=4096xf32=1" ;;
    matmul_4096) echo "--input=4096x4096xf32=0.5 --input=4096x4096xf32=0.25" ;;
    mlp) echo "--input=8x784xf32=0.5" ;;
    cnn) echo "--input=1x32x32x3xf32=0.5" ;;
  esac
}
# The real time of the log's BM_ line, in microseconds.
micros() {
  awk '/^BM_/ { t = $2; u = $3; if (u == "ns") t /= 1000; else if (u == "ms") t *= 1000;
                else if (u == "s") t *= 1000000; printf "%.2f\n", t; exit }' "$1"
}
median() { printf '%s\n' "$@" | grep -E '^[0-9.]+$' | sort -g | awk '{ a[NR] = $1 } END { print (NR ? a[int((NR + 1) / 2)] : "n/a") }'; }
# bench TOOL WORKLOAD MODE: median microseconds per call. TOOL: ours | iree.
bench() {
  local tool=$1 w=$2 mode=$3 runs=() rep
  for rep in $(seq "$REPS"); do
    if [[ $tool == ours ]]; then
      timeout 120 "$PAYLOAD/bin/iree-rt-benchmark" --module="$PAYLOAD/bench/$w.vmfb" --function="$w" \
        $(inputs "$w") --device="cuda://0?command_buffer_mode=$mode" --benchmark_min_time="$MIN_TIME" \
        > "$OUT/one.log" 2>&1
    else
      local streams=true; [[ $mode == graph ]] && streams=false
      timeout 120 "$IREE_BENCH" --module="$PAYLOAD/bench/$w.vmfb" --function="$w" $(inputs "$w") \
        --device=cuda --cuda_use_streams=$streams --benchmark_min_time="${MIN_TIME}s" \
        > "$OUT/one.log" 2>&1
    fi
    echo "=== $tool $w $mode rep $rep rc=$?" >> "$LOG"
    cat "$OUT/one.log" >> "$LOG"
    runs+=("$(micros "$OUT/one.log")")
  done
  median "${runs[@]}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "n/a" }'; }
meets() { awk -v r="$1" -v g="$2" 'BEGIN { if (r == "n/a") print "?"; else print (r + 0 <= g + 0 ? "yes" : "NO") }'; }

{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $REPS runs per figure, --benchmark_min_time=$MIN_TIME s"
} > "$RESULT"

# Inputs reach the kernels intact (text and .npy inputs, uploaded to device-local memory).
check=$("$PAYLOAD/bin/iree-rt-run" --device=cuda --module="$PAYLOAD/bench/upload_check.vmfb" \
  --function=mm_element --input=4096x4096xf32=0.5 --input=4096x4096xf32=0.25 2>&1 | tail -1)
check2=$("$PAYLOAD/bin/iree-rt-run" --device=cuda --module="$PAYLOAD/bench/upload_check.vmfb" \
  --function=doubled_last --input=@"$PAYLOAD/bench/ramp.npy" 2>&1 | tail -1)
echo "upload check: mm_element -> '$check' (want f32=512); doubled_last(.npy) -> '$check2' (want f32=8190)" \
  | tee -a "$RESULT"

# 1. Dispatch-bound: per dispatch = per call / N.
raw=$(timeout 120 "$PAYLOAD/bin/raw_graph" "$PAYLOAD/bench/chain.ptx" \
  chain_dispatch_0_elementwise_4096_f32 $N 32 32 2000 2>&1)
echo "$raw" >> "$LOG"
raw_wall=$(echo "$raw" | awk '/^raw_graph n=/ { for (i = 1; i <= NF; i++) if ($i ~ /^wall_us_per_call=/) { sub(/.*=/, "", $i); print $i } }')
raw_dev=$(echo "$raw" | awk '/^raw_graph n=/ { for (i = 1; i <= NF; i++) if ($i ~ /^device_us_per_call=/) { sub(/.*=/, "", $i); print $i } }')
declare -A T
for w in chain matmul_4096 mlp cnn; do
  for mode in graph stream; do
    T[ours_${w}_$mode]=$(bench ours "$w" "$mode")
    T[iree_${w}_$mode]=$(bench iree "$w" "$mode")
  done
done
per() { awk -v t="$1" -v n="$N" 'BEGIN { if (t + 0 > 0) printf "%.3f", t / n; else printf "n/a" }'; }
{
  echo
  echo "1. Dispatch-bound module: $N dependent elementwise dispatches (4096 f32), us per dispatch"
  echo "   (wall per call / $N). raw_graph: the same PTX/grid/block/params as one CUDA graph."
  echo "   raw_graph GPU-only (events, back-to-back launches): $(per "$raw_dev") us per dispatch"
  printf "   %-22s %10s %10s %10s %7s %5s %s\n" "" "ours" "raw graph" "" "ratio" "goal" "met"
  for mode in graph stream; do
    o=$(per "${T[ours_chain_$mode]}"); r=$(per "$raw_wall"); x=$(ratio "$o" "$r")
    printf "   %-22s %10s %10s %10s %7s %5s %s\n" "ours $mode" "$o" "$r" "" "$x" "1.1" "$(meets "$x" 1.1)"
  done
  echo
  echo "2. Same .vmfb, ours vs IREE 3.13.0 (iree-benchmark-module): ms per call"
  echo "   IREE's default is stream command buffers (--cuda_use_streams=true); ratios are against it."
  printf "   %-12s %10s %10s %10s %10s %12s %12s %5s %s\n" workload "ours graph" "ours strm" \
    "IREE strm" "IREE graph" "ratio graph" "ratio strm" goal met
  for w in chain matmul_4096 mlp cnn; do
    goal=1.02; [[ $w == chain ]] && goal=0.8
    ms() { awk -v t="$1" 'BEGIN { if (t + 0 > 0) printf "%.4f", t / 1000; else printf "n/a" }'; }
    rg=$(ratio "${T[ours_${w}_graph]}" "${T[iree_${w}_stream]}")
    rs=$(ratio "${T[ours_${w}_stream]}" "${T[iree_${w}_stream]}")
    printf "   %-12s %10s %10s %10s %10s %12s %12s %5s %s\n" "$w" "$(ms "${T[ours_${w}_graph]}")" \
      "$(ms "${T[ours_${w}_stream]}")" "$(ms "${T[iree_${w}_stream]}")" "$(ms "${T[iree_${w}_graph]}")" \
      "$rg" "$rs" "$goal" "graph:$(meets "$rg" $goal) stream:$(meets "$rs" $goal)"
  done
} | tee -a "$RESULT"
rm -f "$OUT/one.log"
