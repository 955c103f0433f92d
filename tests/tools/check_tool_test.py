#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs iree-rt-check and checks its exit code and output.

usage: check_tool_test.py IREE_RT_CHECK --rc=N [--lines PATTERN...] [--stderr PATTERN] -- FLAGS...

--lines: stdout must contain lines matching the patterns (fnmatch, so `*` is a wildcard; `[` is
literal), in this order, other lines may come between. --stderr: stderr must match the pattern.
"""
import fnmatch
import subprocess
import sys


def matches(pattern, text):
    return fnmatch.fnmatchcase(text, pattern.replace("[", "[[]"))


def main():
    argv = sys.argv[1:]
    tool, split = argv[0], argv.index("--")
    options, flags = argv[1:split], argv[split + 1:]
    rc, lines, stderr_pattern, mode = None, [], None, None
    for option in options:
        if option.startswith("--rc="):
            rc = int(option[len("--rc="):])
        elif option in ("--lines", "--stderr"):
            mode = option
        elif mode == "--lines":
            lines.append(option)
        elif mode == "--stderr":
            stderr_pattern = option
    run = subprocess.run([tool] + flags, capture_output=True, text=True, timeout=300)
    print("rc=%d\n--- stdout\n%s--- stderr\n%s" % (run.returncode, run.stdout, run.stderr))
    if run.returncode != rc:
        print("FAIL: expected exit code %d" % rc)
        return 1
    if run.returncode < 0:
        print("FAIL: crashed")
        return 1
    out = run.stdout.splitlines()
    position = 0
    for pattern in lines:
        while position < len(out) and not matches(pattern, out[position]):
            position += 1
        if position == len(out):
            print("FAIL: no line matching %r (in order)" % pattern)
            return 1
        position += 1
    if stderr_pattern and not matches(stderr_pattern, run.stderr.strip()):
        print("FAIL: stderr does not match %r" % stderr_pattern)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
