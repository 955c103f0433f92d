#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Programs whose weights live in archives that other tools write, run by iree-rt-run on both CPU
devices in every --parameter_mode and by IREE's iree-run-module (local-sync and local-task, file
and preload): every run must return the same result bytes, and the values must be what the
writer stored (issue 21).

  program_checks.py --ours=IREE_RT_RUN --theirs=IREE_RUN_MODULE --out=DIR CHECK [CHECK flags]

  gguf   --module=gguf_types.vmfb --ext-module=gguf_ext_types.vmfb
         .gguf files written by the gguf package, one with types both runtimes read and one with
         types only ours does, each at the default alignment and packed, plus a copy with an
         unknown ggml type id patched in.
  export --compiler=IREE_COMPILE [--target-flag=F ...]
         an MLP with its weights in public util.globals, compiled inline, with
         --iree-parameter-export and with --iree-parameter-splat.
  onnx   --compiler=IREE_COMPILE --importer=IREE_IMPORT_ONNX [--target-flag=F ...]
         an ONNX MatMul + Add + Relu imported with --externalize-params.

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


# ---------------------------------------------------------------------------------------------
# export: iree-compile moves the MLP's weights into an archive of its own.

def dense(array):
    shape = "x".join(map(str, array.shape))
    return f'dense<"0x{array.tobytes().hex().upper()}"> : tensor<{shape}xf32>'


def mlp_layer(n, x, rows, inner, cols, relu):
    """MLIR for %y<n> = x @ w<n> + b<n> (then max(0, .) if |relu|) on f32 tensors."""
    out, w = f"tensor<{rows}x{cols}xf32>", f"tensor<{inner}x{cols}xf32>"
    activation = (f"    %r = arith.maximumf %s, %zero : f32\n    linalg.yield %r : f32" if relu
                  else "    linalg.yield %s : f32")
    return f"""
  %w{n} = util.global.load @w{n} : {w}
  %b{n} = util.global.load @b{n} : tensor<{cols}xf32>
  %e{n} = tensor.empty() : {out}
  %f{n} = linalg.fill ins(%zero : f32) outs(%e{n} : {out}) -> {out}
  %m{n} = linalg.matmul ins({x}, %w{n} : tensor<{rows}x{inner}xf32>, {w})
                      outs(%f{n} : {out}) -> {out}
  %y{n} = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                                         affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}}
      ins(%m{n}, %b{n} : {out}, tensor<{cols}xf32>) outs(%e{n} : {out}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
{activation}
  }} -> {out}"""


MLP_BODY = f"""
func.func @mlp(%x: tensor<2x16xf32>) -> tensor<2x8xf32> {{
  %zero = arith.constant 0.0 : f32{mlp_layer(1, "%x", 2, 16, 64, True)}
{mlp_layer(2, "%y1", 2, 64, 8, False)}
  return %y2 : tensor<2x8xf32>
}}
"""


def compile_program(args, source, output, *flags):
    command = [args.compiler] + args.target_flag + list(flags) + [source, "-o", output]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    expect(done.returncode == 0, f"iree-compile failed: {' '.join(command)}\n{done.stderr}")


def check_export(runner, args):
    rng = np.random.default_rng(22)
    weights = {"w1": rng.standard_normal((16, 64)).astype(np.float32),
               "b1": np.full(64, 0.125, dtype=np.float32),  # a splat value, stored as data
               "w2": rng.standard_normal((64, 8)).astype(np.float32),
               "b2": rng.standard_normal(8).astype(np.float32)}  # 32 bytes: stays inline
    x = rng.standard_normal((2, 16)).astype(np.float32)
    # Public mutable globals: 3.13.0's export takes globals only (never inline constants), and
    # by the time it runs the loads of immutable globals have become inline constants, so their
    # archive would be written but never read; private globals are not exported at all.
    source = os.path.join(args.out, "mlp.mlir")
    with open(source, "w") as f:
        f.writelines(f"util.global public mutable @{k} = {dense(v)}\n" for k, v in weights.items())
        f.write(MLP_BODY)
    x_path = os.path.join(args.out, "x.npy")
    np.save(x_path, x)
    call = ["--function=mlp", f"--input=@{x_path}"]

    inline = os.path.join(args.out, "mlp_inline.vmfb")
    compile_program(args, source, inline)
    expected = runner.everywhere([f"--module={inline}"] + call, 1)
    h = np.maximum(x @ weights["w1"] + weights["b1"], 0)
    expect_close(expected[0], h @ weights["w2"] + weights["b2"], 1e-4, "inline MLP vs numpy")

    exported, archive = (os.path.join(args.out, n) for n in ("mlp_export.vmfb", "mlp.irpa"))
    minimum = "--iree-parameter-export-minimum-size=64"
    compile_program(args, source, exported, f"--iree-parameter-export=model={archive}", minimum)
    entries = archive_entries(archive)
    expect(entries == {"w1": (4096, False), "b1": (256, False), "w2": (2048, False)},
           f"exported archive holds {entries}")
    expect(os.path.getsize(exported) + weights["w1"].nbytes < os.path.getsize(inline),
           "the exported weights are still in the module")
    results = runner.everywhere([f"--module={exported}", f"--parameters=model={archive}"] + call, 1)
    expect_same(expected, results, "inline vs exported weights")

    # Zero splats in place of every parameter: the output is b2, the one weight left inline.
    splatted, splats = (os.path.join(args.out, n) for n in ("mlp_splat.vmfb", "splats.irpa"))
    compile_program(args, source, splatted, minimum, f"--iree-parameter-splat={splats}",
                    f"--iree-parameter-export=model={os.path.join(args.out, 'unused.irpa')}")
    entries = archive_entries(splats)
    expect(entries == {"w1": (4096, True), "b1": (256, True), "w2": (2048, True)},
           f"splat archive holds {entries}")
    results = runner.everywhere([f"--module={splatted}", f"--parameters=model={splats}"] + call, 1)
    expect(results[0].tobytes() == np.tile(weights["b2"], (2, 1)).tobytes(),
           f"zero weights gave {results[0]}")


# ---------------------------------------------------------------------------------------------
# onnx: iree-import-onnx --externalize-params writes the initializers to an archive.

def check_onnx(runner, args):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(23)
    w = rng.standard_normal((64, 128)).astype(np.float32)
    b = rng.standard_normal(128).astype(np.float32)
    x = rng.standard_normal((2, 64)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "W"], ["m"]), helper.make_node("Add", ["m", "B"], ["a"]),
         helper.make_node("Relu", ["a"], ["y"])], "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 128])],
        [numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "B")])
    model_path = os.path.join(args.out, "mlp.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), model_path)

    # Both initializers have at least --num-elements-threshold (default 100) elements.
    imported, archive = (os.path.join(args.out, n) for n in ("mlp_onnx.mlir", "mlp_onnx.irpa"))
    command = [args.importer, model_path, "--externalize-params", f"--save-params-to={archive}",
               "-o", imported]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    expect(done.returncode == 0, f"iree-import-onnx failed:\n{done.stderr}")
    with open(imported) as f:
        text = f.read()
    for key in ("W", "B"):
        expect(f'#stream.parameter.named<"model"::"{key}">' in text,
               f"the import does not read {key} from scope model:\n{text[:2000]}")
    entries = archive_entries(archive)
    expect(entries == {"W": (w.nbytes, False), "B": (b.nbytes, False)},
           f"the archive holds {entries}")

    module = os.path.join(args.out, "mlp_onnx.vmfb")
    compile_program(args, imported, module)
    x_path = os.path.join(args.out, "x_onnx.npy")
    np.save(x_path, x)
    results = runner.everywhere([f"--module={module}", "--function=mlp", f"--input=@{x_path}",
                                 f"--parameters=model={archive}"], 1)
    expect_close(results[0], np.maximum(x @ w + b, 0), 1e-4, "ONNX MLP vs numpy")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ours", required=True)
    parser.add_argument("--theirs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--module")
    parser.add_argument("--ext-module")
    parser.add_argument("--compiler")
    parser.add_argument("--importer")
    parser.add_argument("--target-flag", action="append", default=[])
    parser.add_argument("check", choices=("gguf", "export", "onnx"))
    args = parser.parse_args()
    for tool in (args.theirs, args.compiler, args.importer):
        if tool and not os.path.exists(tool):
            print(f"SKIPPED: {tool} is not installed (scripts/setup.sh)")
            return 0
    for package in {"gguf": ("gguf",), "onnx": ("onnx",)}.get(args.check, ()) + ("iree.runtime",):
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
        {"gguf": check_gguf, "export": check_export, "onnx": check_onnx}[args.check](runner, args)
    except Failure as failure:
        print(f"FAIL: {failure}")
        return 1
    print(f"OK ({runner.count} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
