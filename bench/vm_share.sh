#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The VM's share of a real model's host program: one run of a model of the zoo (tests/models;
# default MobileNetV3-small, many small dispatches) on local-sync under callgrind, in iree_rt
# (build/bin/iree-rt-run) and in IREE 3.13.0 (iree-run-module of iree-base-runtime, not its
# Python wrapper), same .vmfb and inputs. Callgrind's instruction counts (Ir) are exact, so the
# figures do not depend on other load on the machine. Prints, for each runtime, the Ir of the
# whole run, of the bytecode VM (ours: every function of iree_rt::vm::bytecode: loader,
# verifier, specializer, interpreter, frames, import calls; IREE's: every iree_vm_bytecode_*)
# and of the dispatch loop alone (ours: Execute; IREE's: iree_vm_bytecode_dispatch), then the
# ratios ours/IREE; writes them to bench/results/vm_share.txt.
#   usage: bench/vm_share.sh [MODEL=mobilenet_v3_small]
# The model is compiled for a generic x86-64 CPU (valgrind rejects AVX-512) into build/vm_share:
# from $VM_SHARE_MLIR when set (a zoo export, NAME.mlir), else exported and compiled by
# tests/models/zoo.py (needs the zoo's packages). Inputs: NAME.input*.npy from build/vm_share or
# IREE_RT_MODEL_DIR (default build/models, where the model tests keep them).
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=${1:-mobilenet_v3_small}
OUT=build/vm_share
DIR=${IREE_RT_MODEL_DIR:-build/models}
THEIRS=$(ls -d build/venv/lib/python3*/site-packages/iree/_runtime_libs)/iree-run-module
command -v valgrind >/dev/null || { echo "vm_share: valgrind is not installed" >&2; exit 1; }
FLAGS=(--iree-input-type=stablehlo --iree-hal-target-device=local
       --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=generic)
mkdir -p "$OUT"
if [ -n "${VM_SHARE_MLIR:-}" ]; then
  [ "$OUT/$MODEL.vmfb" -nt "$VM_SHARE_MLIR" ] ||
    build/venv/bin/iree-compile "${FLAGS[@]}" "$VM_SHARE_MLIR" -o "$OUT/$MODEL.vmfb"
elif [ ! -f "$OUT/$MODEL.vmfb" ]; then
  echo "vm_share: preparing $MODEL in $OUT (tests/models/zoo.py)"
  build/venv/bin/python tests/models/zoo.py prepare "$MODEL" "$OUT" --compiler build/venv/bin/iree-compile \
    "${FLAGS[@]/#/--flag=}"
fi
ls "$OUT/$MODEL".input*.npy >/dev/null 2>&1 || cp "$DIR/$MODEL".input*.npy "$OUT/"
cmake -S . -B build -G Ninja >/dev/null
cmake --build build --target iree-rt-run >/dev/null
inputs=()
for f in "$OUT/$MODEL".input*.npy; do inputs+=("--input=@$f"); done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# IREE's runtime waits on io_uring, which valgrind does not model: its runs get a shim that
# refuses io_uring (bench/no_io_uring.c), as a blocking security policy would.
cc -shared -fPIC -O1 -o "$OUT/no_io_uring.so" bench/no_io_uring.c -ldl

# profile NAME BINARY [PRELOAD]: callgrind one run; self Ir per function into $work/NAME.txt.
profile() {
  local name=$1 binary=$2 preload=${3:-}
  env ${preload:+LD_PRELOAD=$preload} valgrind --tool=callgrind --callgrind-out-file="$work/$name.out" "$binary" --device=local-sync \
    --module="$OUT/$MODEL.vmfb" "${inputs[@]}" >/dev/null 2>"$work/$name.log"
  callgrind_annotate --auto=no --threshold=100 --show-percs=no "$work/$name.out" 2>/dev/null |
    sed -n 's/^ *\([0-9,][0-9,]*\) *\(.*\)$/\1\t\2/p' | tr -d ',' >"$work/$name.txt"
}
# sum NAME REGEX: self Ir of the functions whose name matches.
sum() { awk -F'\t' -v re="$2" '$2 ~ re { s += $1 } END { printf "%d", s }' "$work/$1.txt"; }
total() { awk -F'\t' '$2 ~ /PROGRAM TOTALS/ { print $1 }' "$work/$1.txt"; }

profile ours build/bin/iree-rt-run
profile theirs "$THEIRS" "$PWD/$OUT/no_io_uring.so"
ours_total=$(total ours); theirs_total=$(total theirs)
ours_vm=$(sum ours 'iree_rt::vm::bytecode::'); theirs_vm=$(sum theirs 'iree_vm_bytecode_')
ours_loop=$(sum ours 'iree_rt::vm::bytecode::Execute\\('); theirs_loop=$(sum theirs 'iree_vm_bytecode_dispatch( |$)')
# Load time (archive parsing, verification, call-site decoding, specialization) apart from run
# time (the dispatch loop, import calls, frames).
ours_load=$(sum ours 'iree_rt::vm::bytecode::([A-Za-z]*Archive|ModuleImage|DecodeInstruction|DecodeCallSites|Specialize|Verify|[(]anonymous namespace[)]::(Function|Module)Verifier|BytecodeModule::(Load|Initialize|PrepareCallSites))')
theirs_load=$(sum theirs 'iree_vm_bytecode_([a-z_]*verify|archive|module_(create|initialize|parse|layout))')
ours_run=$((ours_vm - ours_load)); theirs_run=$((theirs_vm - theirs_load))
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
share() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f%%", 100 * a / b }'; }
mkdir -p bench/results
{
  echo "vm_share: $MODEL (llvm-cpu, generic x86-64) on local-sync, one run under callgrind (Ir, exact); $(nproc) cores," \
       "$(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg) (Ir does not depend on it), $(date -u +%Y-%m-%d)"
  echo "  iree_rt:     total $ours_total Ir; bytecode VM $ours_vm ($(share "$ours_vm" "$ours_total")); dispatch loop $ours_loop"
  echo "  IREE 3.13.0: total $theirs_total Ir; bytecode VM $theirs_vm ($(share "$theirs_vm" "$theirs_total")); dispatch loop $theirs_loop"
  echo "  iree_rt:     bytecode VM at load $ours_load, at run time $ours_run ($(share "$ours_run" "$ours_total") of the run)"
  echo "  IREE 3.13.0: bytecode VM at load $theirs_load, at run time $theirs_run ($(share "$theirs_run" "$theirs_total") of the run)"
  echo "  ratio ours/IREE: run-time VM $(ratio "$ours_run" "$theirs_run"), load-time VM $(ratio "$ours_load" "$theirs_load"), bytecode VM $(ratio "$ours_vm" "$theirs_vm"), dispatch loop $(ratio "$ours_loop" "$theirs_loop"), whole run $(ratio "$ours_total" "$theirs_total")"
} | tee bench/results/vm_share.txt
