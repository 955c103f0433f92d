#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs iree-compile through a content-addressed cache, so each test program is compiled once for
# every build tree that asks for it (the regular, ASan, TSan and fuzz builds of scripts/test.sh
# compile the same programs with the same flags: the output does not depend on the sanitizer).
#
#   iree_compile_cached.sh <cache dir> <compiler id> <iree-compile> <args...>
#
# <args> must name one input file (the only argument not starting with '-' and not following
# -o) and its output with "-o <file>". The key hashes the compiler id (its --version text, taken
# at configure time), every argument but the output path, the input's bytes, and for host-CPU
# code the CPU, so a changed source, flag, compiler or machine is a miss. An empty <cache dir> runs the compiler alone.
set -euo pipefail
cache_dir=$1 compiler_id=$2 compiler=$3
shift 3

output="" input="" key_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) output=$2; key_args+=("-o"); shift 2; continue ;;
    -*) key_args+=("$1") ;;
    *) [ -n "$input" ] && { echo "iree_compile_cached: two inputs: $input, $1" >&2; exit 2; }
       input=$1; key_args+=("<input>") ;;
  esac
  shift
done
if [ -z "$output" ] || [ -z "$input" ]; then
  echo "iree_compile_cached: need one input and -o <output>" >&2
  exit 2
fi

# The original command line: the input where it stood, the output after -o.
cmd=()
for a in "${key_args[@]}"; do
  case "$a" in
    "<input>") cmd+=("$input") ;;
    -o) cmd+=(-o "$output") ;;
    *) cmd+=("$a") ;;
  esac
done
[ -z "$cache_dir" ] && exec "$compiler" "${cmd[@]}"

# Code compiled for the host CPU (--iree-llvmcpu-target-cpu=host) depends on the machine too.
host=""
case " ${key_args[*]} " in
  *=host\ *) host=$(grep -m2 -E '^(model name|flags)' /proc/cpuinfo 2>/dev/null || uname -m) ;;
esac
key=$( { printf '%s\n' "$compiler_id" "$host" "${key_args[@]}"; sha256sum <"$input"; } | sha256sum)
key=${key%% *}
entry="$cache_dir/${key:0:2}/$key"
if [ -f "$entry" ]; then
  cp "$entry" "$output.tmp.$$" && mv -f "$output.tmp.$$" "$output"
  exit 0
fi

"$compiler" "${cmd[@]}"
# Publish atomically: a concurrent build never sees a partial entry.
mkdir -p "${entry%/*}"
cp "$output" "$entry.tmp.$$" && mv -f "$entry.tmp.$$" "$entry"
