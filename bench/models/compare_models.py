#!/usr/bin/env python3
"""Real models, ours against IREE 3.13.0's runtime on the same .vmfb and input: same bytes?
error against the framework's own output; ms per call as the median of paired alternating runs.

  compare_models.py --models DIR --ours BIN_DIR --iree BIN_DIR --device SPEC [--device ...]
                    [--pairs 7] [--min-time 0.5] [--out FILE]

DIR holds, per model, <name>.<target>.vmfb, <name>.input.npy and <name>.torch.npy (the
framework's output for that input; tests/models/export_torchvision.py writes both). A SPEC is
"<target>|<our device URI>|<IREE's flags>", e.g.
  "cuda|cuda://0?command_buffer_mode=graph|--device=cuda --cuda_use_streams=false"
  "llvm-cpu|local-task|--device=local-task"
BIN_DIRs hold iree-rt-run / iree-rt-benchmark and iree-run-module / iree-benchmark-module.
"""
import argparse
import glob
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np


def run(cmd, timeout=600):
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", required=True)
    parser.add_argument("--ours", required=True)
    parser.add_argument("--iree", required=True)
    parser.add_argument("--device", action="append", required=True)
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
    for spec in args.device:
        target, our_uri, iree_flags = spec.split("|")
        iree_flags = iree_flags.split()
        for vmfb in sorted(glob.glob(os.path.join(args.models, f"*.{target}.vmfb"))):
            name = os.path.basename(vmfb)[: -len(f".{target}.vmfb")]
            x = os.path.join(args.models, f"{name}.input.npy")
            reference = np.load(os.path.join(args.models, f"{name}.torch.npy"))
            ours_out, iree_out = os.path.join(tmp, "ours.npy"), os.path.join(tmp, "iree.npy")
            common = [f"--module={vmfb}", "--function=main_graph", f"--input=@{x}"]
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
                timing = (f"ours {statistics.median(ours_ms):.3f} ms, IREE {statistics.median(iree_ms):.3f} ms, "
                          f"ratio {statistics.median(ratios):.3f} (median of {len(ratios)} pairs)")
            else:
                timing = "timing failed:\n" + b1[-400:] + "\n" + b2[-400:]
            failures += not same
            say(f"{name} {our_uri}: bytes equal to IREE: {'yes' if same else 'NO'}; "
                f"max |ours - torch| {err:.3g} (torch max |y| {scale:.3g}); {timing}")
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
