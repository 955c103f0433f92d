#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the parameter archives of tests/tools/parameters with the formats' own writers: IREE's
ParameterIndex (iree-base-runtime) for .irpa, the safetensors package, the gguf package.

  gen_archives.py OUT_DIR

Scope "model" holds w (2x2 f32), b (2 f32) and padded (4 i32) of
tests/unit/modules/programs/parameters.mlir in each format (model.irpa, model.safetensors,
model.gguf, and model_w.irpa + model_rest.irpa splitting it over two files); the unscoped scope's
splats are in unscoped.irpa (safetensors and gguf have no splats).
"""
import os
import sys

import numpy as np

W = np.array([[1, 2], [3, 4]], dtype=np.float32)
B = np.array([0.5, -0.5], dtype=np.float32)
PADDED = np.array([1, 2, 3, 4], dtype=np.int32)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    import iree.runtime as rt

    def irpa(path, tensors):
        index = rt.ParameterIndex()
        for key, value in tensors.items():
            index.add_buffer(key, value.tobytes())
        index.create_archive_file(os.path.join(out, path))

    irpa("model.irpa", {"w": W, "b": B, "padded": PADDED})
    irpa("model_w.irpa", {"w": W})
    irpa("model_rest.irpa", {"b": B, "padded": PADDED})
    unscoped = rt.ParameterIndex()
    unscoped.add_splat("splat", np.array([7], dtype=np.float32).tobytes(), 16)
    unscoped.add_splat("splat64", np.array([-1], dtype=np.int32).tobytes(), 24)
    unscoped.create_archive_file(os.path.join(out, "unscoped.irpa"))

    from safetensors.numpy import save_file
    save_file({"w": W, "b": B, "padded": PADDED}, os.path.join(out, "model.safetensors"))

    import gguf
    writer = gguf.GGUFWriter(os.path.join(out, "model.gguf"), "iree_rt_test")
    for key, value in {"w": W, "b": B, "padded": PADDED}.items():
        writer.add_tensor(key, value)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    print(f"archives in {out}")


if __name__ == "__main__":
    main()
