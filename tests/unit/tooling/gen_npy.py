# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the .npy files the tooling tests read, with numpy itself (run at build time).

usage: gen_npy.py OUTPUT_DIR
"""
import os
import sys

import numpy as np


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)

    def save(name, array):
        np.save(os.path.join(out, name), array, allow_pickle=True)

    save("i4_2x3.npy", np.arange(6, dtype="<i4").reshape(2, 3))
    save("f8_scalar.npy", np.array(3.25, dtype=np.float64))
    save("b1_3.npy", np.array([True, False, True]))
    save("f4_0x3.npy", np.zeros((0, 3), dtype=np.float32))
    save("f2_3.npy", np.array([1.5, -0.0, np.inf], dtype=np.float16))
    save("u1_2.npy", np.array([255, 2], dtype=np.uint8))
    save("i8_1.npy", np.array([-1], dtype=np.int64))
    save("u8_1.npy", np.array([2**64 - 1], dtype=np.uint64))
    save("c8_1.npy", np.array([1 + 2j], dtype=np.complex64))
    save("c16_1.npy", np.array([1 + 2j], dtype=np.complex128))
    save("V4_1.npy", np.array([b"\x01\x02\x03\x04"], dtype="V4"))
    save("r16.npy", np.full([1] * 16, 7, dtype=np.int8))
    save("be_i4.npy", np.array([1, 2], dtype=">i4"))
    save("fortran.npy", np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)))
    save("unicode.npy", np.array(["abc"]))
    save("object.npy", np.array([{"a": 1}], dtype=object))
    save("structured.npy", np.zeros(2, dtype=[("a", "<i4"), ("b", "<f4")]))
    for version, name, array in (((2, 0), "v2.npy", np.arange(4, dtype="<f4")),
                                 ((3, 0), "v3.npy", np.array([-5, 7], dtype="<i2"))):
        with open(os.path.join(out, name), "wb") as f:
            np.lib.format.write_array(f, array, version=version)
    with open(os.path.join(out, "multi.npy"), "wb") as f:
        np.save(f, np.array([1, 2], dtype=np.int32))
        np.save(f, np.array([3.5], dtype=np.float32))
        np.save(f, np.array(7, dtype=np.int8))
    with open(os.path.join(out, "stamp"), "w") as f:
        f.write("ok\n")


if __name__ == "__main__":
    main()
