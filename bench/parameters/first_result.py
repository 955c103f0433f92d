#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Time to first result of a program whose weights live in a parameter archive: ours
(iree-rt-run) against IREE's iree-run-module on the same .vmfb, archive and input, each in its
parameter modes, with the page cache warm and (when this process may drop it) cold. Also the raw
limit: reading the archive whole (cold: from disk; warm: a memcpy-speed read of cached pages).

  first_result.py --model PREFIX --ours BIN_DIR --iree BIN_DIR [--runs 5] [--device local-task]

PREFIX: the zoo's files (tests/models/zoo.py prepare --weights params): PREFIX.params.vmfb,
PREFIX.params.irpa, PREFIX.input*.npy. Prints one line per runtime, mode and cache state with the
median wall time of --runs process runs (process start, archive open, context creation with the
parameter loads, one call, exit), then ours/IREE for the best mode of each side.
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import time


def drop_caches():
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        return True
    except OSError:
        return False


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return elapsed


def read_whole(path):
    start = time.perf_counter()
    with open(path, "rb") as f:
        while f.read(64 << 20):
            pass
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--ours", required=True)
    parser.add_argument("--iree", required=True)
    parser.add_argument("--device", default="local-task")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vmfb", help="default PREFIX.params.vmfb")
    parser.add_argument("--archive", help="default PREFIX.params.irpa")
    args = parser.parse_args()

    vmfb = args.vmfb or args.model + ".params.vmfb"
    irpa = args.archive or args.model + ".params.irpa"
    inputs = [f"--input=@{x}" for x in sorted(glob.glob(glob.escape(args.model) + ".input*.npy"))]
    common = [f"--device={args.device}", f"--module={vmfb}", "--function=run",
              f"--parameters=model={irpa}"] + inputs
    sides = [("ours", os.path.join(args.ours, "iree-rt-run"), ["mmap", "preload", "file"]),
             ("IREE", os.path.join(args.iree, "iree-run-module"), ["file", "preload"])]
    can_drop = drop_caches()
    size = os.path.getsize(irpa)
    print(f"{os.path.basename(args.model)}: archive {size / 2**20:.0f} MiB, device {args.device}, "
          f"{args.runs} runs each, median wall seconds (process start to exit)")
    best = {}
    for cache in (["cold"] if can_drop else []) + ["warm"]:
        raw = []
        for _ in range(args.runs):
            if cache == "cold":
                drop_caches()
            raw.append(read_whole(irpa))
        print(f"  raw read of the archive, {cache}: {statistics.median(raw):.3f} s "
              f"({size / statistics.median(raw) / 2**30:.2f} GiB/s)")
        for name, binary, modes in sides:
            for mode in modes:
                times = []
                for _ in range(args.runs):
                    if cache == "cold":
                        drop_caches()
                    times.append(timed([binary, *common, f"--parameter_mode={mode}"]))
                t = statistics.median(times)
                best[(name, cache)] = min(best.get((name, cache), t), t)
                print(f"  {name:4} {mode:8} {cache}: {t:.3f} s")
        if (("ours", cache) in best) and (("IREE", cache) in best):
            print(f"  {cache}: ours/IREE (best mode of each) = "
                  f"{best[('ours', cache)] / best[('IREE', cache)]:.3f}")
    if not can_drop:
        print("  (no cold runs: this process may not write /proc/sys/vm/drop_caches)")


if __name__ == "__main__":
    main()
