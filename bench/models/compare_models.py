#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Real models, ours against IREE 3.13.0's runtime on the same .vmfb and input: same bytes?
error against the framework's own output; ms per call as the median of paired alternating runs.

  compare_models.py --models DIR --ours BIN_DIR --iree BIN_DIR --device SPEC [--device ...]
                    [--only NAME ...] [--pairs 7] [--min-time 0.5] [--out FILE]

DIR holds models in either layout:
  - the zoo's (tests/models/zoo.py): <name>.vmfb (llvm-cpu) or <name>.<target>.vmfb,
    <name>.input0.npy ..., <name>.expected.npy; a <name>.weights.npy (zoo_weights.py, for programs
    exported with --weights=arg) is passed as the first argument; function `main`;
  - tests/models/export_torchvision.py's: <name>.<target>.vmfb, <name>.input.npy,
    <name>.torch.npy; function `main_graph`.
A SPEC is "<target>|<our device URI>|<IREE's flags>", e.g.
  "cuda|cuda://0?command_buffer_mode=graph|--device=cuda --cuda_use_streams=false"
  "llvm-cpu|local-task|--device=local-task"
BIN_DIRs hold iree-rt-run / iree-rt-benchmark and iree-run-module / iree-benchmark-module.

When a model ran on local-sync and local-task, the summary also gives local-task's floor: our
local-sync time (one thread running every kernel back to back, so nearly all kernel time) over
the cores; "kernel share" is that floor over our local-task time, the share of the workers' time
that went to kernels (1.0: nothing but kernels; the rest is waiting and scheduling).
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np


def run(cmd, timeout=900):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout + proc.stderr


def per_call_ms(log):
    """The real time of the first BM_ line, in milliseconds."""
    for line in log.splitlines():
        if line.startswith("BM_"):
            parts = line.split()
            value, unit = float(parts[1]), parts[2]
            return value * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[unit]
    return None


def find_models(directory, target):
    """(name, vmfb, [input files], reference file, function) for each model of |target|."""
    found = {}
    patterns = [f"*.{target}.vmfb"] + (["*.vmfb"] if target == "llvm-cpu" else [])
    for pattern in patterns:
        for vmfb in sorted(glob.glob(os.path.join(directory, pattern))):
            stem = os.path.basename(vmfb)[:-len(".vmfb")]
            name = stem[:-len(f".{target}")] if stem.endswith(f".{target}") else stem
            if "." in name or name in found:
                continue  # another target's file, or already found under its target name
            prefix = os.path.join(directory, name)
            if os.path.exists(prefix + ".torch.npy"):
                found[name] = (vmfb, [prefix + ".input.npy"], prefix + ".torch.npy", "main_graph")
                continue
            inputs = sorted(glob.glob(glob.escape(prefix) + ".input*.npy"))
            if os.path.exists(prefix + ".weights.npy"):
                inputs = [prefix + ".weights.npy"] + inputs
            found[name] = (vmfb, inputs, prefix + ".expected.npy", "main")
    return [(name, *found[name]) for name in sorted(found)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", required=True)
    parser.add_argument("--ours", required=True)
    parser.add_argument("--iree", required=True)
    parser.add_argument("--device", action="append", required=True)
    parser.add_argument("--only", action="append", default=[], help="a model name to run")
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--min-time", type=float, default=0.5)
    parser.add_argument("--out")
    args = parser.parse_args()

    lines = []

    def say(text):
        print(text, flush=True)
        lines.append(text)

    tmp = tempfile.mkdtemp()
    failures = 0
    medians = {}  # (name, our uri) -> (ours ms, IREE ms, ratio)
    for spec in args.device:
        target, our_uri, iree_flags = spec.split("|")
        iree_flags = iree_flags.split()
        for name, vmfb, inputs, reference_file, function in find_models(args.models, target):
            if args.only and name not in args.only:
                continue
            reference = np.load(reference_file)
            ours_out, iree_out = os.path.join(tmp, "ours.npy"), os.path.join(tmp, "iree.npy")
            common = [f"--module={vmfb}", f"--function={function}"] + [f"--input=@{x}" for x in inputs]
            rc1, log1 = run([os.path.join(args.ours, "iree-rt-run"), f"--device={our_uri}", *common,
                             f"--output=@{ours_out}"])
            rc2, log2 = run([os.path.join(args.iree, "iree-run-module"), *iree_flags, *common,
                             f"--output=@{iree_out}"])
            if rc1 != 0 or rc2 != 0:
                failures += rc1 != 0
                say(f"{name} {our_uri}: ours rc={rc1} IREE rc={rc2}\n  ours: {log1.strip()[-600:]}\n"
                    f"  IREE: {log2.strip()[-600:]}")
                continue
            ours, theirs = np.load(ours_out), np.load(iree_out)
            same = ours.dtype == theirs.dtype and ours.shape == theirs.shape and ours.tobytes() == theirs.tobytes()
            err = float(np.max(np.abs(ours.astype(np.float64) - reference.astype(np.float64))))
            scale = float(np.max(np.abs(reference))) or 1.0
            # Paired alternating runs: each pair times ours, then IREE's, back to back.
            ratios, ours_ms, iree_ms, b1, b2 = [], [], [], "", ""
            for _ in range(args.pairs):
                _, b1 = run([os.path.join(args.ours, "iree-rt-benchmark"), f"--device={our_uri}", *common,
                             f"--benchmark_min_time={args.min_time}"])
                _, b2 = run([os.path.join(args.iree, "iree-benchmark-module"), *iree_flags, *common,
                             f"--benchmark_min_time={args.min_time}s"])
                t1, t2 = per_call_ms(b1), per_call_ms(b2)
                if t1 and t2:
                    ours_ms.append(t1)
                    iree_ms.append(t2)
                    ratios.append(t1 / t2)
            if ratios:
                medians[(name, our_uri)] = (statistics.median(ours_ms), statistics.median(iree_ms),
                                            statistics.median(ratios))
                timing = (f"ours {statistics.median(ours_ms):.3f} ms, IREE {statistics.median(iree_ms):.3f} ms, "
                          f"ratio {statistics.median(ratios):.3f} (median of {len(ratios)} pairs)")
            else:
                timing = "timing failed:\n" + b1[-400:] + "\n" + b2[-400:]
            failures += not same
            say(f"{name} {our_uri}: bytes equal to IREE: {'yes' if same else 'NO'}; "
                f"max |ours - framework| / max |framework| {err / scale:.3g}; {timing}")

    cores = os.cpu_count() or 1
    names = sorted({name for name, _ in medians})
    if any((n, "local-task") in medians for n in names):
        say(f"\nsummary ({cores} cores): ratio = ours/IREE, median of pairs; goals local-sync <= 1.0, "
            f"local-task <= 0.9")
        say(f"{'model':20} {'sync ratio':>10} {'task ratio':>10} {'task ms':>9} {'floor ms':>9} "
            f"{'kernel share':>12}")
        for n in names:
            sync, task = medians.get((n, "local-sync")), medians.get((n, "local-task"))
            floor = sync[0] / cores if sync else None
            say(f"{n:20} {sync[2] if sync else float('nan'):10.3f} "
                f"{task[2] if task else float('nan'):10.3f} {task[0] if task else float('nan'):9.3f} "
                f"{floor if floor else float('nan'):9.3f} "
                f"{floor / task[0] if floor and task else float('nan'):12.2f}")
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
