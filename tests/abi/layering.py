#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Keeps the layers of src/ and tools/ by test (ctest abi_layering, label "abi").

Every `#include "..."` in src/ and tools/ is checked against LAYERS below, and every source file
against the line limits of LIMITS; layout_docs.py then checks that the maps (README.md,
docs/architecture.md, the drivers' READMEs) name only files that exist, every driver file, and the
same layer matrix. Run by hand: python3 tests/abi/layering.py [repository root].

How an include is read: a path relative to the including file's directory that exists there
(`#include "expected_outputs.h"`) stays inside its component and is always allowed; otherwise the
path is relative to src/ (`#include "hal/buffer.h"`), or names the public header `iree_rt.h`.
The component of a file is the longest prefix of LAYERS that its path (relative to src/, or
`tools/...`) starts with.
"""

import os
import re
import sys

import layout_docs

# The layers, bottom to top. Each component (a path prefix under src/, or tools/) lists the path
# prefixes it may include. Nothing may include a component above it.
#
#   base  <-  io, hal (incl. hal/utils)  <-  vm  <-  modules  <-  drivers  <-  session  <-  tooling, api
#                                                                                          tooling  <-  tools
#
# Modules sit below drivers because the CPU driver's VMVX loader runs VMVX executables through our
# VM with the vmvx module's microkernels (drivers/cpu/vmvx -> vm, modules/vmvx); no module includes
# a driver. Apart from that, drivers see only base and hal, and each driver only itself.
# `iree_rt.h` is the public C header (include/): the api implements it; tooling reads only its
# version macros (--version); no C++ layer below calls the C ABI.
LAYERS = {
    "base": ["base"],
    "io": ["base", "io"],
    "hal": ["base", "hal"],
    "vm": ["base", "vm"],
    "modules": ["base", "io", "hal", "vm", "modules"],
    # drivers/registration.h and the registration.cc.in CMake configures: one call per driver.
    "drivers": ["base", "hal", "drivers/registration.h", "drivers/cpu/registration.h",
                "drivers/cuda/registration.h"],
    "drivers/cpu": ["base", "hal", "drivers/cpu"],
    "drivers/cpu/vmvx": ["base", "hal", "drivers/cpu", "vm", "modules/vmvx"],
    "drivers/cuda": ["base", "hal", "drivers/cuda"],
    # What the C ABI and the tools share: the drivers an instance uses, devices from URIs, and the
    # VM instance with the HAL's types (the enabled drivers' registration is reached only here).
    "session": ["base", "hal", "vm", "modules/hal/ref_types.h", "drivers/registration.h", "session"],
    # The session every tool shares: modules, the VM and the session layer.
    "tooling": ["base", "io", "hal", "vm", "modules", "session", "tooling", "iree_rt.h"],
    "api": ["base", "io", "hal", "vm", "modules", "session", "api", "iree_rt.h"],
    "tools": ["base", "io", "hal", "vm", "modules", "tooling"],
}

# Line limits (house_style.md "One interface per header": soft 800, hard 1,500, the interpreter
# loop and generated files exempt). Every file under src/ and tools/ is held to DEFAULT_LIMIT; the
# files named in LIMITS to their own. The largest other file has 638 lines today.
DEFAULT_LIMIT = 800
LIMITS = {
    # The interpreter's dispatch loop: one switch over every opcode and over the specialized
    # opcodes of vm/bytecode/specializer.h, kept in one function so the compiler keeps the loop's
    # state in registers (1,631 lines today).
    "src/vm/bytecode/interpreter.cc": 1700,
}

SOURCE_SUFFIXES = (".h", ".cc", ".c", ".inc", ".def", ".mm", ".in")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


def component_of(rel):
    """The LAYERS key for a path relative to src/ (or starting with tools/), or None."""
    best = None
    for key in LAYERS:
        if rel == key or rel.startswith(key + "/"):
            if best is None or len(key) > len(best):
                best = key
    return best


def allowed(prefixes, target):
    return any(target == p or target.startswith(p + "/") for p in prefixes)


def check(root):
    errors = []
    files = 0
    for top in ("src", "tools"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                repo_rel = os.path.relpath(path, root).replace(os.sep, "/")
                rel = repo_rel[len("src/"):] if top == "src" else repo_rel
                files += 1
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()

                limit = LIMITS.get(repo_rel, DEFAULT_LIMIT)
                lines = text.count("\n")
                if lines > limit:
                    errors.append(f"{repo_rel}: {lines} lines, over the limit of {limit}")

                component = component_of(rel)
                if component is None:
                    errors.append(f"{repo_rel}: in no layer; add its directory to LAYERS")
                    continue
                for match in INCLUDE.finditer(text):
                    target = match.group(1)
                    line = text.count("\n", 0, match.start()) + 1
                    if os.path.exists(os.path.join(dirpath, target)):
                        continue  # next to the including file: same component
                    if not allowed(LAYERS[component], target):
                        errors.append(f'{repo_rel}:{line}: #include "{target}": {component} may '
                                      f"include only {', '.join(LAYERS[component])}")
    return files, errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    root = os.path.abspath(root)
    files, errors = check(root)
    docs, doc_errors = layout_docs.check(root, LAYERS)
    errors += doc_errors
    for error in errors:
        print(error)
    print(f"{files} files and {docs} maps checked, {len(errors)} problems")
    return 1 if errors or files == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
