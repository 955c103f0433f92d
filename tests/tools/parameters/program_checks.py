#!/usr/bin/env python3
"""Programs whose weights live in archives that other tools write, run by iree-rt-run on both CPU
devices in every --parameter_mode and by IREE's iree-run-module (local-sync and local-task, file
and preload): every run must return the same result bytes, and the values must be what the
writer stored (issue 21).

  program_checks.py --ours=IREE_RT_RUN --theirs=IREE_RUN_MODULE --out=DIR CHECK [CHECK flags]

  gguf   --module=gguf_types.vmfb --ext-module=gguf_ext_types.vmfb
         .gguf files written by the gguf package, one with types both runtimes read and one with
         types only ours does, each at the default alignment and packed, plus a copy with an
         unknown ggml type id patched in.

Prints "SKIPPED: ..." when a tool is missing, "OK" when every check passed, else "FAIL: ..." and
exits 1.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

DEVICES = ("local-sync", "local-task")
OUR_MODES = ("mmap", "preload", "file")
THEIR_MODES = ("preload", "file")  # iree-run-module has no mmap mode


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


class Runner:
    """Runs one function with each runtime, results written as .npy under |out|."""

    def __init__(self, ours, theirs, out):
        self.tools = {"ours": ours, "theirs": theirs}
        self.out = out
        self.count = 0

    def run(self, who, flags, results):
        self.count += 1
        paths = [os.path.join(self.out, f"run{self.count}_{i}.npy") for i in range(results)]
        command = [self.tools[who]] + flags + [f"--output=@{p}" for p in paths]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise Failure(f"{who} failed (rc={done.returncode}): {' '.join(command)}\n"
                          f"{done.stdout}{done.stderr}")
        return [np.load(p) for p in paths]

    def fail(self, who, flags):
        """Runs a command that must fail; returns its stderr."""
        done = subprocess.run([self.tools[who]] + flags, capture_output=True, text=True,
                              timeout=120)
        expect(done.returncode != 0, f"{who} succeeded on {' '.join(flags)}:\n{done.stdout}")
        return done.stderr

    def everywhere(self, flags, results, theirs=True):
        """Runs on every device and mode; every run must give the same dtypes, shapes, bytes."""
        runs = [(f"ours {d} {m}", self.run("ours", flags + [f"--device={d}",
                                                            f"--parameter_mode={m}"], results))
                for d in DEVICES for m in OUR_MODES]
        if theirs:
            runs += [(f"iree-run-module {d} {m}",
                      self.run("theirs", flags + [f"--device={d}", f"--parameter_mode={m}"],
                               results))
                     for d in DEVICES for m in THEIR_MODES]
        first_name, first = runs[0]
        for name, arrays in runs[1:]:
            expect_same(first, arrays, f"{first_name} vs {name}")
        return first


def expect_same(a, b, what):
    for i, (x, y) in enumerate(zip(a, b)):
        expect(x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(),
               f"{what}: result {i} differs: {x.dtype}{x.shape} {x.ravel()[:8]} vs "
               f"{y.dtype}{y.shape} {y.ravel()[:8]}")


def expect_close(actual, wanted, tolerance, what):
    error = float(np.max(np.abs(actual.astype(np.float64) - wanted)))
    expect(error <= tolerance, f"{what}: error {error} exceeds {tolerance}")


def archive_entries(path):
    """{key: (length, is_splat)} as IREE's own reader indexes |path|."""
    import iree.runtime as rt
    index = rt.ParameterIndex()
    index.load(path)
    return {key: (entry.length, entry.is_splat) for key, entry in index.items()}


# ---------------------------------------------------------------------------------------------
# gguf: tensors the gguf package writes, read back through a compiled program.

def quantize_q6_k(x):
    """Q6_K blocks of |x| (the gguf package dequantizes Q6_K but cannot quantize it): 256
    elements in 16 sub-blocks of 16, each with an int8 scale of the f16 super-block scale d, and
    6-bit values q - 32 split into low nibbles (ql), high bit pairs (qh)."""
    blocks = x.reshape(-1, 16, 16)
    sub_scale = np.abs(blocks).max(axis=-1) / 31
    d = (sub_scale.max(axis=-1, keepdims=True) / 127).astype(np.float16)
    scales = np.round(sub_scale / d.astype(np.float32)).astype(np.int8)
    step = (d.astype(np.float32) * scales)[..., None]
    q = (np.clip(np.round(blocks / step), -32, 31) + 32).astype(np.uint8).reshape(-1, 2, 128)
    low, high = q & 0xF, q >> 4
    ql = low[..., :64] | (low[..., 64:] << 4)
    qh = high[..., 0:32] | (high[..., 32:64] << 2) | (high[..., 64:96] << 4) | (high[..., 96:] << 6)
    return np.concatenate([ql.reshape(-1, 128), qh.reshape(-1, 64), scales.view(np.uint8),
                           d.view(np.uint8)], axis=1)


def quantize_iq4_nl(x):
    """IQ4_NL blocks of |x| (no quantizer in the gguf package): 32 elements as 4-bit indices into
    the format's fixed non-linear table, scaled by an f16 d that maps the largest magnitude to
    the table's -127."""
    from gguf import quants
    table = np.array(quants.IQ4_NL.kvalues, dtype=np.float32)
    blocks = x.reshape(-1, 32)
    peak = blocks[np.arange(len(blocks)), np.abs(blocks).argmax(axis=-1)]
    d = (peak / -127).astype(np.float16).reshape(-1, 1)
    index = np.abs(blocks[..., None] / d.astype(np.float32)[..., None] - table).argmin(axis=-1)
    index = index.astype(np.uint8)
    return np.concatenate([d.view(np.uint8), index[:, :16] | (index[:, 16:] << 4)], axis=1)


def gguf_tensors(both):
    """(key, type, row-major shape, own quantizer or None, error bound as a fraction of the
    largest magnitude); in the order of the program's results."""
    from gguf import GGMLQuantizationType as T
    if both:
        return [("f32", T.F32, (32,), None, 0), ("f16", T.F16, (32,), None, 2**-11),
                ("q8_0", T.Q8_0, (2, 64), None, 1 / 127), ("q4_0", T.Q4_0, (64,), None, 1 / 8),
                ("q6_k", T.Q6_K, (512,), quantize_q6_k, 1 / 31)]
    # MXFP4's e2m1 values are 1, 1.5, 2, 3, 4, 6 times a power of two: steps of up to 1/4.
    return [("bf16", T.BF16, (32,), None, 2**-8),
            ("iq4_nl", T.IQ4_NL, (64,), quantize_iq4_nl, 0.12),
            ("mxfp4", T.MXFP4, (64,), None, 0.25)]


def write_gguf(path, tensors, source, alignment):
    import gguf
    writer = gguf.GGUFWriter(path, "iree_rt_test")
    if alignment:
        writer.add_custom_alignment(alignment)
    for key, qtype, shape, quantizer, _ in tensors:
        x = source[key].reshape(shape)
        data = quantizer(x) if quantizer else gguf.quants.quantize(x, qtype)
        writer.add_tensor(key, data, raw_dtype=qtype)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return {t.name: t for t in gguf.GGUFReader(path).tensors}


def check_gguf_results(results, tensors, stored, source):
    """Each result is the package's stored bytes (BF16 widened to f32 by the program), and
    dequantizes to the source values within the type's quantization error."""
    from gguf import GGMLQuantizationType as T, quants
    for result, (key, qtype, shape, _, bound) in zip(results, tensors):
        tensor = stored[key]
        expect(tensor.tensor_type == qtype, f"{key}: the package wrote type {tensor.tensor_type}")
        raw = np.asarray(tensor.data)
        if qtype == T.BF16:
            wanted = (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
            values = result
        else:
            wanted = raw
            values = quants.dequantize(result if result.dtype.kind == "f"
                                       else result.view(np.uint8), qtype)
        expect(result.tobytes() == wanted.tobytes(),
               f"{key}: returned bytes differ from what the gguf package wrote")
        x = source[key]
        expect_close(values.ravel(), x, bound * float(np.abs(x).max()), f"{key} dequantized")


def ggml_type_offset(tensor):
    """File offset of |tensor|'s type field: after its name, dimension count and dimensions."""
    return tensor.field.offset + sum(part.nbytes for part in tensor.field.parts[:4])


def check_gguf(runner, args):
    rng = np.random.default_rng(21)
    source = {}
    for both in (True, False):
        for key, _, shape, _, _ in gguf_tensors(both):
            source[key] = rng.standard_normal(int(np.prod(shape))).astype(np.float32)
    # The default alignment (32), and packed (general.alignment 1): there a tensor sized too
    # large overlaps the next one or runs past the end, and one sized too small cannot hold the
    # program's global.
    for name, alignment in (("", None), ("_packed", 1)):
        path = os.path.join(args.out, f"types{name}.gguf")
        tensors = gguf_tensors(True)
        stored = write_gguf(path, tensors, source, alignment)
        flags = [f"--module={args.module}", "--function=tensors", f"--parameters=model={path}"]
        check_gguf_results(runner.everywhere(flags, len(tensors)), tensors, stored, source)

        # IREE's reader sizes ggml types 0-18 only and refuses the file, so ours is checked
        # against the gguf package alone; the refusal is checked too, so this stays true.
        ext_path = os.path.join(args.out, f"ext_types{name}.gguf")
        ext_tensors = gguf_tensors(False)
        ext_stored = write_gguf(ext_path, ext_tensors, source, alignment)
        ext_flags = [f"--module={args.ext_module}", "--function=tensors",
                     f"--parameters=model={ext_path}"]
        results = runner.everywhere(ext_flags, len(ext_tensors), theirs=False)
        check_gguf_results(results, ext_tensors, ext_stored, source)
        refusal = runner.fail("theirs", ext_flags)
        expect("GGML tensor type 30 not supported" in refusal,
               f"iree-run-module's refusal of BF16 changed:\n{refusal}")

    # An id ggml no longer defines (4 was Q4_2) in place of q4_0's type.
    bad_path = os.path.join(args.out, "unknown_type.gguf")
    shutil.copyfile(path, bad_path)
    offset = ggml_type_offset(stored["q4_0"])
    with open(bad_path, "r+b") as f:
        f.seek(offset)
        expect(struct.unpack("<I", f.read(4))[0] == 2, "q4_0's type field is not at the offset")
        f.seek(offset)
        f.write(struct.pack("<I", 4))
    bad_flags = [f"--module={args.module}", "--function=tensors", f"--parameters=model={bad_path}"]
    message = runner.fail("ours", bad_flags)
    for part in (bad_path, "tensor 'q4_0'", "ggml type 4,"):
        expect(part in message, f"the unknown type's error does not name {part!r}:\n{message}")
    runner.fail("theirs", bad_flags)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ours", required=True)
    parser.add_argument("--theirs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--module")
    parser.add_argument("--ext-module")
    parser.add_argument("check", choices=("gguf",))
    args = parser.parse_args()
    for tool in (args.theirs,):
        if tool and not os.path.exists(tool):
            print(f"SKIPPED: {tool} is not installed (scripts/setup.sh)")
            return 0
    for package in ("gguf", "iree.runtime"):
        try:
            __import__(package)
        except ImportError:
            print(f"SKIPPED: no Python package {package} (tests/parameters/requirements.txt)")
            return 0
    args.out = os.path.join(args.out, args.check)
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    runner = Runner(args.ours, args.theirs, args.out)
    try:
        {"gguf": check_gguf}[args.check](runner, args)
    except Failure as failure:
        print(f"FAIL: {failure}")
        return 1
    print(f"OK ({runner.count} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
