#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs every test, in stages: the regular build's full ctest suite, the same suite under
# ASan+UBSan, the tests labelled "tsan" under ThreadSanitizer, and the libFuzzer harnesses (label
# "fuzz"). Installs what is missing first (scripts/setup.sh).
#
#   scripts/test.sh            the CI run: every stage within its share of a 45-minute budget
#   scripts/test.sh --full     also the heavy runs: every N of the fault injection for every
#                              program, a 5-minute soak, 5 minutes per fuzzer; no budget
#
# Prints the wall time of each stage and the total, and ends with one line "N passed, N failed"
# summing all stages; exits non-zero on any failure. A stage that takes longer than its share
# (STAGE_BUDGET below) fails the run with a message naming it, so an addition that would push CI
# past its limit is caught before it lands. IREE_RT_TEST_BUDGET_SCALE multiplies every share
# (e.g. 2 on a machine known to be twice as slow; 0 turns the check off). IREE_RT_TEST_STAGES
# (default "regular asan+ubsan tsan fuzz") runs only the stages it names, for a developer's
# quicker turn; CI runs them all.
#
# What keeps the run short (the measurements are in bench/results/ci_time.txt):
#   - every test program is compiled by iree-compile once for all four builds (a shared cache,
#     cmake/iree_compile_cached.sh);
#   - the TSan stage builds only the test binaries it runs (IREE_RT_TEST_LABELS=tsan, target
#     rt_tests), the fuzz stage only its harnesses;
#   - the sanitizer builds compile with clang at -O1, and every build with line tables only;
#   - the conformance suites are compiled once for every driver, the C ABI once for the library
#     and the fault-injection test;
#   - ccache (when present) with the checkout as base directory, so a warm cache serves a fresh
#     clone of the same machine too.
set -uo pipefail
cd "$(dirname "$0")/.."

FULL=0
for arg in "$@"; do
  case "$arg" in
    --full) FULL=1 ;;
    -h|--help) sed -n '3,18p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

# Each stage's share of the 45 minutes (2,700 s) that CI may spend, in seconds.
declare -A STAGE_BUDGET=([setup]=600 [regular]=720 [asan+ubsan]=900 [tsan]=300 [fuzz]=180)
TOTAL_BUDGET=2700
SCALE=${IREE_RT_TEST_BUDGET_SCALE:-1}
[ "$FULL" -eq 1 ] && SCALE=0

STAGES=" ${IREE_RT_TEST_STAGES:-regular asan+ubsan tsan fuzz} "
wanted() { [[ $STAGES == *" $1 "* ]]; }

JOBS=$(nproc)
total_pass=0
total_fail=0
failed_runs=()
stage_lines=()
run_start=$SECONDS

# over_budget <name> <seconds> <budget>: whether <seconds> exceeds the scaled <budget>.
over_budget() {
  awk -v t="$2" -v b="$3" -v s="$SCALE" 'BEGIN { exit !(s > 0 && t > b * s) }'
}

# scaled <budget>: the budget times IREE_RT_TEST_BUDGET_SCALE, for messages.
scaled() { awk -v b="$1" -v s="$SCALE" 'BEGIN { printf "%g", b * s }'; }

# end_stage <name> <start seconds>: records the stage's wall time and checks it against its share.
end_stage() {
  local name=$1 took=$((SECONDS - $2)) budget=${STAGE_BUDGET[$1]}
  local line
  line=$(printf '%-11s %5d s  (budget %d s)' "$name" "$took" "$budget")
  echo "=== $name: $took s (budget $budget s)"
  if over_budget "$name" "$took" "$budget"; then
    line+="  OVER BUDGET"
    echo "test.sh: stage '$name' took $took s, more than its share of $(scaled "$budget") s of CI's" \
         "45 minutes (scripts/test.sh STAGE_BUDGET). Make it faster, or move the new heavy work under --full."
    failed_runs+=("$name (over its budget of $(scaled "$budget") s)")
    total_fail=$((total_fail + 1))
  fi
  stage_lines+=("$line")
}

# run_suite <name> <build dir> <cmake flags> <ctest args...>
run_suite() {
  local name=$1 dir=$2 flags=$3
  shift 3
  echo "=== $name: configure and build ($dir)"
  mkdir -p "$dir"
  if ! cmake -G Ninja -S . -B "$dir" $COMMON_FLAGS $flags >"$dir/test.configure.log" 2>&1; then
    cat "$dir/test.configure.log"; failed_runs+=("$name (configure)"); total_fail=$((total_fail + 1)); return
  fi
  # BUILD_TARGETS (optional): build only these targets.
  if ! ninja -C "$dir" -j"$JOBS" ${BUILD_TARGETS:-} >"$dir/test.build.log" 2>&1; then
    tail -n 60 "$dir/test.build.log"; failed_runs+=("$name (build)"); total_fail=$((total_fail + 1)); return
  fi
  echo "=== $name: ctest"
  local log="$dir/test.ctest.log"
  (cd "$dir" && ctest --output-on-failure -j"$JOBS" "$@") 2>&1 | tee "$log"
  local summary pass fail
  summary=$(grep -E '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1)
  if [ -z "$summary" ]; then
    failed_runs+=("$name (no ctest summary)"); total_fail=$((total_fail + 1)); return
  fi
  fail=$(echo "$summary" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/')
  local all; all=$(echo "$summary" | sed -E 's/.* out of ([0-9]+).*/\1/')
  pass=$((all - fail))
  # Skipped tests are reported by ctest and are neither passed nor failed here.
  local skipped; skipped=$(grep -cE '\*\*\*Skipped' "$log" || true)
  pass=$((pass - skipped))
  total_pass=$((total_pass + pass)); total_fail=$((total_fail + fail))
  [ "$fail" -ne 0 ] && failed_runs+=("$name")
  echo "=== $name: $pass passed, $fail failed, $skipped skipped"
}

start=$SECONDS
./scripts/setup.sh || { echo "setup failed"; exit 1; }
end_stage setup "$start"

COMPILER=$PWD/build/venv/bin/iree-compile
COMMON_FLAGS="-DIREE_RT_COMPILER=$COMPILER -DIREE_RT_COMPILE_CACHE_DIR=$PWD/build/iree-compile-cache"
if command -v ccache >/dev/null 2>&1; then
  COMMON_FLAGS+=" -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  # Paths under the checkout are hashed relative to it, so another clone hits the same entries.
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
fi
# Line tables instead of full debug info (CMakeLists.txt: IREE_RT_DEBUG_LINES_ONLY). The sanitizer
# builds use clang, which compiles them in a third of gcc's time, at -O1.
REGULAR_FLAGS="-DIREE_RT_DEBUG_LINES_ONLY=ON"
SANITIZER_FLAGS=""
if command -v clang++ >/dev/null 2>&1; then
  SANITIZER_FLAGS="-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++"
fi

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
if [ "$FULL" -eq 1 ]; then
  export IREE_RT_FAULT_FULL=1 IREE_RT_SOAK_SECONDS=300
fi
FUZZ_SECONDS=10
[ "$FULL" -eq 1 ] && FUZZ_SECONDS=300

if wanted regular; then
  start=$SECONDS
  run_suite "regular" build "$REGULAR_FLAGS"
  end_stage regular "$start"
fi

if wanted asan+ubsan; then
  start=$SECONDS
  run_suite "asan+ubsan" build/asan "$SANITIZER_FLAGS -DIREE_RT_SANITIZER=address"
  end_stage asan+ubsan "$start"
fi

if wanted tsan; then
  start=$SECONDS
  BUILD_TARGETS=rt_tests run_suite "tsan" build/tsan \
    "$SANITIZER_FLAGS -DIREE_RT_SANITIZER=thread -DIREE_RT_TEST_LABELS=tsan" -L tsan
  end_stage tsan "$start"
fi

# libFuzzer harnesses (clang, ASan+UBSan): each runs its seed corpus and crash regressions once,
# then fuzzes for RT_FUZZ_SHORT_SECONDS (tests/fuzz/CMakeLists.txt). Only the harnesses are built.
start=$SECONDS
if ! wanted fuzz; then
  :
elif command -v clang++ >/dev/null 2>&1; then
  fuzz_flags="-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DIREE_RT_SANITIZER=address"
  fuzz_flags+=" -DIREE_RT_FUZZ=ON -DRT_FUZZ_SHORT_SECONDS=$FUZZ_SECONDS"
  BUILD_TARGETS=rt_fuzzers run_suite "fuzz" build/fuzz "$fuzz_flags" -L fuzz
else
  echo "=== fuzz: no clang++"
  failed_runs+=("fuzz (no clang++)"); total_fail=$((total_fail + 1))
fi
wanted fuzz && end_stage fuzz "$start"

total=$((SECONDS - run_start))
echo
echo "=== wall time per stage"
printf '%s\n' "${stage_lines[@]}"
printf '%-11s %5d s  (budget %d s)\n' total "$total" "$TOTAL_BUDGET"
if over_budget total "$total" "$TOTAL_BUDGET"; then
  echo "test.sh: the whole run took $total s, more than CI's budget of $(scaled "$TOTAL_BUDGET") s"
  failed_runs+=("total (over its budget of $(scaled "$TOTAL_BUDGET") s)"); total_fail=$((total_fail + 1))
fi
if [ ${#failed_runs[@]} -gt 0 ]; then echo "failing runs: ${failed_runs[*]}"; fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
