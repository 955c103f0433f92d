#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The model zoo: real architectures from the frameworks' own definitions (Keras applications,
Hugging Face transformers' Flax models), random weights from a fixed seed, no downloads, exported
through JAX to StableHLO for iree-compile.

  zoo.py list                          the models' names, one per line
  zoo.py export NAME OUT_DIR [--weights const|arg] [--seed N]
  zoo.py prepare NAME OUT_DIR --compiler IREE_COMPILE [--flag=F ...]
                                       export (weights as constants) and compile to NAME.vmfb,
                                       unless OUT_DIR/NAME.stamp says the same inputs made them

`export` writes into OUT_DIR:
  NAME.mlir            the program (StableHLO); with --weights=const the weights are constants,
                       with --weights=arg they are the first argument, one flat f32 vector,
                       with --weights=params they come from NAME.irpa (scope "model", keys
                       p<i>) through a wrapper function @run
  NAME.inputN.npy      the inputs of the call
  NAME.expected.npy    the framework's own output for them (JAX on this CPU)
  NAME.weights.json    how to regenerate the weights with numpy alone (zoo_weights.py), so a GPU
                       machine without JAX can rebuild the --weights=arg vector from the seed

The weights are not the frameworks' initial values but numpy draws with each tensor's mean and
standard deviation at initialization (so a batch-norm variance stays 1): the same values can then
be made anywhere numpy runs, which keeps what travels to a GPU machine small.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys

os.environ.setdefault("KERAS_BACKEND", "jax")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zoo_weights  # noqa: E402


def _keras(constructor, size):
    import keras

    def build():
        # Keras draws initial values from a per-process seed: fixed, so that every export (the
        # constant and the parameter variants, in separate processes) gets the same weights.
        keras.utils.set_random_seed(0)
        model = getattr(keras.applications, constructor)(
            weights=None, input_shape=(size, size, 3), classifier_activation=None)  # logits
        trainable = [v.value for v in model.trainable_variables]
        other = [v.value for v in model.non_trainable_variables]

        def forward(params, x):
            outputs, _ = model.stateless_call(params[:len(trainable)], params[len(trainable):], x,
                                              training=False)
            return outputs

        def calibrate(params, x):
            # Random weights shrink the signal layer by layer (MobileNetV3's logits end near
            # 1e-10); batch-norm statistics measured on a batch, as training would leave them,
            # keep every layer's output near unit scale. Momentum 0 makes the update the batch's.
            norms = [l for l in model._flatten_layers() if isinstance(l, keras.layers.BatchNormalization)]
            for layer in norms:
                layer.momentum = 0.0
            _, updated = model.stateless_call(params[:len(trainable)], params[len(trainable):], x,
                                              training=True)
            return params[:len(trainable)] + [np.asarray(v) for v in updated]

        return trainable + other, forward, calibrate

    def inputs(rng):
        return [rng.standard_normal((1, size, size, 3), dtype=np.float32)]

    return build, inputs


def _flax_text(kind, layers, seq):
    def build():
        import jax
        import transformers

        if kind == "bert":
            config = transformers.BertConfig(num_hidden_layers=layers)
            model = transformers.FlaxBertModel(config, seed=0, _do_init=True)
        else:
            config = transformers.GPT2Config(n_layer=layers)
            model = transformers.FlaxGPT2LMHeadModel(config, seed=0, _do_init=True)
        leaves, tree = jax.tree_util.tree_flatten(model.params)

        def forward(params, *args):
            tree_params = jax.tree_util.tree_unflatten(tree, params)
            if kind == "bert":
                ids, mask = args
                return model(ids, attention_mask=mask, params=tree_params).last_hidden_state
            return model(args[0], params=tree_params).logits

        return leaves, forward, None

    def inputs(rng):
        vocab = 30522 if kind == "bert" else 50257
        ids = rng.integers(0, vocab, size=(1, seq), dtype=np.int32)
        if kind == "gpt2":
            return [ids]
        mask = np.ones((1, seq), dtype=np.int32)
        mask[:, seq - seq // 8:] = 0  # padded tail: the mask must matter
        return [ids, mask]

    return build, inputs


# name -> builder. All of them run in CI: on 2 cores the four export in ~45 s, compile in ~20 s
# and run in seconds (tests/models/CMakeLists.txt).
MODELS = {
    "mobilenet_v3_small": _keras("MobileNetV3Small", 224),
    "resnet50": _keras("ResNet50", 224),
    "bert_base": _flax_text("bert", 12, 128),
    "gpt2": _flax_text("gpt2", 12, 64),
}


def _tensor_type(shape, dtype):
    element = {"float32": "f32", "int32": "i32", "int64": "i64", "uint32": "ui32"}[str(dtype)]
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def export(name, out_dir, weights_mode, seed, suffix=""):
    import jax
    import jax.numpy as jnp

    build, make_inputs = MODELS[name]
    init_params, forward, calibrate = build()
    spec = zoo_weights.spec_of([np.asarray(p) for p in init_params], seed)
    params = zoo_weights.generate(spec)
    if calibrate:
        batch = np.concatenate(make_inputs(np.random.default_rng(seed + 2)) * 4)
        calibrated = calibrate([jnp.asarray(p) for p in params], jnp.asarray(batch))
        for i, (old, new) in enumerate(zip(params, calibrated)):
            if not np.array_equal(old, np.asarray(new)):  # measured, not drawn: stored as values
                params[i] = np.asarray(new)
                spec["tensors"][i] = zoo_weights.literal(params[i])
    spec["sha256"] = zoo_weights.digest(params)
    inputs = make_inputs(np.random.default_rng(seed + 1))

    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, name)
    expected = np.asarray(jax.jit(forward)([jnp.asarray(p) for p in params],
                                           *[jnp.asarray(x) for x in inputs]))
    if weights_mode == "const":
        constants = [jnp.asarray(p) for p in params]
        lowered = jax.jit(lambda *xs: forward(constants, *xs)).lower(*inputs)
    else:
        offsets = np.cumsum([0] + [p.size if zoo_weights.is_weight(p) else 0 for p in params])

        def flat_forward(flat, *xs):
            unflat = [flat[offsets[i]:offsets[i + 1]].reshape(p.shape).astype(p.dtype)
                      if zoo_weights.is_weight(p) else jnp.asarray(p) for i, p in enumerate(params)]
            return forward(unflat, *xs)

        flat = jax.ShapeDtypeStruct((int(offsets[-1]),), jnp.float32)
        lowered = jax.jit(flat_forward).lower(flat, *inputs)
    if weights_mode == "params":
        # One argument per weight tensor, and a wrapper @run that loads each from a parameter
        # archive (scope "model", key "p<i>", as iree-turbine's externalized globals are) and
        # calls @main: the layout of a model whose weights live outside the module.
        weights = [i for i, p in enumerate(params) if zoo_weights.is_weight(p)]

        def split_forward(ws, *xs):
            full = [jnp.asarray(p) for p in params]
            for k, i in enumerate(weights):
                full[i] = ws[k]
            return forward(full, *xs)

        lowered = jax.jit(split_forward, keep_unused=True).lower(  # one argument per global
            [jax.ShapeDtypeStruct(params[i].shape, params[i].dtype) for i in weights], *inputs)
        text = str(lowered.compiler_ir("stablehlo")).rstrip()
        assert text.endswith("}"), "a module's text ends with its closing brace"
        wrapper = []
        for k, i in enumerate(weights):
            wrapper.append(f'  util.global private @p{i} = #stream.parameter.named<"model"::"p{i}"> : '
                           f'{_tensor_type(params[i].shape, params[i].dtype)}')
        x_types = [_tensor_type(x.shape, x.dtype) for x in inputs]
        y_type = _tensor_type(expected.shape, expected.dtype)
        args = ", ".join(f"%x{j}: {t}" for j, t in enumerate(x_types))
        wrapper.append(f"  func.func public @run({args}) -> {y_type} {{")
        for i in weights:
            wrapper.append(f"    %p{i} = util.global.load @p{i} : {_tensor_type(params[i].shape, params[i].dtype)}")
        operands = [f"%p{i}" for i in weights] + [f"%x{j}" for j in range(len(inputs))]
        types = [_tensor_type(params[i].shape, params[i].dtype) for i in weights] + x_types
        wrapper.append(f"    %y = func.call @main({', '.join(operands)}) : ({', '.join(types)}) -> {y_type}")
        wrapper.append(f"    return %y : {y_type}")
        wrapper.append("  }")
        with open(base + suffix + ".mlir", "w") as f:
            f.write(text[:-1] + "\n".join(wrapper) + "\n}\n")
        import iree.runtime as rt  # IREE's own archive writer, as a user would run it
        index = rt.ParameterIndex()
        for i in weights:
            index.add_buffer(f"p{i}", np.ascontiguousarray(params[i]).tobytes())
        index.create_archive_file(base + suffix + ".irpa")
    else:
        with open(base + suffix + ".mlir", "w") as f:
            f.write(str(lowered.compiler_ir("stablehlo")))
    if suffix:
        return
    for i, x in enumerate(inputs):
        np.save(f"{base}.input{i}.npy", x)
    np.save(base + ".expected.npy", expected)
    with open(base + ".weights.json", "w") as f:
        json.dump(spec, f)
    print(f"{name}: {len(params)} weight tensors, {sum(p.size for p in params)} values; "
          f"output {expected.shape} {expected.dtype}")


def prepare(name, out_dir, compiler, flags, seed, weights_mode="const"):
    """Export + compile, skipped when a stamp of everything that shapes the output matches (the
    build trees of scripts/test.sh share OUT_DIR, so the zoo is made once per checkout)."""
    import importlib.metadata as metadata

    here = os.path.dirname(os.path.abspath(__file__))
    key = hashlib.sha256()
    for script in ("zoo.py", "zoo_weights.py"):
        with open(os.path.join(here, script), "rb") as f:
            key.update(f.read())
    for package in ("jax", "jaxlib", "keras", "flax", "transformers", "numpy"):
        key.update(f"{package}={metadata.version(package)}\n".encode())
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout
    key.update(f"{name} {seed} {weights_mode} {version} {flags}\n".encode())
    with open("/proc/cpuinfo", "rb") as f:  # flags may say target-cpu=host
        key.update(b"".join(l for l in f.read().splitlines(True) if l.startswith(b"flags"))[:4096])
    # The params variant (NAME.params.vmfb + NAME.params.irpa) reuses the const variant's inputs
    # and reference, so it runs after it (a ctest fixture) and writes only its own files.
    suffix = ".params" if weights_mode == "params" else ""
    stamp = os.path.join(out_dir, name + suffix + ".stamp")
    vmfb = os.path.join(out_dir, name + suffix + ".vmfb")
    if os.path.exists(stamp) and os.path.exists(vmfb):
        with open(stamp) as f:
            if f.read() == key.hexdigest():
                print(f"{name}: up to date ({vmfb})")
                return
    export(name, out_dir, weights_mode, seed, suffix)
    source = os.path.join(out_dir, name + suffix + ".mlir")
    proc = subprocess.run([compiler, *flags, source, "-o", vmfb], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"iree-compile failed on {source}:\n{proc.stderr[-4000:]}")
    os.remove(source)  # hundreds of MB of hex text; the stamp keeps it from being needed again
    with open(stamp, "w") as f:
        f.write(key.hexdigest())
    print(f"{name}: compiled {vmfb} ({os.path.getsize(vmfb)} bytes)")


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list")
    p = sub.add_parser("export")
    p.add_argument("name", choices=sorted(MODELS))
    p.add_argument("out")
    p.add_argument("--weights", choices=["const", "arg", "params"], default="const")
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("prepare")
    p.add_argument("name", choices=sorted(MODELS))
    p.add_argument("out")
    p.add_argument("--compiler", required=True)
    p.add_argument("--weights", choices=["const", "params"], default="const")
    p.add_argument("--flag", action="append", default=[], help="an iree-compile flag")
    p.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.command == "prepare":
        prepare(args.name, args.out, args.compiler, args.flag, args.seed, args.weights)
        return
    if args.command == "list":
        print("\n".join(MODELS))
        return
    export(args.name, args.out, args.weights, args.seed)


if __name__ == "__main__":
    main()
