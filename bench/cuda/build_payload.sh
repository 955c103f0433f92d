#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the cuda driver's tests, tools and test programs in build-cuda and assembles the
# payload that scripts/cuda_device_test.sh runs on a GPU machine (.gpu/cuda, ~10 MiB):
#   bench/cuda/build_payload.sh            then run with carry [".gpu"]:
#   OUT=$OUT bash scripts/cuda_device_test.sh .gpu/cuda cts,driver,e2e,memcheck,bench
# and the issue-5 benchmarks (needs .gpu/iree-benchmark-module from the iree-base-runtime wheel):
#   OUT=$OUT bash bench/cuda/run_bench.sh .gpu/cuda
set -euo pipefail
cd "$(dirname "$0")/../.."
B=build-cuda
P=.gpu/cuda
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
[[ -f $B/build.ninja ]] || cmake -G Ninja -S . -B $B -DIREE_RT_DRIVER_CUDA=ON \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache
ninja -C $B -j2 rt_conformance_cuda rt_conformance_cuda_queue rt_cuda_driver_test cuda_executable_test \
  iree-rt-check iree-rt-benchmark iree-rt-run iree-rt-load-bandwidth e2e_modules_cuda
rm -rf $P
mkdir -p $P/bin $P/testdata $P/e2e $P/runs $P/bench
for b in rt_conformance_cuda rt_conformance_cuda_queue rt_cuda_driver_test cuda_executable_test iree-rt-check \
    iree-rt-benchmark iree-rt-run iree-rt-load-bandwidth; do
  objcopy --strip-debug $B/bin/$b $P/bin/$b  # symbols stay, for backtraces of hangs
done
# iree-rt-benchmark links the system's Google Benchmark dynamically; the GPU machine has none.
mkdir -p $P/lib
for lib in $(ldd $B/bin/iree-rt-benchmark | awk '/libbenchmark/ {print $3}'); do cp -L "$lib" $P/lib/; done
cp $B/tests/testdata/executables/rt_exe_*_cuda.bin $P/testdata/
cp $B/tests/e2e/e2e_*_cuda.vmfb $P/e2e/
cp $B/tests/testdata/onnx/onnx_*_cuda.vmfb $P/runs/  # run by iree-rt-run, not iree-rt-check
COMPILER=build/venv/bin/iree-compile
PYTHON=build/venv/bin/python  # has numpy, for gen_models.py
GEN=$B/bench/cuda
mkdir -p $GEN
$PYTHON bench/models/gen_models.py $GEN
$PYTHON bench/cuda/gen_chain.py $GEN/chain.mlir 100
for model in bench/models/add.mlir bench/cuda/matmul_4096.mlir $GEN/mlp.mlir $GEN/cnn.mlir \
    bench/cuda/upload_check.mlir; do
  name=$(basename "$model" .mlir)
  $COMPILER --iree-hal-target-device=cuda --iree-cuda-target=sm_80 "$model" -o $P/bench/$name.vmfb
done
# The dispatch-bound module, and its one kernel's PTX for raw_graph (the same bytes the program
# carries: --iree-hal-dump-executable-binaries-to writes what is embedded).
rm -rf $GEN/chain_binaries
$COMPILER --iree-hal-target-device=cuda --iree-cuda-target=sm_80 $GEN/chain.mlir \
  --iree-hal-dump-executable-binaries-to=$GEN/chain_binaries -o $P/bench/chain.vmfb
cp $GEN/chain_binaries/*.ptx $P/bench/chain.ptx
$PYTHON -c "import numpy, sys; numpy.save(sys.argv[1], numpy.arange(4096, dtype=numpy.float32))" \
  $P/bench/ramp.npy  # upload_check's .npy input
# The model zoo for cuda (tests/models/zoo.py) with the weights as the first argument: the
# programs stay small, and the GPU machine draws the weights from each .weights.json with numpy
# (tests/models/zoo_weights.py). Skipped without the zoo's packages in build/venv.
if KERAS_BACKEND=jax $PYTHON -c "import jax, keras, transformers, flax" 2>/dev/null; then
  mkdir -p $P/zoo $GEN/zoo
  for model in $($PYTHON tests/models/zoo.py list); do
    $PYTHON tests/models/zoo.py export $model $GEN/zoo --weights arg
    $COMPILER --iree-input-type=stablehlo --iree-hal-target-device=cuda --iree-cuda-target=sm_80 \
      $GEN/zoo/$model.mlir -o $P/zoo/$model.cuda.vmfb
    cp $GEN/zoo/$model.input*.npy $GEN/zoo/$model.expected.npy $GEN/zoo/$model.weights.json $P/zoo/
    # The dispatches one call records, from IREE's own disassembly, for the trace checks: the zoo's
    # programs are straight-line, and each command buffer runs once per call.
    build/venv/bin/iree-dump-module $P/zoo/$model.cuda.vmfb |
      grep -c "vm.call.variadic @hal.command_buffer.dispatch" > $P/zoo/$model.dispatches || true
  done
  # GPT-2 with external weights (--weights params: scope "model", keys p<i>); the GPU machine
  # writes them as model.safetensors from the same spec (zoo_weights.py), as the archive is 475 MiB.
  mkdir -p $P/zoo_params $GEN/zoo_params
  $PYTHON tests/models/zoo.py export gpt2 $GEN/zoo_params --weights params
  $COMPILER --iree-input-type=stablehlo --iree-hal-target-device=cuda --iree-cuda-target=sm_80 \
    $GEN/zoo_params/gpt2.mlir -o $P/zoo_params/gpt2.params.cuda.vmfb
  cp $GEN/zoo_params/gpt2.input*.npy $GEN/zoo_params/gpt2.expected.npy $GEN/zoo_params/gpt2.weights.json \
    $P/zoo_params/
else
  echo "build_payload: no model zoo (its packages are not in build/venv: scripts/setup.sh)"
fi
# A program with external weights (io_parameters) and its archives, for the params section.
mkdir -p $P/params
$COMPILER --iree-hal-target-device=cuda --iree-cuda-target=sm_80 \
  tests/unit/modules/programs/parameters.mlir -o $P/params/parameters.cuda.vmfb
$PYTHON tests/tools/parameters/gen_archives.py $P/params > /dev/null
# Bench-only raw driver-API harness: links libcuda (the stub at build time, libcuda.so.1 there).
CUDA_ROOT=${CUDA_ROOT:-/usr/local/cuda}
g++ -O2 -std=c++20 -I$CUDA_ROOT/include bench/cuda/raw_graph.cc -o $P/bin/raw_graph \
  -L$CUDA_ROOT/lib64/stubs -L$CUDA_ROOT/lib/stubs -lcuda
du -sh $P
