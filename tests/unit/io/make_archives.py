# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the parameter archives the io unit tests and fuzzers read, with the real tools:
.irpa by IREE's iree-create-parameters and iree.runtime's archive builder, .safetensors by the
safetensors package, .gguf by the gguf package. Next to them, manifest.json lists every entry
as an independent reader sees it (IREE's own index for .irpa, the JSON header for safetensors,
gguf.GGUFReader for gguf): key, kind, offset, length, pattern, element type and shape.

Usage: make_archives.py <iree-create-parameters> <output dir>
"""
import json
import os
import struct
import subprocess
import sys

import gguf
import iree.runtime as rt
import numpy as np
import safetensors
import safetensors.numpy


def irpa_manifest(path, base=0):
    index = rt.ParameterIndex()
    index.load(path)
    entries = []
    for key, entry in index.items():
        item = {"key": key, "length": entry.length, "metadata": bytes(entry.metadata).hex()}
        if entry.is_splat:
            item.update(kind="splat", pattern=bytes(entry.splat_pattern).hex())
        else:
            item.update(kind="data", offset=entry.file_storage[1] + base)
        entries.append(item)
    return entries


def write_irpa(tool, out):
    manifest = {}
    # The command-line tool: zero-filled data entries (3.13.0 fails writing patterned data) and
    # splats of every pattern width.
    cli = os.path.join(out, "cli.irpa")
    subprocess.run([tool, "--data=weights.a=4x3xf32", "--data=weights.b=7xi8",
                    "--data=big=3x1000xf16", "--splat=splat.i8=10xi8=5",
                    "--splat=splat.i16=16xi16=123", "--splat=splat.f32=4xf32=2.5",
                    "--splat=splat.f64=4xf64=2.0", f"--output={cli}"], check=True,
                   stdout=subprocess.DEVNULL)
    manifest["cli.irpa"] = irpa_manifest(cli)
    # The runtime's builder: real data with metadata (as iree-turbine writes it) and splats.
    index = rt.ParameterIndex()
    index.add_buffer("model.w0", np.arange(12, dtype=np.float32).tobytes(),
                     metadata='PYTORCH:{"type":"Tensor","dtype":"float32","shape":[3,4]}')
    index.add_buffer("model.b0", np.arange(5, dtype=np.int64).tobytes())
    index.add_splat("model.ones", np.array([1], dtype=np.int32).tobytes(), 64)
    index.add_splat("model.wide", bytes(range(16)), 32)
    built = os.path.join(out, "built.irpa")
    index.create_archive_file(built)
    manifest["built.irpa"] = irpa_manifest(built)
    # Two archives chained: the first header links to the second, appended after it.
    second = rt.ParameterIndex()
    second.add_buffer("rank1.w", np.full(9, 3, dtype=np.int16).tobytes())
    second.add_splat("rank1.zero", bytes(8), 24)
    second_path = os.path.join(out, "second.tmp.irpa")
    second.create_archive_file(second_path)
    first = bytearray(open(built, "rb").read())
    tail = open(second_path, "rb").read()
    struct.pack_into("<Q", first, 16, len(first))
    chained = os.path.join(out, "chained.irpa")
    open(chained, "wb").write(bytes(first) + tail)
    # IREE 3.13.0's reader re-reads the first header at every link, so each half is indexed
    # on its own and the second moved by the first's size.
    manifest["chained.irpa"] = manifest["built.irpa"] + irpa_manifest(second_path, len(first))
    os.remove(second_path)
    return manifest


def safetensors_manifest(path):
    data = open(path, "rb").read()
    (n,) = struct.unpack_from("<Q", data)
    header = json.loads(data[8:8 + n])
    entries = []
    for key, info in header.items():
        if key == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        entries.append({"key": key, "kind": "data", "offset": 8 + n + begin, "length": end - begin,
                        "type": info["dtype"], "shape": info["shape"]})
    return entries


def write_safetensors(out):
    manifest = {}
    arrays = {
        "f32": np.arange(6, dtype=np.float32).reshape(2, 3), "f16": np.ones(5, np.float16),
        "f64": np.zeros((2, 2), np.float64), "i8": np.arange(3, dtype=np.int8),
        "i16": np.arange(4, dtype=np.int16), "i32": np.arange(2, dtype=np.int32),
        "i64": np.arange(2, dtype=np.int64), "u8": np.arange(7, dtype=np.uint8),
        "u16": np.arange(2, dtype=np.uint16), "u32": np.arange(3, dtype=np.uint32),
        "u64": np.arange(1, dtype=np.uint64), "bool": np.array([True, False, True]),
        "scalar": np.array(3.0, np.float32), "empty": np.zeros((0, 4), np.float32),
        "nested.key/with \"quotes\" é": np.arange(2, dtype=np.float32),
    }
    path = os.path.join(out, "numpy.safetensors")
    safetensors.numpy.save_file(arrays, path, metadata={"format": "np", "note": "{\"x\":[1]}"})
    manifest["numpy.safetensors"] = safetensors_manifest(path)
    # Types numpy lacks, through the package's own serializer with format dtype names.
    raw = {"bf16": ("bfloat16", [2, 3], 12), "e4m3": ("float8_e4m3fn", [4], 4),
           "e5m2": ("float8_e5m2", [2, 2], 4), "c64": ("complex64", [2], 16)}
    keep = {k: np.arange(n, dtype=np.uint8) for k, (_, _, n) in raw.items()}
    specs = {k: safetensors.TensorSpec(dtype=d, shape=s, data_ptr=keep[k].ctypes.data,
                                       data_len=n) for k, (d, s, n) in raw.items()}
    path = os.path.join(out, "raw.safetensors")
    open(path, "wb").write(safetensors.serialize(specs))
    manifest["raw.safetensors"] = safetensors_manifest(path)
    return manifest


def gguf_manifest(path):
    reader = gguf.GGUFReader(path)
    return [{"key": t.name, "kind": "data", "offset": int(t.data_offset), "length": int(t.n_bytes),
             "type": t.tensor_type.name, "shape": [int(d) for d in reversed(t.shape)]}
            for t in reader.tensors]


def write_gguf_file(path, alignment=None):
    writer = gguf.GGUFWriter(path, "llama")
    if alignment:
        writer.add_custom_alignment(alignment)
    # Metadata of every value type, arrays of strings and of arrays included: the parser skips it.
    writer.add_name("tiny")
    writer.add_uint8("t.u8", 1); writer.add_int8("t.i8", -1); writer.add_uint16("t.u16", 2)
    writer.add_int16("t.i16", -2); writer.add_uint32("t.u32", 3); writer.add_int32("t.i32", -3)
    writer.add_float32("t.f32", 1.5); writer.add_bool("t.bool", True); writer.add_uint64("t.u64", 4)
    writer.add_int64("t.i64", -4); writer.add_float64("t.f64", 2.5)
    writer.add_array("t.strings", ["a", "bc", ""]); writer.add_array("t.ints", [1, 2, 3])
    writer.add_array("t.nested", [[1, 2], [3]])
    writer.add_tensor("f32", np.arange(12, dtype=np.float32).reshape(3, 4))
    writer.add_tensor("f16", np.ones((2, 5), np.float16))
    writer.add_tensor("f64", np.zeros(3, np.float64))
    writer.add_tensor("i8", np.arange(5, dtype=np.int8))
    writer.add_tensor("i16", np.arange(5, dtype=np.int16))
    writer.add_tensor("i32", np.arange(5, dtype=np.int32))
    writer.add_tensor("i64", np.arange(5, dtype=np.int64))
    # BF16 and quantized types as raw bytes with their ggml type (shape in elements).
    writer.add_tensor("bf16", np.zeros((2, 8), np.uint16).view(np.uint8).reshape(2, 16),
                      raw_dtype=gguf.GGMLQuantizationType.BF16)
    for name, qtype, rows in (("q8_0", "Q8_0", 2), ("q4_0", "Q4_0", 3), ("q4_k", "Q4_K", 1),
                              ("iq2_xxs", "IQ2_XXS", 1), ("tq2_0", "TQ2_0", 1)):
        t = gguf.GGMLQuantizationType[qtype]
        block, size = gguf.GGML_QUANT_SIZES[t]
        blocks_per_row = 2 if block == 32 else 1
        data = np.zeros((rows, blocks_per_row * size), np.uint8)
        writer.add_tensor(name, data, raw_dtype=t)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def write_gguf(out):
    manifest = {}
    v3 = os.path.join(out, "v3.gguf")
    write_gguf_file(v3)
    manifest["v3.gguf"] = gguf_manifest(v3)
    aligned = os.path.join(out, "align64.gguf")
    write_gguf_file(aligned, alignment=64)
    manifest["align64.gguf"] = gguf_manifest(aligned)
    # v2 has v3's little-endian layout: the same file with version 2.
    data = bytearray(open(v3, "rb").read())
    struct.pack_into("<I", data, 4, 2)
    v2 = os.path.join(out, "v2.gguf")
    open(v2, "wb").write(bytes(data))
    manifest["v2.gguf"] = manifest["v3.gguf"]
    return manifest


def main():
    tool, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    manifest = {}
    manifest.update(write_irpa(tool, out))
    manifest.update(write_safetensors(out))
    manifest.update(write_gguf(out))
    # The reference table of ggml type sizes: name -> [id, block size, bytes per block].
    manifest["ggml_types"] = {t.name: [int(t), block, size]
                              for t, (block, size) in gguf.GGML_QUANT_SIZES.items()}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
