#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The main job: builds iree_rt and runs a small model (samples/models/mlp.mlir, compiled by the
# pinned iree-compile at build time) on the default CPU device (local-task) through the C ABI,
# checking the result against the same network computed on the host.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -G Ninja -S . -B build >/dev/null
ninja -C build iree-rt-model-sample sample_mlp >/dev/null
./build/bin/iree-rt-model-sample build/samples/sample_mlp.vmfb "${1:-local-task}"
