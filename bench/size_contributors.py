#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The largest contributors to a library, from `nm --size-sort -S -C` of the unstripped file.

Usage: size_contributors.py LIBRARY [N]. Every symbol is charged to the component its qualified
name lives in (iree_rt::drivers::cpu -> drivers/cpu, iree_rt_* C functions -> api, std:: ->
libstdc++ templates); prints the N largest with their bytes, symbol count and share of all
symbol bytes. (No bloaty here: symbols, not sections, and no source files in a Release build.)
"""
import collections
import re
import subprocess
import sys

COMPONENTS = [  # longest prefix first
    ("iree_rt::drivers::cuda", "drivers/cuda"), ("iree_rt::cuda_fb", "drivers/cuda"),
    ("iree_rt::drivers::cpu", "drivers/cpu"), ("iree_rt::drivers", "drivers"),
    ("iree_rt::vm::bytecode", "vm/bytecode"), ("iree_rt::vm", "vm"),
    ("iree_rt::hal::utils", "hal/utils"), ("iree_rt::hal", "hal"),
    ("iree_rt::modules::hal", "modules/hal"), ("iree_rt::modules::io_parameters", "modules/io_parameters"),
    ("iree_rt::modules::check", "modules/check"), ("iree_rt::modules::vmvx", "modules/vmvx"),
    ("iree_rt::base::trace", "base (tracer)"), ("iree_rt::base", "base"),
    ("iree_rt::io", "io"), ("iree_rt::session", "session"), ("iree_rt::api", "api"),
    ("iree_rt::tooling", "tooling"), ("iree_rt_", "api"), ("std::", "libstdc++ templates"),
    ("__gnu_cxx::", "libstdc++ templates"), ("flatbuffers::", "flatbuffers"),
]


def qualified_name(name):
    for prefix in ("vtable for ", "typeinfo name for ", "typeinfo for ", "guard variable for ",
                   "construction vtable for ", "VTT for "):
        if name.startswith(prefix):
            name = name[len(prefix):]
    name = name.replace("(anonymous namespace)", "anon")
    name = re.sub(r"\{lambda\([^{}]*\)#\d+\}", "lambda", name)
    # Drop template arguments, then the parameter list; the last word is the qualified name
    # (what comes before it is a return type).
    while True:
        stripped = re.sub(r"<[^<>]*>", "", name)
        if stripped == name:
            break
        name = stripped
    name = name.split("(", 1)[0].strip()
    return name.split(" ")[-1] if name else name


def component(name):
    q = qualified_name(name)
    for prefix, label in COMPONENTS:
        if q.startswith(prefix):
            return label
    return "other"


def main():
    library = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    out = subprocess.run(["nm", "--size-sort", "-S", "-C", library], check=True,
                         capture_output=True, text=True).stdout
    sizes, symbols = collections.Counter(), collections.Counter()
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) < 4:
            continue
        size = int(parts[1], 16)
        label = component(parts[3])
        sizes[label] += size
        symbols[label] += 1
    total = sum(sizes.values())
    print(f"  {'component':<24} {'bytes':>9} {'symbols':>8} {'share':>6}")
    for label, size in sizes.most_common(count):
        print(f"  {label:<24} {size:>9} {symbols[label]:>8} {100.0 * size / total:>5.1f}%")
    print(f"  {'(all symbols)':<24} {total:>9} {sum(symbols.values()):>8}")


if __name__ == "__main__":
    main()
