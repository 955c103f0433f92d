#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Differential run of upstream IREE's e2e suites: ours against IREE's own runtime.

  upstream_e2e.py PATH [--work DIR] [--backends llvm-cpu,cuda,vmvx] [--only REGEX]
                       [--compile-only | --run-only] [--ours BIN_DIR] [--jobs N]

PATH is a checkout of upstream IREE's tests/e2e that the user provides (never copied into this
project). Every iree_check_single_backend_test_suite() of its CMakeLists.txt files whose
TARGET_BACKEND is one of --backends is compiled as that rule says (its COMPILER_FLAGS, for its
backend) by the pinned iree-compile into --work, then each program runs under IREE 3.13.0's
runtime (tests/e2e/iree_check.py: the wheel has no iree-check-module) and under ours
(iree-rt-check) on the suite's DRIVER; llvm-cpu and vmvx suites run on local-sync as well, cuda
suites in stream mode as well. Prints a pass table per suite and device, then every program IREE's
runtime passes and ours does not. Suites without a DRIVER (upstream's compilation-only ones) are
skipped.

--compile-only stops after compiling (for a GPU machine without the compiler: copy --work there
with this script and run --run-only). Exit code 1 when ours fails a program IREE's passes.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

BACKEND_FLAGS = {
    "llvm-cpu": ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
                 "--iree-llvmcpu-target-cpu=generic"],
    # iree-compile 3.13.0 has no sm_90 target; sm_80 PTX is JIT-compiled on Hopper.
    "cuda": ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"],
    # vmvx-bytecode-fb executables; the _ukernel/_microkernels suites add --iree-vmvx-enable-microkernels.
    "vmvx": ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=vmvx"],
}
# Flags upstream's build files spell as they were before 3.13.0 renamed them.
RENAMED_FLAGS = {"--iree-flow-topk-split-reduction": "--iree-dispatch-creation-topk-split-reduction"}


def parse_suites(root):
    """Yields dicts {dir, name, srcs, backend, driver, flags} from every CMakeLists.txt."""
    block_re = re.compile(r"iree_check_single_backend_test_suite\((.*?)\n\s*\)", re.S)
    for dirpath, _, files in os.walk(root):
        if "CMakeLists.txt" not in files:
            continue
        text = open(os.path.join(dirpath, "CMakeLists.txt"), encoding="utf-8").read()
        for block in block_re.findall(text):
            fields, key = {}, None
            for token in re.findall(r'"[^"]*"|\S+', block):
                if re.fullmatch(r"[A-Z_]+", token):
                    key = token
                    fields.setdefault(key, [])
                elif key:
                    fields[key].append(token.strip('"'))
            srcs = [s for s in fields.get("SRCS", []) if s.endswith(".mlir") and "${" not in s]
            if not srcs or not fields.get("TARGET_BACKEND") or not fields.get("DRIVER"):
                continue
            flags = []
            for flag in fields.get("COMPILER_FLAGS", []):
                name, eq, value = flag.partition("=")
                flags.append(RENAMED_FLAGS.get(name, name) + eq + value)
            yield {"dir": dirpath, "rel": os.path.relpath(dirpath, root), "name": fields["NAME"][0],
                   "srcs": srcs, "backend": fields["TARGET_BACKEND"][0],
                   "driver": fields["DRIVER"][0], "flags": flags}


def run(cmd, timeout):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {timeout} s"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path")
    p.add_argument("--work", default=os.path.join(ROOT, "build", "upstream_e2e"))
    p.add_argument("--backends", default="llvm-cpu,cuda")
    p.add_argument("--only", help="regex over '<dir>/<suite>/<file>'")
    p.add_argument("--compile-only", action="store_true")
    p.add_argument("--run-only", action="store_true")
    p.add_argument("--ours", default=os.path.join(ROOT, "build", "bin"))
    p.add_argument("--compiler", default=os.path.join(ROOT, "build", "venv", "bin", "iree-compile"))
    p.add_argument("--python", default=sys.executable, help="a python with iree.runtime (3.13.0)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--timeout", type=int, default=300)
    args = p.parse_args()

    backends = args.backends.split(",")
    suites = [s for s in parse_suites(os.path.abspath(args.path)) if s["backend"] in backends]
    cases = []  # (suite, src, vmfb)
    for suite in suites:
        for src in suite["srcs"]:
            key = f"{suite['rel']}/{suite['name']}/{src}"
            if args.only and not re.search(args.only, key):
                continue
            vmfb = os.path.join(args.work, suite["rel"], suite["name"], src.replace(".mlir", ".vmfb"))
            cases.append((suite, src, vmfb))
    if not cases:
        print(f"no suites for {backends} under {args.path}")
        return 1

    compiled = {}
    if not args.run_only:
        def compile_one(case):
            suite, src, vmfb = case
            os.makedirs(os.path.dirname(vmfb), exist_ok=True)
            cmd = [args.compiler, *BACKEND_FLAGS[suite["backend"]], *suite["flags"],
                   os.path.join(suite["dir"], src), "-o", vmfb]
            rc, log = run(cmd, args.timeout)
            return case, rc, log
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for case, rc, log in pool.map(compile_one, cases):
                compiled[case[2]] = rc == 0
                if rc:
                    errors = [line for line in log.splitlines() if "error:" in line] or [f"exit {rc}"]
                    print(f"not compiled: {case[0]['rel']}/{case[0]['name']}/{case[1]}: {errors[0].strip()}")
        if args.compile_only:
            print(f"compiled {sum(compiled.values())}/{len(cases)} programs into {args.work}")
            return 0
    else:
        compiled = {vmfb: os.path.exists(vmfb) for _, _, vmfb in cases}

    checker = os.path.join(ROOT, "tests", "e2e", "iree_check.py")
    if not os.path.exists(checker):
        checker = os.path.join(HERE, "iree_check.py")  # a copy beside this script on a GPU machine
    rows = {}  # (suite key, device) -> [programs, iree passes, ours passes, regressions]
    regressions = []

    def run_one(item):
        (suite, src, vmfb), device = item
        theirs = run([args.python, checker, f"--device={suite['driver']}", f"--module={vmfb}"], args.timeout)
        ours = run([os.path.join(args.ours, "iree-rt-check"), f"--device={device}", f"--module={vmfb}"],
                   args.timeout)
        return item, theirs, ours

    work = []
    for case in cases:
        if not compiled.get(case[2]):
            continue
        devices = [case[0]["driver"]]
        if case[0]["backend"] in ("llvm-cpu", "vmvx") and "local-sync" not in devices:
            devices.append("local-sync")
        if case[0]["backend"] == "cuda":  # graph command buffers (the driver's default) and streams
            devices.append("cuda://0?command_buffer_mode=stream")
        work += [(case, device) for device in devices]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for ((suite, src, vmfb), device), theirs, ours in pool.map(run_one, work):
            row = rows.setdefault((f"{suite['rel']}/{suite['name']}", device), [0, 0, 0, 0])
            row[0] += 1
            row[1] += theirs[0] == 0
            row[2] += ours[0] == 0
            if theirs[0] == 0 and ours[0] != 0:
                row[3] += 1
                regressions.append((f"{suite['rel']}/{suite['name']}/{src}", device, ours[1].strip()[-800:]))

    not_compiled = len(cases) - sum(1 for _, _, vmfb in cases if compiled.get(vmfb))
    print(f"\n{len(cases)} programs, {not_compiled} not compiled by iree-compile 3.13.0 (listed above)")
    print(f"{'suite':60} {'device':11} {'programs':>8} {'IREE':>5} {'ours':>5} {'ours fails, IREE passes':>24}")
    for (key, device), (n, theirs, ours, bad) in sorted(rows.items()):
        print(f"{key:60} {device:11} {n:8} {theirs:5} {ours:5} {bad:24}")
    totals = [sum(r[i] for r in rows.values()) for i in range(4)]
    print(f"{'total':60} {'':11} {totals[0]:8} {totals[1]:5} {totals[2]:5} {totals[3]:24}")
    for key, device, log in regressions:
        print(f"\nours fails, IREE passes: {key} on {device}\n{log}")
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
