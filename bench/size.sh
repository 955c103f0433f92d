#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Footprint of libiree_rt (README "Footprint"). Builds, Release, only what it measures:
#   build-size-default/  the default options: CPU drivers, and the CUDA driver where cuda.h is found
#   build-size/          -DIREE_RT_MINSIZE=ON: CPU drivers only, -Os, gc-sections, LTO
# prints each library's stripped size next to its goal and the ratio, runs the sample model
# (samples/models/mlp.mlir) through the minsize library on local-sync and local-task, and writes
# the figures, the ten largest contributors of each library and the machine to
# bench/results/size.txt. JOBS (default 2) is ninja's -j. Exits 1 when a goal is missed or the
# sample fails.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
OUT=bench/results/size.txt
MINSIZE_GOAL=$((400 * 1024))
DEFAULT_GOAL=$((1200 * 1024))

build() {
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DIREE_RT_BUILD_TESTS=OFF "$@" >/dev/null
  nice -n 10 ninja -C "$dir" -j"$JOBS" iree_rt iree-rt-model-sample >/dev/null
}

stripped_size() {  # the size of |1| after strip --strip-all (what a package ships)
  local tmp
  tmp=$(mktemp)
  strip --strip-all -o "$tmp" "$1"
  stat -c %s "$tmp"
  rm -f "$tmp"
}

echo "building build-size-default/ (default options) and build-size/ (IREE_RT_MINSIZE=ON)..." >&2
build build-size-default -DIREE_RT_MINSIZE=OFF
build build-size -DIREE_RT_MINSIZE=ON

status=0
report=$(mktemp)
{
  echo "# bench/size.sh: libiree_rt stripped (strip --strip-all), Release builds"
  echo "# machine: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "# compiler: $(c++ --version | head -1); linker: $(ld --version | head -1)"
  dirty=$(git diff --quiet 2>/dev/null || echo ' (with local changes)')
  echo "# commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$dirty"
  echo
  printf '%-34s %10s %10s %7s\n' "library" "bytes" "goal" "ratio"
  for entry in "minsize:build-size:$MINSIZE_GOAL" "default:build-size-default:$DEFAULT_GOAL"; do
    IFS=: read -r name dir goal <<<"$entry"
    size=$(stripped_size "$dir/lib/libiree_rt.so.1.0.0")
    ratio=$(awk -v s="$size" -v g="$goal" 'BEGIN { printf "%.2f", s / g }')
    verdict=met
    if [ "$size" -gt "$goal" ]; then verdict=MISSED; status=1; fi
    printf '%-34s %10d %10d %7s  %s\n' "libiree_rt ($name)" "$size" "$goal" "$ratio" "$verdict"
  done
  for dir in build-size build-size-default; do
    printf '%-34s %10d %10s %7s\n' "libiree_rt_tooling ($([ $dir = build-size ] && echo minsize || echo default))" \
      "$(stripped_size "$dir/lib/libiree_rt_tooling.so.1.0.0")" "-" "-"
  done
  echo
  echo "## before (issue 26), the same measure on this machine"
  echo "  b16bb75 default (Release, CPU + CUDA, check module and tensor text inside)   3135880"
  echo "  + StrCat/MakeStatus out of line, check + text moved to libiree_rt_tooling      2197832"
  echo "  + load/setup files -Os (iree_rt_cold_sources), gc-sections, Status unref call   1468712"
  echo "  + the C shim (but the invocation path), call sites, io_parameters -Os          1411368"
  echo "  minsize, first cut (-Os, LTO, gc-sections, no CUDA)                            919968"
  echo "  + packed relative relocations, dense ops.def table                             825832"
  echo "  + no collectives, no parameter archives                                        682184"
  echo "  + Status released out of line                                                  665800"
  echo
  echo "## the minsize library runs the sample model"
  for uri in local-sync local-task; do
    if line=$(build-size/bin/iree-rt-model-sample build-size/samples/sample_mlp.vmfb "$uri" 2>&1 | grep "OK: all"); then
      echo "$uri: $line"
    else
      echo "$uri: FAILED"
      status=1
    fi
  done
  for dir in build-size build-size-default; do
    echo
    echo "## $dir: sections (bytes)"
    size -A "$dir/lib/libiree_rt.so.1.0.0" |
      awk '$1 ~ /^\.(text|eh_frame(_hdr)?|gcc_except_table|rodata|data\.rel\.ro|rela\.dyn|dyn(sym|str))$/ {
             printf "  %-18s %9d\n", $1, $2 }'
    echo "## $dir: ten largest contributors (nm --size-sort -C of the unstripped library, by namespace)"
    python3 bench/size_contributors.py "$dir/lib/libiree_rt.so.1.0.0" 10
  done
} >"$report"
cat "$report"
cp "$report" "$OUT"
rm -f "$report"
echo "written: $OUT" >&2
exit $status
