#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs one function of a VMVX-compiled module under iree-rt-run and IREE's iree-run-module on
the same random inputs and requires byte-identical outputs.

usage: vmvx_compare.py IREE_RT_RUN IREE_RUN_MODULE WORKDIR --device=D --module=M --function=F
                       INPUT_TYPE...
INPUT_TYPE is a shape and element type such as 33x70xf32 or 17x40xi8; each input is filled with
seeded random values (floats in [-2, 2), integers over the type's range) and passed as .npy.
Prints a skip notice (reported by ctest as skipped) when iree-run-module or numpy is missing.
"""
import os
import subprocess
import sys


def main():
    ours, theirs, workdir = sys.argv[1:4]
    flags = [a for a in sys.argv[4:] if a.startswith("--")]
    types = [a for a in sys.argv[4:] if not a.startswith("--")]
    if not os.path.exists(theirs):
        print(f"SKIPPED: {theirs} is not installed (scripts/setup.sh installs iree-base-runtime)")
        return 0
    try:
        import numpy as np
    except ImportError:
        print("SKIPPED: numpy is not installed")
        return 0
    name = "_".join(f.split("=", 1)[1].replace("/", "_") for f in flags if "=" in f)
    os.makedirs(workdir, exist_ok=True)
    rng = np.random.default_rng(20)
    inputs = []
    for i, spec in enumerate(types):
        *dims, dtype = spec.split("x")
        shape = [int(d) for d in dims]
        if dtype.startswith("f"):
            data = rng.uniform(-2, 2, size=shape).astype(np.dtype(f"float{dtype[1:]}"))
        else:
            info = np.iinfo(np.dtype(f"int{dtype[1:]}"))
            data = rng.integers(info.min, info.max, size=shape, endpoint=True,
                                dtype=np.dtype(f"int{dtype[1:]}"))
        path = os.path.join(workdir, f"{name}_in{i}.npy")
        np.save(path, data)
        inputs.append(f"--input=@{path}")
    outputs = {}
    for tool, label in ((ours, "ours"), (theirs, "theirs")):
        out = os.path.join(workdir, f"{name}_{label}.npy")
        if os.path.exists(out):
            os.remove(out)
        run = subprocess.run([tool] + flags + inputs + [f"--output=@{out}"], capture_output=True,
                             text=True, timeout=300)
        print(f"{label} rc={run.returncode}\n{run.stdout}{run.stderr}")
        if run.returncode != 0:
            print(f"FAIL: {os.path.basename(tool)} failed")
            return 1
        with open(out, "rb") as f:
            outputs[label] = f.read()
    if outputs["ours"] != outputs["theirs"]:
        a = np.load(os.path.join(workdir, f"{name}_ours.npy"))
        b = np.load(os.path.join(workdir, f"{name}_theirs.npy"))
        print(f"FAIL: outputs differ ({np.count_nonzero(a != b)} of {a.size} elements)")
        return 1
    print(f"PASS: {len(outputs['ours'])} bytes identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
