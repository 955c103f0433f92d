#!/usr/bin/env bash
# Runs every test: the regular build's full ctest suite, the same suite under ASan+UBSan, the
# tests labelled "tsan" under ThreadSanitizer, and the libFuzzer harnesses (label "fuzz").
# Installs what is missing first (scripts/setup.sh).
# Ends with one line "N passed, N failed" summing all four runs; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh || exit 1

JOBS=$(nproc)
total_pass=0
total_fail=0
failed_runs=()

# run_suite <name> <build dir> <cmake flags> <ctest args...>
run_suite() {
  local name=$1 dir=$2 flags=$3
  shift 3
  echo "=== $name: configure and build ($dir)"
  mkdir -p "$dir"
  if ! cmake -G Ninja -S . -B "$dir" $flags >"$dir/test.configure.log" 2>&1; then
    cat "$dir/test.configure.log"; failed_runs+=("$name (configure)"); total_fail=$((total_fail + 1)); return
  fi
  # BUILD_TARGETS (optional): build only these targets (the fuzz stage builds only its harnesses).
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
  total_pass=$((total_pass + pass)); total_fail=$((total_fail + fail))
  [ "$fail" -ne 0 ] && failed_runs+=("$name")
  # Skipped tests are reported by ctest and are neither passed nor failed here.
  local skipped; skipped=$(grep -cE '\*\*\*Skipped' "$log" || true)
  total_pass=$((total_pass - skipped))
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

run_suite "regular" build ""
run_suite "asan+ubsan" build/asan "-DIREE_RT_SANITIZER=address -DIREE_RT_COMPILER=$PWD/build/venv/bin/iree-compile"
run_suite "tsan" build/tsan "-DIREE_RT_SANITIZER=thread -DIREE_RT_COMPILER=$PWD/build/venv/bin/iree-compile" -L tsan
# libFuzzer harnesses (clang, ASan+UBSan): each runs its seed corpus and crash regressions once,
# then fuzzes for RT_FUZZ_SHORT_SECONDS (tests/fuzz/CMakeLists.txt). Only the harnesses are built.
if command -v clang++ >/dev/null 2>&1; then
  fuzz_flags="-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DIREE_RT_SANITIZER=address"
  fuzz_flags+=" -DIREE_RT_FUZZ=ON -DIREE_RT_COMPILER=$PWD/build/venv/bin/iree-compile"
  if command -v ccache >/dev/null 2>&1; then
    fuzz_flags+=" -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  fi
  BUILD_TARGETS=rt_fuzzers run_suite "fuzz" build/fuzz "$fuzz_flags" -L fuzz
else
  echo "=== fuzz: no clang++"
  failed_runs+=("fuzz (no clang++)"); total_fail=$((total_fail + 1))
fi

echo
if [ ${#failed_runs[@]} -gt 0 ]; then echo "failing runs: ${failed_runs[*]}"; fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
