#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What tracing costs: iree-rt-benchmark on real models with tracing off and on (--trace=FILE),
as paired alternating runs on the same machine; prints ms per call off and on and the median of
the pair ratios on/off (issue 24's goal with tracing on: <= 1.10 on MobileNetV3 and ResNet-50,
on local-task and cuda).

  trace_overhead.py --models DIR --ours BIN_DIR --device SPEC [--device ...] [--only NAME ...]
                    [--pairs 7] [--min-time 1.0] [--out FILE]

DIR, SPEC and BIN_DIR as for bench/models/compare_models.py ("<target>|<our device URI>|", IREE's
flags unused). Each trace is also loaded, to count its dispatch spans: a trace that silently lost
its device events would make tracing look free.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "models"))
from compare_models import find_models, per_call_ms, run  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", required=True)
    parser.add_argument("--ours", required=True)
    parser.add_argument("--device", action="append", required=True)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--min-time", type=float, default=1.0)
    parser.add_argument("--out")
    args = parser.parse_args()
    lines = []

    def say(text):
        print(text, flush=True)
        lines.append(text)

    tmp = tempfile.mkdtemp()
    trace = os.path.join(tmp, "trace.json")
    for spec in args.device:
        target, uri = spec.split("|")[:2]
        for name, vmfb, inputs, _, function in find_models(args.models, target):
            if args.only and name not in args.only:
                continue
            command = [os.path.join(args.ours, "iree-rt-benchmark"), f"--device={uri}", f"--module={vmfb}",
                       f"--function={function}", f"--benchmark_min_time={args.min_time}"]
            command += [f"--input=@{x}" for x in inputs]
            off, on, ratios, dispatches = [], [], [], []
            for _ in range(args.pairs):
                rc1, log1 = run(command)
                rc2, log2 = run(command + [f"--trace={trace}"])
                t1, t2 = per_call_ms(log1), per_call_ms(log2)
                if rc1 or rc2 or not t1 or not t2:
                    say(f"{name} {uri}: run failed\n  off: {log1.strip()[-400:]}\n  on: {log2.strip()[-400:]}")
                    break
                with open(trace, encoding="utf-8") as f:
                    events = json.load(f)["traceEvents"]
                dispatches.append(sum(1 for e in events if e.get("ph") == "X" and e.get("cat") == "dispatch"))
                off.append(t1)
                on.append(t2)
                ratios.append(t2 / t1)
            if ratios:
                say(f"{name} {uri}: off {statistics.median(off):.3f} ms, on {statistics.median(on):.3f} ms, "
                    f"on/off {statistics.median(ratios):.3f} (median of {len(ratios)} pairs; pair ratios "
                    f"{' '.join('%.3f' % r for r in ratios)}; {min(dispatches)}-{max(dispatches)} dispatch "
                    f"spans per trace)")
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
