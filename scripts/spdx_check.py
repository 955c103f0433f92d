#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks that every source file we own carries the project's SPDX license line.

  python3 scripts/spdx_check.py [repository root]          lists the files without it; exit 1 if any
  python3 scripts/spdx_check.py --fix [repository root]     adds it where missing
  python3 scripts/spdx_check.py --self-test                 checks this checker on a scratch tree

The line is `SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception` in the file's comment
syntax, on the first line, or on the second after a `#!` line (a shebang must stay first).
Checked: the folders in ROOTS and the top-level CMakeLists.txt, files whose name or extension is
in COMMENT. Not checked: data (fuzz corpora and regressions, .npy, .vmfb, expected-output .txt),
documentation (.md), and build trees. Run by ctest as `license_spdx` and `license_spdx_self_test`
(label "abi").
"""
import os
import subprocess
import sys
import tempfile

LICENSE = "Apache-2.0 WITH LLVM-exception"
TAG = "SPDX-License-Identifier: " + LICENSE

ROOTS = ["src", "include", "tools", "tests", "bindings", "bench", "scripts", "samples", "cmake"]
TOP_LEVEL_FILES = ["CMakeLists.txt"]
# Data, not source: the fuzzers' inputs are read byte for byte.
SKIP_DIRS = {"tests/fuzz/corpus", "tests/fuzz/regressions", "bench/results"}

# Comment syntax by file name suffix (longest match first) or exact name.
COMMENT = {
    ".cc": ("// ", ""), ".h": ("// ", ""), ".cpp": ("// ", ""), ".inc": ("// ", ""),
    ".cc.in": ("// ", ""), ".def": ("// ", ""), ".c": ("/* ", " */"),
    ".java": ("// ", ""), ".cs": ("// ", ""), ".i": ("// ", ""), ".mlir": ("// ", ""),
    ".fbs": ("// ", ""),
    ".py": ("# ", ""), ".sh": ("# ", ""), ".cmake": ("# ", ""), ".cmake.in": ("# ", ""),
    ".pc.in": ("# ", ""), ".symbols": ("# ", ""), "CMakeLists.txt": ("# ", ""),
}


def comment_style(name):
    if name in COMMENT:
        return COMMENT[name]
    for suffix in sorted((s for s in COMMENT if s.startswith(".")), key=len, reverse=True):
        if name.endswith(suffix):
            return COMMENT[suffix]
    return None


def source_files(root):
    for top in ROOTS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
            dirnames[:] = sorted(d for d in dirnames
                                 if f"{rel_dir}/{d}" not in SKIP_DIRS and not d.startswith("."))
            for name in sorted(filenames):
                if comment_style(name):
                    yield f"{rel_dir}/{name}"
    for name in TOP_LEVEL_FILES:
        if os.path.exists(os.path.join(root, name)):
            yield name


def has_tag(lines):
    """Whether the tag is on line 1, or on line 2 after a shebang (which must stay first)."""
    if len(lines) > 1 and lines[1].startswith("#!"):
        return False  # a shebang pushed off the first line no longer works
    if lines and TAG in lines[0]:
        return True
    return len(lines) > 1 and lines[0].startswith("#!") and TAG in lines[1]


def fix(path, rel):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start, end = comment_style(os.path.basename(rel))
    line = f"{start}{TAG}{end}\n"
    if text.startswith("#!"):
        first, _, rest = text.partition("\n")
        text = first + "\n" + line + rest
    else:
        text = line + text
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def self_test():
    """Runs this script on a scratch tree: it must flag what lacks the line and fix it right."""
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)

        def check(*extra):
            return subprocess.run([sys.executable, __file__, *extra, root],
                                  capture_output=True, text=True)

        write("src/good.cc", f"// {TAG}\nint x;\n")
        write("scripts/good.sh", f"#!/bin/sh\n# {TAG}\necho\n")
        write("tests/fuzz/corpus/x/seed", "no license in data\n")
        write("docs.md", "not checked\n")
        if check().returncode != 0:
            return "a tree where every file has the line failed the check"
        cases = {
            "src/bad.h": "#pragma once\n",
            "scripts/bad.py": "#!/usr/bin/env python3\nprint()\n",
            "samples/bad.c": "int main(void) { return 0; }\n",
            "tests/x/CMakeLists.txt": "add_test(x)\n",
            "scripts/moved_shebang.sh": f"# {TAG}\n#!/bin/sh\n",
        }
        for rel, text in cases.items():
            write(rel, text)
        result = check()
        flagged = {line.split(":")[0] for line in result.stdout.splitlines()}
        if result.returncode != 1 or not set(cases) <= flagged:
            return f"missing lines not all flagged: {result.stdout}"
        os.remove(os.path.join(root, "scripts/moved_shebang.sh"))
        if check("--fix").returncode != 0 or check().returncode != 0:
            return "--fix did not leave a tree that passes"
        with open(os.path.join(root, "scripts/bad.py"), encoding="utf-8") as f:
            if f.read().split("\n")[:2] != ["#!/usr/bin/env python3", f"# {TAG}"]:
                return "--fix did not keep the shebang first"
        with open(os.path.join(root, "samples/bad.c"), encoding="utf-8") as f:
            if not f.read().startswith(f"/* {TAG} */\n"):
                return "--fix used the wrong comment syntax for C"
    return None


def main(argv):
    if "--self-test" in argv:
        error = self_test()
        print(f"spdx_check self-test: {error or 'passed'}")
        return 1 if error else 0
    do_fix = "--fix" in argv
    args = [a for a in argv if a != "--fix"]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    missing = []
    count = 0
    for rel in source_files(root):
        count += 1
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n", 2)[:2]
        if has_tag(lines):
            continue
        if do_fix:
            fix(path, rel)
            print(f"added: {rel}")
        else:
            missing.append(rel)
    if missing:
        for rel in missing:
            print(f"{rel}: no '{TAG}' on its first line (second after '#!')")
        print(f"spdx_check: {len(missing)} of {count} source files lack the license line "
              f"(scripts/spdx_check.py --fix adds it)")
        return 1
    print(f"spdx_check: all {count} source files carry '{TAG}'")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
