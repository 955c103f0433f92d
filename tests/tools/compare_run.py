#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs iree-rt-run and IREE's iree-run-module with the same flags and compares them.

usage: compare_run.py IREE_RT_RUN IREE_RUN_MODULE [--expect-fail] [--same-stdout] [--npy=PATH]
                      -- FLAGS...

Passes when both exit with the same success/failure and, on success, print the same stdout.
On failure only the exit codes are compared (error texts differ by design) and our stderr must
be non-empty, unless --same-stdout: then stdout must match on failure too (the --expected_output
mismatch reports), and the error texts on stderr may both be empty. Prints a skip notice (which ctest reports as skipped) when iree-run-module is
missing.
--npy=PATH first writes two arrays to PATH (2x3 float32 0..5, then 4 int32 -2..1) with numpy.
"""
import os
import subprocess
import sys


def main():
    argv = sys.argv[1:]
    ours, theirs = argv[0], argv[1]
    split = argv.index("--")
    expect_fail = "--expect-fail" in argv[2:split]
    same_stdout = "--same-stdout" in argv[2:split]
    flags = argv[split + 1:]
    for option in argv[2:split]:
        if option.startswith("--npy="):
            import numpy as np
            with open(option[len("--npy="):], "wb") as f:
                np.save(f, np.arange(6, dtype=np.float32).reshape(2, 3))
                np.save(f, np.arange(-2, 2, dtype=np.int32))
    if not os.path.exists(theirs):
        print(f"SKIPPED: {theirs} is not installed (scripts/setup.sh installs iree-base-runtime)")
        return 0
    a = subprocess.run([ours] + flags, capture_output=True, text=True, timeout=120)
    b = subprocess.run([theirs] + flags, capture_output=True, text=True, timeout=120)
    print("iree-rt-run rc=%d\n%s%s" % (a.returncode, a.stdout, a.stderr))
    print("iree-run-module rc=%d\n%s%s" % (b.returncode, b.stdout, b.stderr))
    if (a.returncode == 0) != (b.returncode == 0):
        print("FAIL: exit codes disagree")
        return 1
    if expect_fail != (a.returncode != 0):
        print("FAIL: expected %s" % ("failure" if expect_fail else "success"))
        return 1
    if (a.returncode == 0 or same_stdout) and a.stdout != b.stdout:
        print("FAIL: stdout differs")
        return 1
    if a.returncode != 0 and not same_stdout and not a.stderr.strip():
        print("FAIL: iree-rt-run failed without an error message")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
