#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Exports a torchvision model with random weights (fixed seed, no download) to ONNX, with an
input and PyTorch's own output for it as .npy files.

  export_torchvision.py <model> <out dir> [--seed N] [--size 224]

Writes <out dir>/<model>.onnx, <model>.input.npy and <model>.torch.npy.
"""
import argparse
import os

import numpy as np
import torch
import torchvision


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model", help="a torchvision.models constructor, e.g. mobilenet_v3_small")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=224)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    model = getattr(torchvision.models, args.model)(weights=None).eval()
    x = torch.randn(1, 3, args.size, args.size, generator=torch.Generator().manual_seed(args.seed + 1))
    with torch.no_grad():
        expected = model(x)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, args.model + ".onnx")
    kwargs = dict(opset_version=17, input_names=["input"], output_names=["output"])
    try:
        torch.onnx.export(model, (x,), path, dynamo=False, **kwargs)
    except TypeError:  # torch versions before the dynamo argument
        torch.onnx.export(model, (x,), path, **kwargs)
    np.save(os.path.join(args.out, args.model + ".input.npy"), x.numpy())
    np.save(os.path.join(args.out, args.model + ".torch.npy"), expected.numpy())
    print(f"{path}: {os.path.getsize(path)} bytes; output {tuple(expected.shape)}")


if __name__ == "__main__":
    main()
