#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The zoo's weights from numpy alone (no framework): a spec lists each tensor's shape, dtype,
mean and standard deviation; generate() draws them from one numpy Generator seeded by the spec.

  zoo_weights.py SPEC.json OUT.npy     writes the flat f32 vector a --weights=arg program takes,
                                       after checking it against the spec's sha256
  zoo_weights.py SPEC.json OUT.safetensors
                                       writes the weights a --weights=params program loads (keys
                                       p<i>, as in NAME.params.irpa) in the safetensors format

numpy's Generator (PCG64, ziggurat normals) gives the same stream on every numpy since 1.17, and
the digest check turns any difference into an error instead of a silent mismatch.
"""
import hashlib
import json
import sys

import numpy as np


def spec_of(arrays, seed):
    tensors = []
    for a in arrays:
        if not np.issubdtype(a.dtype, np.floating):  # e.g. a dropout layer's seed: kept as is
            tensors.append(literal(a))
            continue
        std = float(a.std()) if a.size > 1 else 0.0
        tensors.append({"shape": list(a.shape), "dtype": str(a.dtype), "mean": float(a.mean()),
                        "std": std})
    return {"seed": seed, "tensors": tensors}


def literal(array):
    """A spec entry that stores |array|'s values themselves (small tensors only)."""
    return {"shape": list(array.shape), "dtype": str(array.dtype), "values": array.ravel().tolist()}


def generate(spec):
    rng = np.random.default_rng(spec["seed"])
    out = []
    for t in spec["tensors"]:
        if "values" in t:
            out.append(np.array(t["values"], dtype=t["dtype"]).reshape(t["shape"]))
            continue
        draw = rng.standard_normal(int(np.prod(t["shape"], dtype=np.int64)), dtype=np.float32)
        values = (draw * np.float32(t["std"]) + np.float32(t["mean"])).reshape(t["shape"])
        out.append(values.astype(t["dtype"]))
    return out


def is_weight(array):
    """Whether |array| is part of the --weights=arg vector (floating point; others stay constants)."""
    return np.issubdtype(array.dtype, np.floating)


def digest(arrays):
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def write_safetensors(path, tensors):
    """The safetensors layout (a u64 header length, a JSON header, the data) with numpy alone, so a
    machine without the safetensors package can write it."""
    names = {"float32": "F32", "float16": "F16", "int32": "I32", "int64": "I64"}
    header, offset = {}, 0
    for key, a in tensors.items():
        header[key] = {"dtype": names[str(a.dtype)], "shape": list(a.shape),
                       "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    text = json.dumps(header).encode()
    text += b" " * (-(8 + len(text)) % 64)  # data starts 64-byte aligned, so it can be imported
    with open(path, "wb") as f:
        f.write(len(text).to_bytes(8, "little") + text)
        for a in tensors.values():
            f.write(np.ascontiguousarray(a).tobytes())


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: zoo_weights.py SPEC.json OUT.npy|OUT.safetensors")
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    arrays = generate(spec)
    if spec.get("sha256") and digest(arrays) != spec["sha256"]:
        sys.exit(f"zoo_weights: the weights drawn here differ from the exporter's (sha256); this "
                 f"numpy ({np.__version__}) draws another stream")
    if sys.argv[2].endswith(".safetensors"):
        tensors = {f"p{i}": a for i, a in enumerate(arrays) if is_weight(a)}
        write_safetensors(sys.argv[2], tensors)
        print(f"{sys.argv[2]}: {len(tensors)} tensors")
        return
    flat = np.concatenate([a.astype(np.float32).ravel() for a in arrays if is_weight(a)])
    np.save(sys.argv[2], flat)
    print(f"{sys.argv[2]}: {flat.size} values")


if __name__ == "__main__":
    main()
