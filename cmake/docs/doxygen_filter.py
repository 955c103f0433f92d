#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Doxygen INPUT_FILTER for include/iree_rt.h, whose comments are plain `//` (house style).

Line for line (so Doxygen's line numbers stay right):
  - the header's opening comment (the rules that hold for every function) becomes the file's
    documentation (`/** \\file ... */`);
  - each section banner (`// ===` / `// Title` / `// ===`) becomes a `\\name` group heading, and
    the comment right after it the group's description;
  - a comment block directly followed by a declaration becomes that declaration's documentation
    (`///`); other comments stay plain.
"""
import re
import sys


def main():
    lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
    out = list(lines)
    n = len(lines)
    is_comment = [l.lstrip().startswith("//") for l in lines]
    banner = [bool(re.match(r"\s*// ={10,}\s*$", l)) for l in lines]

    # The opening comment: from line 2 (after the SPDX line) to the first non-comment line.
    end = 0
    while end < n and is_comment[end]:
        end += 1
    if end > 1:
        out[0] = "/** \\file iree_rt.h"
        for i in range(1, end):
            text = lines[i][2:]
            out[i] = "" if banner[i] else text.replace("*/", "* /")
        out[end - 1] = out[end - 1] + " */"

    i = end
    in_group = False
    while i < n:
        if banner[i] and i + 2 < n and banner[i + 2]:
            title = lines[i + 1].lstrip()[2:].strip()
            out[i] = "/** @}*/" if in_group else ""
            out[i + 1] = "/** \\name " + title
            out[i + 2] = " * @{ */"
            in_group = True
            i += 3
            continue
        if is_comment[i]:
            start = i
            while i < n and is_comment[i] and not banner[i]:
                i += 1
            follows = lines[i] if i < n else ""
            if follows.strip() and not follows.lstrip().startswith("#endif"):
                for j in range(start, i):
                    out[j] = re.sub(r"^(\s*)//", r"\1///", lines[j], count=1)
            continue
        i += 1
    if in_group:
        # Close the last group before the header guard's end.
        for k in range(n - 1, -1, -1):
            if lines[k].startswith("#endif"):
                out[k] = "/** @}*/ " + lines[k]
                break
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
