#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds what bench/hal_bench.sh needs to run on another x86-64 machine that has neither the
# compiler nor a build (the GPU machine's idle 16-core host, say): our Release
# iree-rt-benchmark, IREE 3.13.0's iree-benchmark-module, and the CPU workloads compiled for
# each target CPU in CPUS (hal_bench.sh picks the one matching the host there).
#   bench/cpu/build_payload.sh [PAYLOAD_DIR=.gpu/cpu]
#   there: PAYLOAD=.gpu/cpu bash bench/hal_bench.sh REPS MIN_TIME
set -euo pipefail
cd "$(dirname "$0")/../.."
P=${1:-.gpu/cpu}
B=${BUILD_DIR:-build-bench}
CPUS=${CPUS:-sapphirerapids icelake-server znver4 znver3 x86-64-v3}
./scripts/setup.sh >/dev/null
if ! build/venv/bin/python -c 'import importlib.metadata as m
assert m.version("iree-base-runtime") == "3.13.0"' 2>/dev/null; then
  build/venv/bin/pip install -q --disable-pip-version-check "iree-base-runtime==3.13.0"
fi
[[ -f $B/build.ninja ]] || cmake -G Ninja -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C $B -j"${JOBS:-2}" iree-rt-benchmark >/dev/null
rm -rf "$P"
mkdir -p "$P/bin" "$P/lib"
strip -o "$P/bin/iree-rt-benchmark" $B/bin/iree-rt-benchmark
# Google Benchmark comes from Debian here and is dynamic; the other machine may lack it.
for lib in $(ldd $B/bin/iree-rt-benchmark | awk '/libbenchmark/ {print $3}'); do cp -L "$lib" "$P/lib/"; done
cp "$(build/venv/bin/python -c 'import iree._runtime_libs as r, os; print(os.path.dirname(r.__file__))')/iree-benchmark-module" \
  "$P/bin/"
gen=$B/bench/payload_models
mkdir -p "$gen"
build/venv/bin/python bench/models/gen_models.py "$gen"
for cpu in $CPUS; do
  mkdir -p "$P/models/$cpu"
  for model in bench/models/add.mlir bench/models/matmul_1024.mlir "$gen/mlp.mlir" "$gen/cnn.mlir"; do
    name=$(basename "$model" .mlir)
    build/venv/bin/iree-compile --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu \
      --iree-llvmcpu-target-cpu="$cpu" "$model" -o "$P/models/$cpu/bench_$name.vmfb"
  done
done
du -sh "$P"
