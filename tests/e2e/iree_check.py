# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs an e2e .vmfb under IREE's own Python runtime (iree-base-runtime) with a Python
implementation of the `check` module, so the suite's expected constants can be validated
against the upstream runtime independently of iree_rt.

usage: iree_check.py --device=local-task --module=foo.vmfb   (exit 0 iff every case passes)
"""
import argparse
import os
import sys

import numpy as np
import iree.runtime as rt


class Failure(Exception):
    pass


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="local-task")
    p.add_argument("--module", required=True)
    args = p.parse_args()

    config = rt.Config(args.device)
    device = config.device
    failures = []

    def host(ref):
        bv = ref.deref(rt.HalBufferView)
        return rt.DeviceArray(device, bv, implicit_host_transfer=True).to_host()

    def fail(msg):
        failures.append(msg)

    class Check:
        def __init__(self, iface):
            pass

        def expect_true(self, v):
            if not v:
                fail("expect_true: got 0")

        def expect_false(self, v):
            if v:
                fail(f"expect_false: got {v}")

        def expect_all_true(self, _dev, a):
            a = host(a)
            if not np.all(a):
                fail(f"expect_all_true: {a}")

        def expect_eq(self, _dev, a, b):
            a, b = host(a), host(b)
            if a.dtype != b.dtype or a.shape != b.shape or not np.array_equal(a, b):
                fail(f"expect_eq:\n got {a!r}\n want {b!r}")

        def expect_almost_eq(self, _dev, a, b, atol, rtol):
            a, b = host(a), host(b)
            if a.shape != b.shape or not np.allclose(
                    a.astype(np.float64), b.astype(np.float64), atol=atol, rtol=rtol):
                fail(f"expect_almost_eq (atol={atol} rtol={rtol}):\n got {a!r}\n want {b!r}")

    iface = rt.PyModuleInterface("check", Check)
    iface.export("expect_true", "0i_v", Check.expect_true)
    iface.export("expect_false", "0i_v", Check.expect_false)
    iface.export("expect_all_true", "0rr_v", Check.expect_all_true)
    iface.export("expect_eq", "0rrr_v", Check.expect_eq)
    iface.export("expect_almost_eq", "0rrrff_v", Check.expect_almost_eq)
    check = iface.create()

    with open(args.module, "rb") as f:
        vmfb = f.read()
    main_mod = rt.VmModule.copy_buffer(config.vm_instance, vmfb)
    hal = rt.create_hal_module(config.vm_instance, device)
    ctx = rt.VmContext(config.vm_instance, modules=[hal, check, main_mod])
    failed = 0
    names = [n for n in main_mod.function_names if not n.startswith("__")]
    for name in names:
        fn = main_mod.lookup_function(name)
        failures.clear()
        try:
            args = rt.VmVariantList(2)
            signal = None
            if fn.reflection.get("iree.abi.model") == "coarse-fences":
                # --iree-execution-model=async-external: (wait fence, signal fence) arguments.
                sem = device.create_semaphore(0)
                signal = rt.HalFence(1)
                signal.insert(sem, 1)
                args.push_ref(rt.HalFence(0))
                args.push_ref(signal)
            ctx.invoke(fn, args, rt.VmVariantList(0))
            if signal is not None:
                signal.wait()
        except Exception as e:  # a runtime error fails the case too
            failures.append(f"error: {e}")
        status = "FAIL" if failures else "PASS"
        failed += bool(failures)
        print(f"[{status}] {name}")
        for m in failures:
            print("   ", m)
    print(f"{len(names) - failed}/{len(names)} passed")
    return 1 if failed else 0


if __name__ == "__main__":
    code = main()
    # Leave without the interpreter's teardown: it destroys IREE's runtime objects in no set
    # order, and once (an async program, CI of session 14) IREE's task executor aborted there
    # ("terminate called without an active exception") after every case had passed.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
