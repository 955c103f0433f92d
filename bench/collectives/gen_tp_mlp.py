#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes tp_mlp<N>.mlir (bench/collectives/tp_mlp.mlir for N ranks) into OUT_DIR.

usage: gen_tp_mlp.py OUT_DIR [RANKS...]   (default ranks: 1 2 4; B=2048, D=4096, F=16384)
"""
import os
import sys

B, D, F = 2048, 4096, 16384


def main():
    out = sys.argv[1]
    ranks = [int(r) for r in sys.argv[2:]] or [1, 2, 4]
    template = open(os.path.join(os.path.dirname(__file__), "tp_mlp.mlir")).read()
    os.makedirs(out, exist_ok=True)
    for n in ranks:
        text = template.replace("@RANKS@", str(n)).replace("@FS@", str(F // n))
        if n == 1:
            reduce = "  return %y : tensor<@B@x@D@xf32>"
        else:
            group = ", ".join(str(r) for r in range(n))
            reduce = (
                '  %s = "stablehlo.all_reduce"(%y) ({\n'
                "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                "      %t = stablehlo.add %a, %b : tensor<f32>\n"
                "      stablehlo.return %t : tensor<f32>\n"
                "    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,\n"
                f"        replica_groups = dense<[[{group}]]> : tensor<1x{n}xi64>, use_global_device_ids}}"
                " : (tensor<@B@x@D@xf32>) -> tensor<@B@x@D@xf32>\n"
                "  return %s : tensor<@B@x@D@xf32>")
        text = text.replace("@REDUCE@", reduce).replace("@B@", str(B)).replace("@D@", str(D))
        with open(os.path.join(out, f"tp_mlp{n}.mlir"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
