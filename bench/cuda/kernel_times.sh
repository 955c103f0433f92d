#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Per-kernel GPU time (Nsight Compute, clocks not locked) of one workload under our
# iree-rt-benchmark and IREE's iree-benchmark-module, to tell in-kernel time from runtime overhead
# when run_bench.sh shows a gap. Same .vmfb, same launches; prints kernel, grid, block, ns.
#   usage: bench/cuda/kernel_times.sh [payload=.gpu/cuda] [workload=mlp] [inputs...]
set -u
PAYLOAD=$(cd "${1:-.gpu/cuda}" && pwd)
W=${2:-mlp}
shift 2 2>/dev/null
INPUTS=("$@")
[[ ${#INPUTS[@]} -eq 0 ]] && INPUTS=(--input=8x784xf32=0.5)
IREE_BENCH=${IREE_BENCH:-$PAYLOAD/../iree-benchmark-module}
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
export LD_LIBRARY_PATH="$PAYLOAD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
profile() {  # label, command...
  local label=$1; shift
  timeout 120 "$NCU" --clock-control none --metrics gpu__time_duration.sum --launch-skip 30 \
    --launch-count 9 --csv "$@" 2>/dev/null |
    awk -F'","' -v l="$label" '$13 == "gpu__time_duration.sum" {
      gsub(/"/, "", $15)
      printf "%-6s %-60s grid %-12s block %-12s %s ns\n", l, substr($5, 1, 60), $9, $8, $15 }'
}
profile ours "$PAYLOAD/bin/iree-rt-benchmark" --module="$PAYLOAD/bench/$W.vmfb" --function="$W" \
  "${INPUTS[@]}" --device="cuda://0?command_buffer_mode=graph" --benchmark_min_time=0.05
profile iree "$IREE_BENCH" --module="$PAYLOAD/bench/$W.vmfb" --function="$W" "${INPUTS[@]}" \
  --device=cuda --benchmark_min_time=0.05s
