# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Keeps the pictures of the layout in step with the code (run by layering.py).

Three checks:
  - every file path a map names in backticks (README.md, docs/architecture.md, src/**/README.md)
    exists: `a/b.cc`, `x.{h,cc}`, `executable{,_cache}.{h,cc}`, `file.cc: Function`;
  - every source file of a driver is named in that driver's README.md table;
  - the layer table of docs/architecture.md lists, for each component, exactly what LAYERS lets it
    include.
"""

import os
import re

FILE_TOKEN = re.compile(r"^[\w./+-]+\.(?:h|cc|c|inc|in|py|sh|md|fbs|txt|i|java|cs|mlir|cmake)$")
# Names the maps use that are not ours: system and SDK headers.
EXTERNAL = {"cuda.h", "nccl.h"}
SEARCH_TOPS = ("src", "tools", "tests", "bench", "bindings", "scripts", "cmake", "samples", "include", "docs")


def expand_braces(token):
    match = re.search(r"\{([^{}]*)\}", token)
    if not match:
        return [token]
    out = []
    for choice in match.group(1).split(","):
        out += expand_braces(token[:match.start()] + choice + token[match.end():])
    return out


def backticked_files(text):
    for raw in re.findall(r"`([^`\n]+)`", text):
        token = raw.split(":")[0].strip()  # `file.cc: Function`
        if "<" in token or token in EXTERNAL or token.startswith("."):
            continue
        paths = [p for p in expand_braces(token) if FILE_TOKEN.match(p)]
        if paths:
            yield raw, paths


def repo_files(root):
    """Every file of the trees the maps talk about, as paths relative to root."""
    paths = set(os.listdir(root))
    for top in SEARCH_TOPS:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(dirpath, root).replace(os.sep, "/")
            paths.update(f"{rel}/{f}" for f in files)
    return paths


def check_paths(root, doc, errors):
    text = open(os.path.join(root, doc), encoding="utf-8").read()
    here = os.path.dirname(os.path.join(root, doc))
    known = repo_files(root)
    for raw, paths in backticked_files(text):
        for path in paths:
            # A path is read from the map's folder, the root or src/; a shorter one (a file of a
            # driver named inside its walk) may be the tail of any path.
            found = any(os.path.exists(os.path.join(base, path))
                        for base in (here, root, os.path.join(root, "src")))
            found = found or any(k == path or k.endswith("/" + path) for k in known)
            if not found:
                errors.append(f"{doc}: `{raw}` names {path}, which does not exist")


def check_driver_tables(root, errors):
    drivers = os.path.join(root, "src", "drivers")
    for name in sorted(os.listdir(drivers)):
        folder = os.path.join(drivers, name)
        readme = os.path.join(folder, "README.md")
        if not os.path.isfile(readme):
            continue
        named = set()
        for _, paths in backticked_files(open(readme, encoding="utf-8").read()):
            named.update(paths)
        for dirpath, _, files in os.walk(folder):
            for file in files:
                if not file.endswith((".h", ".cc", ".fbs")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, file), folder).replace(os.sep, "/")
                if rel not in named and file not in named:
                    errors.append(f"src/drivers/{name}/README.md: its table does not name {rel}")


def check_layer_table(root, layers, errors):
    text = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    registrations = {k for v in layers.values() for k in v if k.endswith("/registration.h")}
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        components = [c.rstrip("/") for c in re.findall(r"`([^`]+)`", cells[0])]
        components = [c for c in components if c in layers]
        if not components:
            continue
        may = set(re.findall(r"`([^`]+)`", cells[2]))
        if "each driver's" in cells[2]:
            may = (may - {"registration.h"}) | registrations
        for component in components:
            allowed = set(may)
            if "its own folder" in cells[2]:
                allowed.add(component)
            if cells[2].startswith("also"):
                parent = component.rsplit("/", 1)[0]
                allowed |= rows.get(parent, set())
            rows[component] = allowed
    for component, prefixes in layers.items():
        if component not in rows:
            errors.append(f"docs/architecture.md: the layer table has no row for {component}/")
        elif rows[component] != set(prefixes):
            errors.append(f"docs/architecture.md: the row of {component}/ says it may include "
                          f"{sorted(rows[component])}; layering.py says {sorted(prefixes)}")


def check(root, layers):
    errors = []
    docs = ["README.md", "docs/architecture.md"]
    for dirpath, _, files in os.walk(os.path.join(root, "src")):
        if "README.md" in files:
            docs.append(os.path.relpath(os.path.join(dirpath, "README.md"), root).replace(os.sep, "/"))
    for doc in docs:
        check_paths(root, doc, errors)
    check_driver_tables(root, errors)
    check_layer_table(root, layers, errors)
    return len(docs), errors
