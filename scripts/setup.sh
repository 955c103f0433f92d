#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs what building and testing iree_rt needs, if missing: Debian packages, and the pinned
# upstream compiler (iree-base-compiler==3.13.0) in a virtualenv at build/venv, with IREE's own
# runtime tools (iree-base-runtime==3.13.0), which the differential tests and benchmarks compare
# against, and the model zoo's frameworks (tests/models/requirements.txt).
# Idempotent and quiet when everything is present.
set -euo pipefail
cd "$(dirname "$0")/.."

IREE_VERSION=3.13.0
APT_PACKAGES=(cmake ninja-build g++ clang python3 python3-venv python3-pip libgtest-dev libgmock-dev
              libbenchmark-dev binutils pkg-config flatbuffers-compiler libflatbuffers-dev ccache
              # Java and C# bindings (bindings/): SWIG generates both; JUnit 5 and Mono run their tests.
              swig openjdk-17-jdk-headless junit5 mono-mcs mono-runtime libmono-system-core4.0-cil
              # The C API reference (cmake/IreeRtDocs.cmake, ctest docs_c_api).
              doxygen)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
# Toolchains installed outside apt (e.g. a pyenv python) satisfy their package.
command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null &&
  missing=("${missing[@]/python3-venv}") && missing=("${missing[@]/python3-pip}") && missing=("${missing[@]/python3}")
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! build/venv/bin/iree-compile --version 2>/dev/null | grep -q "$IREE_VERSION"; then
  echo "setup: installing iree-base-compiler==$IREE_VERSION into build/venv"
  mkdir -p build
  python3 -m venv build/venv
  build/venv/bin/pip install -q --disable-pip-version-check "iree-base-compiler==$IREE_VERSION"
fi
if ! build/venv/bin/iree-run-module --help >/dev/null 2>&1; then
  echo "setup: installing iree-base-runtime==$IREE_VERSION into build/venv"
  build/venv/bin/pip install -q --disable-pip-version-check "iree-base-runtime==$IREE_VERSION"
fi
# The model zoo's frameworks (tests/models): JAX, Keras, Flax, transformers, at the pinned versions.
if ! build/venv/bin/python - tests/models/requirements.txt <<'PY' 2>/dev/null
import importlib.metadata as m, sys
pins = [l.split("==") for l in open(sys.argv[1]) if "==" in l and not l.startswith("#")]
sys.exit(any(m.version(n.strip()) != v.strip() for n, v in pins))
PY
then
  echo "setup: installing the model zoo's packages (tests/models/requirements.txt) into build/venv"
  build/venv/bin/pip install -q --disable-pip-version-check -r tests/models/requirements.txt
fi
# The parameter archive tests' writers (tests/parameters/requirements.txt: safetensors, gguf), pinned.
if ! build/venv/bin/python - tests/parameters/requirements.txt <<'PY' 2>/dev/null
import importlib.metadata as m, sys
pins = [l.split("==") for l in open(sys.argv[1]) if "==" in l and not l.startswith("#")]
sys.exit(any(m.version(n.strip()) != v.strip() for n, v in pins))
PY
then
  echo "setup: installing the parameter tests' packages (tests/parameters/requirements.txt) into build/venv"
  build/venv/bin/pip install -q --disable-pip-version-check -r tests/parameters/requirements.txt
fi
