#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds what the collectives need on a multi-GPU machine into .gpu/coll (a few MiB): the SPMD
# test (tests/collectives) with its programs compiled for cuda (sm_80), iree-rt-run, and the
# all-reduce bandwidth benchmark. Then, with carry [".gpu/coll"] on nvidia-h100-x2 or -x4:
#   NCCL_NVLS_ENABLE=0 bash bench/collectives/run_gpu.sh .gpu/coll
set -euo pipefail
cd "$(dirname "$0")/../.."
B=build-cuda
P=.gpu/coll
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
[[ -f $B/build.ninja ]] || cmake -G Ninja -S . -B $B -DIREE_RT_DRIVER_CUDA=ON \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache
targets="collectives_test iree-rt-run"
grep -q 'build bin/iree-rt-allreduce-bandwidth:' $B/build.ninja && targets="$targets iree-rt-allreduce-bandwidth"
targets="$targets iree-rt-tp-mlp"
ninja -C $B -j2 $targets
rm -rf $P
mkdir -p $P/bin $P/programs
for b in $targets; do objcopy --strip-debug $B/bin/$b $P/bin/$b; done
mkdir -p $P/lib
objcopy --strip-debug $B/lib/libiree_rt.so.1 $P/lib/libiree_rt.so.1  # the C ABI test links it
COMPILER=build/venv/bin/iree-compile
for ranks in 2 4; do
  $COMPILER --iree-input-type=auto --iree-hal-target-device=cuda --iree-cuda-target=sm_80 \
    $B/tests/collectives/spmd$ranks.mlir -o $P/programs/collectives_spmd$ranks.vmfb
done
# A program for 2 GPUs of one process (transfers between them), and the text it must print: IREE's
# own runtime on the same program compiled for 2 CPU devices.
$COMPILER --iree-execution-model=async-external --iree-hal-target-device=device_0=cuda[0] \
  --iree-hal-target-device=device_1=cuda[1] --iree-cuda-target=sm_80 \
  tests/collectives/programs/multi_device2.mlir -o $P/programs/multi_device2.cuda.vmfb
$COMPILER --iree-execution-model=async-external --iree-hal-target-device=device_0=local[0] \
  --iree-hal-target-device=device_1=local[1] --iree-hal-local-target-device-backends=llvm-cpu \
  --iree-llvmcpu-target-cpu=generic tests/collectives/programs/multi_device2.mlir -o $B/multi_device2.cpu.vmfb
A="--input=8x16xf32=$(python3 -c "print(' '.join(str((i*7+j*3)%11-5) for i in range(8) for j in range(16)))")"
Bm="--input=16x4xf32=$(python3 -c "print(' '.join(str((i*5+j)%7-3) for i in range(16) for j in range(4)))")"
printf '%s\n%s\n' "$A" "$Bm" > $P/programs/multi_device2.inputs
build/venv/bin/iree-run-module --module=$B/multi_device2.cpu.vmfb --device=local-task --device=local-task \
  --function=sharded_matmul "$A" "$Bm" > $P/programs/multi_device2.expected
# The tensor-parallel MLP on 1, 2 and 4 GPUs (weights made on the GPU machine as fills).
build/venv/bin/python bench/collectives/gen_tp_mlp.py $B/bench/collectives 1 2 4
for ranks in 1 2 4; do
  $COMPILER --iree-input-type=auto --iree-hal-target-device=cuda --iree-cuda-target=sm_80 \
    $B/bench/collectives/tp_mlp$ranks.mlir -o $P/programs/tp_mlp$ranks.vmfb
done
du -sh $P
