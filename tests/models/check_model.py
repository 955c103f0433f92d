#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs one compiled zoo model under IREE's runtime and ours on the same inputs and checks that
both return the same bytes (where IREE's own two runs agree with each other) and that ours agrees
with the framework's output within a tolerance.

  check_model.py --ours IREE_RT_RUN --theirs IREE_RUN_MODULE --model PREFIX --device D
                 [--tolerance T] [--flag F ...] [--ours-flag F ...] [--theirs-flag F ...]
                 [--work DIR]

PREFIX names the files zoo.py writes: PREFIX.vmfb, PREFIX.input0.npy ..., PREFIX.expected.npy;
a PREFIX.weights.npy (zoo_weights.py, for a program exported with --weights=arg) is passed first.

Error against the framework: max |ours - expected| / max |expected| (relative to the output's
scale, so a logit vector in the hundreds and an activation near 1 are judged alike).
Prints one line: model, device, bytes equal?, error, IREE-deterministic?; exits non-zero on a
failure and says which check failed.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np


def run(binary, module, device, inputs, output, extra=()):
    cmd = [binary, f"--device={device}", f"--module={module}", f"--output=@{output}", *extra]
    cmd += [f"--input=@{x}" for x in inputs]
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"FAILED: {os.path.basename(binary)} exited {proc.returncode}: "
                 f"{proc.stderr.strip()[-2000:]}\ncommand: {' '.join(cmd)}")
    return np.load(output)


def relative_error(actual, expected):
    if actual.shape != expected.shape:
        return float("inf")
    scale = float(np.max(np.abs(expected.astype(np.float64)))) or 1.0
    diff = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
    return float(np.max(diff)) / scale if diff.size else 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ours", required=True)
    parser.add_argument("--theirs", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--module", help="the .vmfb when it is not PREFIX.vmfb")
    parser.add_argument("--device", required=True)
    parser.add_argument("--tolerance", type=float, default=1e-3)
    parser.add_argument("--ours-device", help="our device URI when it differs from --device "
                        "(e.g. cuda://0?command_buffer_mode=stream)")
    parser.add_argument("--flag", action="append", default=[],
                        help="a flag for both runners (e.g. --parameters=model=M.irpa)")
    parser.add_argument("--ours-flag", action="append", default=[],
                        help="a flag for our runner only (e.g. --module_mode=preload)")
    parser.add_argument("--theirs-flag", action="append", default=[],
                        help="a flag for IREE's runner only (e.g. --cuda_use_streams=true)")
    parser.add_argument("--work", default=None)
    args = parser.parse_args()

    name = os.path.basename(args.model)
    module = args.module or args.model + ".vmfb"
    inputs = sorted(glob.glob(glob.escape(args.model) + ".input*.npy"))
    if os.path.exists(args.model + ".weights.npy"):
        inputs.insert(0, args.model + ".weights.npy")
    if not os.path.exists(module) or not inputs:
        sys.exit(f"FAILED: no {module} or no {args.model}.input*.npy (run zoo.py prepare)")
    with tempfile.TemporaryDirectory(dir=args.work) as work:
        ours = run(args.ours, module, args.ours_device or args.device, inputs,
                   os.path.join(work, "ours.npy"), args.flag + args.ours_flag)
        theirs = run(args.theirs, module, args.device, inputs, os.path.join(work, "theirs1.npy"),
                     args.flag + args.theirs_flag)
        theirs2 = run(args.theirs, module, args.device, inputs, os.path.join(work, "theirs2.npy"),
                      args.flag + args.theirs_flag)
    expected = np.load(args.model + ".expected.npy")
    deterministic = theirs.tobytes() == theirs2.tobytes()
    same = ours.dtype == theirs.dtype and ours.shape == theirs.shape and \
        ours.tobytes() == theirs.tobytes()
    error = relative_error(ours, expected)
    error_theirs = relative_error(theirs, expected)
    print(f"{name} {args.ours_device or args.device}: bytes equal to IREE: {'yes' if same else 'NO'}; "
          f"IREE deterministic: {'yes' if deterministic else 'no'}; error vs framework: ours "
          f"{error:.3g}, IREE {error_theirs:.3g} (tolerance {args.tolerance:g}); output "
          f"{ours.shape} {ours.dtype}")
    failures = []
    if not same and deterministic:
        worst = relative_error(ours, theirs)
        failures.append(f"ours differs from IREE's output (IREE's runs agree); relative "
                        f"difference {worst:.3g}")
    if not np.isfinite(error) or error > args.tolerance:
        failures.append(f"ours is {error:.3g} from the framework's output, over {args.tolerance:g}")
        if not np.isfinite(error_theirs) or error_theirs > args.tolerance:
            failures.append(f"so is IREE's runtime ({error_theirs:.3g}): the program itself "
                            f"is wrong (compiler), not only our run of it")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))


if __name__ == "__main__":
    main()
