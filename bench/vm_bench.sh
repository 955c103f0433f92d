#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# VM interpreter benchmark: the same .vmfb (bench/vm_loop.mlir) timed in iree_rt and in IREE's
# own runtime (iree-base-runtime==3.13.0, iree-benchmark-module on local-sync), in one run.
# Prints both figures and the ratio ours/theirs (lower is better; the goal is <= 0.7), and
# writes them to bench/results/vm_loop.txt. IREE is timed with iree-benchmark-module, ours with
# build/bin/iree-rt-vm-bench (bench/vm_bench.c, through the public C ABI).
# With valgrind installed it also counts instructions (callgrind's Ir, exact whatever the load)
# per loop iteration, ours (iree-rt-run) and IREE's (its Python-free iree-run-module): the
# difference of two runs of 100,000 and 200,000 iterations, so start-up cancels out.
#   usage: bench/vm_bench.sh [N=2000000] [REPETITIONS=5]   (@sum runs 10*N iterations)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000000}
REPS=${2:-5}
./scripts/setup.sh
if ! build/venv/bin/python -c 'import importlib.metadata as m; assert m.version("iree-base-runtime") == "3.13.0"' 2>/dev/null; then
  echo "bench: installing iree-base-runtime==3.13.0 into build/venv"
  build/venv/bin/pip install -q --disable-pip-version-check "iree-base-runtime==3.13.0"
fi
cmake -S . -B build -G Ninja >/dev/null
cmake --build build --target iree-rt-vm-bench iree-rt-run bench_vm_loop >/dev/null
MODULE=build/bench/bench_vm_loop.vmfb

best() { printf '%s\n' "$@" | sort -g | head -1; }
mkdir -p bench/results
: > bench/results/vm_loop.txt
# bench_function NAME N: best of REPS for ours and theirs, alternating so noise hits both alike.
bench_function() {
  local fn=$1 n=$2 ours=() theirs=() o t
  for rep in $(seq "$REPS"); do
    o=$(build/bin/iree-rt-vm-bench "$MODULE" "$fn" "$n" 1.0 | sed -n 's/.* ms_per_call=\([0-9.]*\).*/\1/p')
    t=$(build/venv/bin/iree-benchmark-module --module="$MODULE" --function="$fn" --input="$n" \
          --device=local-sync --benchmark_min_time=1s --benchmark_format=json 2>/dev/null |
        build/venv/bin/python -c 'import json,sys; b=json.load(sys.stdin)["benchmarks"][0]; u=b["time_unit"]; print("%.4f" % (b["real_time"]*{"ns":1e-6,"us":1e-3,"ms":1,"s":1e3}[u]))')
    ours+=("$o"); theirs+=("$t")
  done
  o=$(best "${ours[@]}"); t=$(best "${theirs[@]}")
  {
    echo "@$fn, n=$n (best of $REPS): iree_rt ${o} ms ($(awk -v o="$o" -v n="$n" 'BEGIN { printf "%.2f", o * 1e6 / n }') ns/iteration)," \
         "IREE 3.13.0 ${t} ms; ratio ours/theirs $(awk -v o="$o" -v t="$t" 'BEGIN { printf "%.3f", o / t }')"
    echo "  all runs: ours ${ours[*]} | theirs ${theirs[*]}"
  } | tee -a bench/results/vm_loop.txt
}
echo "vm_loop: bench/vm_loop.mlir on $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); goal ratio <= 0.7" |
  tee -a bench/results/vm_loop.txt
bench_function loop "$N"
bench_function sum $((N * 10))

# ir_per_iteration BINARY FUNCTION: callgrind Ir per loop iteration.
ir_per_iteration() {
  local binary=$1 fn=$2 counts=() n out
  for n in 100000 200000; do
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" --device=local-sync \
      --module="$MODULE" --function="$fn" --input="$n" >/dev/null 2>"$out"
    counts+=("$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out")")
    rm -f "$out"
  done
  awk -v a="${counts[0]}" -v b="${counts[1]}" 'BEGIN { printf "%.1f", (b - a) / 100000 }'
}
if command -v valgrind >/dev/null; then
  theirs_run=$(ls -d build/venv/lib/python3*/site-packages/iree/_runtime_libs)/iree-run-module
  for fn in loop sum; do
    o=$(ir_per_iteration build/bin/iree-rt-run "$fn"); t=$(ir_per_iteration "$theirs_run" "$fn")
    echo "@$fn callgrind Ir/iteration: iree_rt $o, IREE 3.13.0 $t; ratio ours/theirs" \
         "$(awk -v o="$o" -v t="$t" 'BEGIN { printf "%.3f", o / t }')" | tee -a bench/results/vm_loop.txt
  done
fi
