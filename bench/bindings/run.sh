#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Binding overhead benchmark: per-call cost of a trivial module function (@add_i32 of
# bindings/tests/bindings_test.mlir, pure VM code on local-sync) called from C (bench_c.c, the
# public C ABI), Java (BindingsBench.java, dev.ireert) and C# under Mono (BindingsBench.cs,
# IreeRt), in one run. Each language reuses its argument and result lists (C: clear, push, call,
# get; Java/C#: an Invocation); the boxed Function.call path is timed too, for reference.
# The three alternate ROUNDS times so that machine noise hits them alike; each round runs RUNS
# runs of CALLS calls per language and keeps the best and the median run. The summary takes the
# best of the bests and the median of the medians, and the ratios to C. Goal: each binding adds
# at most 1 us per call and at most 1.5x the C call.
#   usage: bench/bindings/run.sh [BUILD_DIR=build] [CALLS=1000000] [RUNS=7] [ROUNDS=3]
# Writes bench/results/bindings.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
CALLS=${2:-1000000}
RUNS=${3:-7}
ROUNDS=${4:-3}
./scripts/setup.sh
cmake -S . -B "$BUILD" -G Ninja >/dev/null
cmake --build "$BUILD" --target iree-rt-bindings-bench bindings_bench iree_rt_java iree_rt_csharp_assembly >/dev/null
MODULE=$BUILD/bindings/bindings_test_module.vmfb
JAR=$BUILD/bindings/java/iree_rt.jar
CSDIR=$BUILD/bindings/csharp/bin

declare -A best median
run_round() {
  local line
  line=$("$BUILD/bin/iree-rt-bindings-bench" "$MODULE" "$CALLS" "$RUNS")
  best[C]+=" $(awk '{print $3}' <<<"$line")"; median[C]+=" $(awk '{print $4}' <<<"$line")"
  while read -r name b m _; do
    best[$name]+=" $b"; median[$name]+=" $m"
  done < <(java -Diree_rt.library.path="$BUILD/lib" -cp "$JAR:$BUILD/bindings/bench-classes" \
             BindingsBench "$MODULE" "$CALLS" "$RUNS" | sed 's/ ns\/call//')
  while read -r name b m _; do
    best[$name]+=" $b"; median[$name]+=" $m"
  done < <(mono "$CSDIR/BindingsBench.exe" "$MODULE" "$CALLS" "$RUNS" | sed 's/ ns\/call//')
}
for r in $(seq "$ROUNDS"); do run_round; done

min() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | head -1; }
med() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
c_best=$(min "${best[C]}"); c_med=$(med "${median[C]}")
mkdir -p bench/results
out=bench/results/bindings.txt
{
  echo "bindings: @add_i32 (bindings/tests/bindings_test.mlir) on local-sync, $(nproc) cores, $(uname -m), $(date -u +%F), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "$(java -version 2>&1 | head -1); $(mono --version | head -1 | cut -d'(' -f1); $CALLS calls x $RUNS runs x $ROUNDS alternating rounds"
  echo "ns per call: 'best' is the best run of all rounds, 'median' the median of the rounds' median runs."
  echo "Goal per binding: overhead (binding - C) <= 1000 ns and ratio binding/C <= 1.5 (on the median)."
  printf '%-11s %9s %9s %10s %7s %7s  %s\n' language best median overhead ratio r_best goal_met
  for name in C Java C# "Java(call)" "C#(Call)"; do
    b=$(min "${best[$name]}"); m=$(med "${median[$name]}")
    awk -v n="$name" -v b="$b" -v m="$m" -v cb="$c_best" -v cm="$c_med" 'BEGIN {
      over = m - cm; ratio = m / cm; rb = b / cb;
      met = (n == "C") ? "-" : ((over <= 1000 && ratio <= 1.5) ? "yes" : "NO");
      if (n ~ /\(/) met = met " (reference: boxed arguments, new lists per call)";
      printf "%-11s %9.1f %9.1f %10.1f %7.3f %7.3f  %s\n", n, b, m, over, ratio, rb, met }'
  done
  echo "all rounds (best / median ns per call):"
  for name in C Java C# "Java(call)" "C#(Call)"; do
    echo "  $name: best${best[$name]} | median${median[$name]}"
  done
} | tee "$out"
