#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Upstream IREE's collectives tests (tests/e2e/collectives/collectives_test.py) run by ours and by
IREE's runtime, as upstream's harness would run them, without its Python runtime bindings.

  upstream_collectives.py PATH/tests/e2e --work DIR [--backends cuda,llvm-cpu] [--compile-only | --run-only]
                          [--ours BIN_DIR] [--iree BIN_DIR] [--max-ranks N] [--only REGEX]

PATH is a checkout the user provides (never copied into this project). Each test method's program
(its `mlir`/`stablehlo_mlir` string), per-rank inputs and expected outputs are read from the file
(the assignments are evaluated with numpy; nothing else of the file runs), compiled by the pinned
iree-compile as upstream's harness does (input type STABLEHLO where the test says so, AUTO
otherwise) for each backend, and run with one process per rank:
  - under mpirun when it is on PATH (ranks from OMPI_COMM_WORLD_*, as upstream's run_rank.py), for
    ours (iree-rt-run --device=cuda or local-task) and IREE's iree-run-module (--device=cuda;
    IREE's CPU devices have no collective channels, so llvm-cpu runs ours only);
  - otherwise ours only, ranks given in the device URI and meeting through a rendezvous file.
Each rank's output is compared with upstream's expected output (numpy.allclose, rtol 1e-7, as
assert_allclose). Prints one row per test, backend and runtime; exit code 1 when ours fails a
test that IREE's runtime passes (or, without IREE's run, any test). Tests needing more ranks than
--max-ranks (default: the GPUs for cuda, 4 for llvm-cpu) are listed as not run.
--compile-only / --run-only split the work between a machine with the compiler and one with GPUs.
"""
import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from upstream_e2e import BACKEND_FLAGS  # noqa: E402


def read_tests(path):
    """[(class.method, mlir, input type, inputs, expected)] from upstream's test file."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    tests = []
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")):
            values, input_type = {}, "auto"
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    name = node.targets[0].id
                    if name in ("mlir", "stablehlo_mlir", "inputs", "expected_outputs"):
                        values[name] = eval(compile(ast.Expression(node.value), path, "eval"), {"np": np})
                if isinstance(node, ast.keyword) and node.arg == "mlir_input_type":
                    input_type = ast.unparse(node.value).rsplit(".", 1)[-1].lower()
            mlir = values.get("mlir", values.get("stablehlo_mlir"))
            if mlir is None or "inputs" not in values or "expected_outputs" not in values:
                continue
            tests.append((f"{cls.name}.{fn.name}", mlir, input_type, values["inputs"], values["expected_outputs"]))
    return tests


def run(cmd, timeout=180, env=None):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        return proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {timeout} s"


def run_ranks(tool, device, module, case_dir, ranks, tag, mpirun):
    """Runs every rank; returns (ok, message, [outputs])."""
    outputs = [os.path.join(case_dir, f"out_{tag}_{r}.npy") for r in range(ranks)]
    for out in outputs:
        if os.path.exists(out):
            os.remove(out)
    if mpirun:
        script = ('exec "$0" "$@" --input=@%s/in_${OMPI_COMM_WORLD_RANK}.npy '
                  '--output=@%s/out_%s_${OMPI_COMM_WORLD_RANK}.npy' % (case_dir, case_dir, tag))
        rc, log = run([mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(ranks), "-x", "LD_LIBRARY_PATH",
                       "-x", "NCCL_NVLS_ENABLE", "bash", "-c", script, tool, f"--device={device}",
                       f"--module={module}", "--function=main"])
    else:
        rendezvous = os.path.join(case_dir, f"rendezvous_{tag}")
        if os.path.exists(rendezvous):
            os.remove(rendezvous)
        procs = []
        for r in range(ranks):
            base = device if "://" in device else device + "://"
            uri = f"{base}{'&' if '?' in base else '?'}rank={r}&ranks={ranks}&rendezvous=file:{rendezvous}"
            procs.append(subprocess.Popen([tool, f"--device={uri}", f"--module={module}", "--function=main",
                                           f"--input=@{case_dir}/in_{r}.npy", f"--output=@{outputs[r]}"],
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        rc, log = 0, ""
        for proc in procs:
            try:
                out, _ = proc.communicate(timeout=180)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, _ = proc.communicate()
            rc = rc or proc.returncode
            log += out
    if rc != 0:
        return False, f"rc={rc}: {log.strip()[-300:]}", None
    return True, "", [np.load(out) for out in outputs]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path")
    p.add_argument("--work", required=True)
    p.add_argument("--backends", default="cuda,llvm-cpu")
    p.add_argument("--compile-only", action="store_true")
    p.add_argument("--run-only", action="store_true")
    p.add_argument("--ours", default=os.path.join(os.path.dirname(HERE), "build", "bin"))
    p.add_argument("--iree", default=os.path.join(os.path.dirname(HERE), "build", "venv", "bin"))
    p.add_argument("--compiler", default=os.path.join(os.path.dirname(HERE), "build", "venv", "bin", "iree-compile"))
    p.add_argument("--max-ranks", type=int)
    p.add_argument("--only")
    args = p.parse_args()
    backends = args.backends.split(",")
    manifest_path = os.path.join(args.work, "manifest.json")

    if not args.run_only:
        source = os.path.join(args.path, "collectives", "collectives_test.py")
        manifest = []
        for name, mlir, input_type, inputs, expected in read_tests(source):
            if args.only and not re.search(args.only, name):
                continue
            case_dir = os.path.join(args.work, name)
            os.makedirs(case_dir, exist_ok=True)
            with open(os.path.join(case_dir, "program.mlir"), "w", encoding="utf-8") as f:
                f.write(mlir)
            for r, rank_inputs in enumerate(inputs):
                np.save(os.path.join(case_dir, f"in_{r}.npy"), rank_inputs[0])
                np.save(os.path.join(case_dir, f"expected_{r}.npy"), expected[r][0])
            entry = {"name": name, "ranks": len(inputs), "compiled": {}}
            for backend in backends:
                module = os.path.join(case_dir, f"{backend}.vmfb")
                rc, log = run([args.compiler, f"--iree-input-type={input_type}", *BACKEND_FLAGS[backend],
                               os.path.join(case_dir, "program.mlir"), "-o", module], timeout=600)
                entry["compiled"][backend] = "" if rc == 0 else log.strip().splitlines()[0][:300] if log.strip() else f"rc={rc}"
            manifest.append(entry)
        with open(manifest_path, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=1)
        if args.compile_only:
            print(f"compiled {len(manifest)} tests into {args.work}")
            return 0

    manifest = json.load(open(manifest_path, encoding="utf-8"))
    mpirun = shutil.which("mpirun")
    gpus = 0
    if "cuda" in backends and shutil.which("nvidia-smi"):
        gpus = run(["nvidia-smi", "-L"])[1].count("GPU ")
    env_note = f"mpirun: {'yes' if mpirun else 'no (ours only, rendezvous file)'}; GPUs: {gpus}"
    print(f"upstream collectives_test.py, {len(manifest)} tests; {env_note}")
    print(f"{'test':58} {'ranks':>5} {'backend':9} {'ours':10} {'IREE':10}")
    regressions, ran = 0, 0
    for entry in manifest:
        name, ranks = entry["name"], entry["ranks"]
        case_dir = os.path.join(args.work, name)
        for backend in backends:
            error = entry["compiled"].get(backend)
            if error is None:
                continue
            if error:
                print(f"{name:58} {ranks:5} {backend:9} {'n/a':10} {'n/a':10} (does not compile: {error})")
                continue
            limit = args.max_ranks or (gpus if backend == "cuda" else 4)
            if ranks > limit:
                print(f"{name:58} {ranks:5} {backend:9} {'not run':10} {'not run':10} (needs {ranks} "
                      f"{'GPUs' if backend == 'cuda' else 'ranks'})")
                continue
            module = os.path.join(case_dir, f"{backend}.vmfb")
            expected = [np.load(os.path.join(case_dir, f"expected_{r}.npy")) for r in range(ranks)]
            verdicts, notes = {}, []
            runtimes = [("ours", os.path.join(args.ours, "iree-rt-run"), "cuda" if backend == "cuda" else "local-task")]
            if mpirun and backend == "cuda":
                runtimes.append(("IREE", os.path.join(args.iree, "iree-run-module"), "cuda"))
            for tag, tool, device in runtimes:
                ok, message, outputs = run_ranks(tool, device, module, case_dir, ranks, tag, mpirun)
                if ok:
                    bad = [r for r in range(ranks) if outputs[r].shape != expected[r].shape or
                           not np.allclose(outputs[r], expected[r], rtol=1e-7, atol=0)]
                    ok = not bad
                    message = f"ranks {bad} differ from upstream's expected output" if bad else ""
                verdicts[tag] = "pass" if ok else "FAIL"
                if message:
                    notes.append(f"{tag}: {message}")
            ran += 1
            theirs = verdicts.get("IREE", "-")
            if verdicts["ours"] != "pass" and theirs != "FAIL":
                regressions += 1
            print(f"{name:58} {ranks:5} {backend:9} {verdicts['ours']:10} {theirs:10}"
                  + (f" ({'; '.join(notes)})" if notes else ""))
    print(f"{ran} runs; ours fails {regressions} that IREE's runtime passes or did not run")
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
