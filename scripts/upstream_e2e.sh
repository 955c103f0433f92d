#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Differential run of upstream IREE's e2e suites against IREE's runtime: see upstream_e2e.py.
#   scripts/upstream_e2e.sh PATH/TO/iree/tests/e2e [--backends llvm-cpu,cuda,vmvx] [--only REGEX] ...
# Needs the regular build (build/bin/iree-rt-check) and build/venv (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n 3,5p "$0"; exit 2; }
exec build/venv/bin/python scripts/upstream_e2e.py "$@" --python build/venv/bin/python
