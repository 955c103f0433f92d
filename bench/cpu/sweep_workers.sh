#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# local-task scaling: each workload at several worker counts (and local-sync), ours against
# IREE's iree-benchmark-module with the same number of workers (--task_topology_group_count),
# from a payload made by bench/cpu/build_payload.sh. Prints the ms per call of each run (3 runs
# per tool, alternating), for a quick look at where a gap grows; bench/hal_bench.sh gives the
# ratios that count.
#   PAYLOAD=.gpu/cpu bench/cpu/sweep_workers.sh
#   env: WL="mlp cnn" (workloads), NS="1 4 16" (worker counts), MT=0.5 (seconds per run),
#        BINS="iree-rt-benchmark" (ours: binaries in $PAYLOAD/bin, each optionally with
#        ':VAR=value' for an environment to run it in, to compare builds or settings)
set -euo pipefail
P=${PAYLOAD:-.gpu/cpu}
flags=$(grep -m1 '^flags' /proc/cpuinfo)
M=$P/models/${MODEL_CPU:-$([[ " $flags " == *" amx_tile "* ]] && echo sapphirerapids || echo x86-64-v3)}
export LD_LIBRARY_PATH=$P/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
BINS=${BINS:-iree-rt-benchmark}
one() {
  "$@" --benchmark_min_time="${MT:-0.5}" --benchmark_format=json 2>/dev/null | python3 -c '
import json, sys
b = [b for b in json.load(sys.stdin)["benchmarks"] if b.get("run_type") != "aggregate"][0]
print("%.4f" % (b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0}[b["time_unit"]]))'
}
for w in ${WL:-mlp cnn}; do
  case $w in
    mlp) IN=(--input=8x784xf32=0.5) ;;
    cnn) IN=(--input=1x32x32x3xf32=0.5) ;;
    add) IN=("--input=4xf32=1 2 3 4" "--input=4xf32=10 20 30 40") ;;
    matmul_1024) IN=(--input=1024x1024xf32=0.5 --input=1024x1024xf32=0.25) ;;
  esac
  for n in ${NS:-1 4 16} sync; do
    declare -A res=()
    for _ in 1 2 3; do
      for b in $BINS; do
        bin=${b%%:*}; envs=(); [[ $b == *:* ]] && read -r -a envs <<<"${b#*:}"
        d="local-task://?workers=$n"; [ "$n" = sync ] && d=local-sync
        res[$b]+="$(one env "${envs[@]}" "$P/bin/$bin" --module="$M/bench_$w.vmfb" --function="$w" \
                      "${IN[@]}" "--device=$d") "
      done
      theirs=(--device=local-task --task_topology_group_count="$n")
      [ "$n" = sync ] && theirs=(--device=local-sync)
      res[iree]+="$(one "$P/bin/iree-benchmark-module" --module="$M/bench_$w.vmfb" --function="$w" \
                      "${IN[@]}" "${theirs[@]}") "
    done
    line="$w $n:"
    for k in $BINS iree; do line+="  $k: ${res[$k]}"; done
    echo "$line"
    unset res
  done
done
