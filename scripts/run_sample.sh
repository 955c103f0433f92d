#!/usr/bin/env bash
# The main job: builds iree_rt and runs the sample kernel (samples/c/saxpy.mlir, compiled by the
# pinned iree-compile) on the default CPU device (local-task) through the C ABI.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -G Ninja -S . -B build >/dev/null
ninja -C build iree-rt-sample sample_saxpy >/dev/null
./build/bin/iree-rt-sample build/samples/sample_saxpy.so "${1:-local-task}"
