#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks iree-rt-trace (tools/iree-rt-trace) on the trace of a real compiled program.

usage: trace_tool_test.py IREE_RT_TRACE IREE_RT_RUN [--module_required=PATH] -- RUN_FLAGS...

Runs `IREE_RT_RUN RUN_FLAGS --trace=FILE` (--module_required: prints "SKIPPED: ..." when that file
is missing, for the model zoo's programs), then checks that:
  - `summarize` lists every dispatched export once with the count, total, min and max of the
    file's "dispatch" events (the JSON read by Python), the dispatch total, every track, and a
    wall span equal to the file's;
  - `png` writes a PNG that decodes: the signature, chunk CRCs, IHDR (8-bit RGB) with the size the
    tool printed, IDAT inflating to height * (1 + width * 3) bytes with a known filter per row,
    IEND last; and that the picture is not blank;
  - a bare array of events (ONNX Runtime's form) is read too;
  - bad inputs (truncated JSON, valid JSON that is not a trace, an event without its time, binary
    bytes, an empty file, a missing file, bad flags) exit non-zero without a crash and name the
    problem;
  - a synthetic trace of 200,000 events is summarized in reasonable time.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
import zlib


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(cmd, expect_ok=True, timeout=300):
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if result.returncode < 0:
        fail("%s crashed (signal %d)\n%s" % (" ".join(cmd), -result.returncode, result.stderr))
    if expect_ok and result.returncode != 0:
        fail("%s exited with %d\n--- stdout\n%s--- stderr\n%s" %
             (" ".join(cmd), result.returncode, result.stdout, result.stderr))
    return result


def dispatch_stats(events):
    stats = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "dispatch":
            s = stats.setdefault(e["name"], [0, 0.0, float("inf"), 0.0])
            s[0] += 1
            s[1] += e["dur"]
            s[2] = min(s[2], e["dur"])
            s[3] = max(s[3], e["dur"])
    return stats


def check_summary(tool, path, events):
    out = run([tool, "summarize", "--top=1000", path]).stdout
    expected = dispatch_stats(events)
    rows = {}
    for m in re.finditer(r"^ +(\d+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+)%  (\S+)$",
                         out, re.M):
        count, total, mean, lo, hi, share, name = m.groups()
        if name in rows:
            fail("export %s listed twice:\n%s" % (name, out))
        rows[name] = (int(count), float(total), float(lo), float(hi))
    if set(rows) != set(expected):
        fail("summary exports %s, the file dispatches %s:\n%s" %
             (sorted(rows), sorted(expected), out))
    for name, (count, total, lo, hi) in rows.items():
        want = expected[name]
        if count != want[0]:
            fail("summary counts %d dispatches of %s, the file has %d" % (count, name, want[0]))
        for got, exp, what in ((total, want[1], "total"), (lo, want[2], "min"), (hi, want[3], "max")):
            if abs(got - exp) > 0.0015 + 1e-6 * exp:
                fail("%s of %s: summary %.3f us, file %.3f us" % (what, name, got, exp))
    totals = [t for _, t, _, _ in rows.values()]
    if totals != sorted(totals, reverse=True):
        fail("exports are not sorted by total time:\n" + out)
    header = re.search(r"^dispatches: (\d+) exports, (\d+) dispatches", out, re.M)
    if not header or int(header.group(2)) != sum(s[0] for s in expected.values()):
        fail("the dispatch header does not count the file's dispatches:\n" + out)
    spans = [(e["ts"], e["ts"] + e["dur"]) for e in events if e.get("ph") == "X"]
    wall_ms = (max(b for _, b in spans) - min(a for a, _ in spans)) / 1e3
    m = re.search(r"wall span ([\d.]+) ms", out)
    if not m or abs(float(m.group(1)) - wall_ms) > 0.0015:
        fail("wall span %s, the file spans %.3f ms:\n%s" % (m and m.group(1), wall_ms, out))
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e["name"] == "thread_name"}
    for key in {(e["pid"], e["tid"]) for e in events if e.get("ph") == "X"}:
        if not re.search(r"%\s+\S.* / " + re.escape(names[key]) + "$", out, re.M):
            fail("track %r is not in the summary:\n%s" % (names[key], out))
    if not re.search(r"^host functions", out, re.M) or "hal.fence.await" not in out:
        fail("no host functions in the summary:\n" + out)
    print("summary OK: %d exports, %d dispatches" % (len(rows), sum(r[0] for r in rows.values())))
    return out


def check_png(tool, trace, png):
    out = run([tool, "png", trace, png]).stdout
    m = re.search(r": (\d+)x(\d+) timeline", out)
    if not m:
        fail("png printed no size: " + out)
    width, height = int(m.group(1)), int(m.group(2))
    data = open(png, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("no PNG signature")
    pos, chunks, idat = 8, [], b""
    while pos < len(data):
        if pos + 12 > len(data):
            fail("truncated chunk at byte %d" % pos)
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            fail("bad CRC in chunk %r" % kind)
        chunks.append(kind)
        if kind == b"IHDR":
            w, h, depth, color, comp, filt, interlace = struct.unpack(">IIBBBBB", body)
            if (w, h) != (width, height) or (depth, color, comp, filt, interlace) != (8, 2, 0, 0, 0):
                fail("IHDR %s, the tool said %dx%d RGB" % ((w, h, depth, color), width, height))
        if kind == b"IDAT":
            idat += body
        pos += 12 + length
    if chunks[0] != b"IHDR" or chunks[-1] != b"IEND" or b"IDAT" not in chunks:
        fail("chunks out of order: %s" % chunks)
    raw = zlib.decompress(idat)
    row = 1 + width * 3
    if len(raw) != height * row:
        fail("IDAT inflates to %d bytes, not %d x %d" % (len(raw), height, row))
    if any(raw[y * row] > 4 for y in range(height)):
        fail("a row has an unknown filter type")
    pixels = set()
    for y in range(0, height, 3):
        line = raw[y * row + 1:(y + 1) * row]
        pixels.update(line[i:i + 3] for i in range(0, len(line), 3 * 7))
    if len(pixels) < 8:
        fail("the picture is nearly blank: %d colours" % len(pixels))
    print("png OK: %dx%d, %d bytes, %d colours sampled" % (width, height, len(data), len(pixels)))


def check_bad_inputs(tool, tmp, trace_text):
    cases = [
        ("truncated.json", trace_text[:len(trace_text) // 2], r"bad JSON at byte \d+: (unexpected end of text|unterminated)"),
        ("object.json", '{"name": "not a trace"}', r"not a trace: the object has no traceEvents member"),
        ("number.json", "42", r"not a trace: the file is not a JSON object or array"),
        ("items.json", "[1, 2]", r"not a trace: event 0 is not an object"),
        ("no_ts.json", '[{"name":"a","ph":"X","pid":1,"tid":1,"dur":1}]', r"event 0 has no numeric 'ts'"),
        ("no_dur.json", '{"traceEvents":[{"name":"a","ph":"X","pid":1,"tid":1,"ts":1}]}', r"event 0 has no numeric 'dur'"),
        ("end.json", '[{"ph":"E","pid":1,"tid":1,"ts":1}]', r"event 0 is an 'E' without a 'B'"),
        ("events.json", '{"traceEvents": {}}', r"traceEvents is not an array"),
        ("trailing.json", '[] []', r"trailing characters"),
        ("empty.json", "", r"the file is empty"),
        ("binary.json", "\x89PNG\r\n\x1a\n\x00\x00", r"not a trace"),
    ]
    for name, text, pattern in cases:
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="latin-1") as f:
            f.write(text)
        for cmd in ([tool, "summarize", path], [tool, "png", path, path + ".png"]):
            result = run(cmd, expect_ok=False)
            if result.returncode != 1 or not re.search(pattern, result.stderr):
                fail("%s: exit %d, stderr %r; expected exit 1 and /%s/" %
                     (" ".join(cmd), result.returncode, result.stderr, pattern))
            if os.path.exists(path + ".png"):
                fail("png wrote a file for a bad input: " + name)
    for cmd, code, pattern in (
            ([tool, "summarize", os.path.join(tmp, "missing.json")], 1, r"NOT_FOUND"),
            ([tool, "summarize"], 2, r"summarize takes one trace file"),
            ([tool, "summarize", "--top=0", "x.json"], 2, r"bad argument '--top=0'"),
            ([tool, "png", "x.json"], 2, r"png takes a trace file and an output file"),
            ([tool, "frobnicate"], 2, r"unknown command 'frobnicate'"),
            ([tool], 2, r"no command")):
        result = run(cmd, expect_ok=False)
        if result.returncode != code or not re.search(pattern, result.stderr):
            fail("%s: exit %d, stderr %r" % (" ".join(cmd), result.returncode, result.stderr))
    print("bad inputs OK: %d files, each refused with its problem" % len(cases))


def check_bare_array_and_size(tool, tmp):
    # ONNX Runtime's form: a bare array, string ids, no metadata; plus B/E pairs.
    events = [{"cat": "Node", "pid": "p", "tid": "t", "ph": "X", "ts": 10 * i, "dur": 5,
               "name": "node%d" % (i % 3), "args": {"op_name": "Conv"}} for i in range(30)]
    events += [{"ph": "B", "pid": 7, "tid": 1, "ts": 0, "name": "outer"},
               {"ph": "E", "pid": 7, "tid": 1, "ts": 400}]
    path = os.path.join(tmp, "bare.json")
    with open(path, "w") as f:
        json.dump(events, f)
    out = run([tool, "summarize", path]).stdout
    if not re.search(r"^ +10 +50\.000 +50\.000 +5\.000  node0$", out, re.M) or \
            not re.search(r"^ +1 +400\.000 +400\.000 +400\.000  outer$", out, re.M):
        fail("bare array summary wrong:\n" + out)

    # 200,000 events (about 30 MB): read in one pass, never as a parsed document.
    path = os.path.join(tmp, "big.json")
    with open(path, "w") as f:
        f.write('{"traceEvents":[\n{"name":"thread_name","ph":"M","pid":2,"tid":1,"args":{"name":"q"}},\n'
                '{"name":"process_name","ph":"M","pid":2,"tid":0,"args":{"name":"devices"}}')
        for i in range(200000):
            f.write(',\n{"ph":"X","pid":2,"tid":1,"name":"kernel_%d","ts":%d.250,"dur":1.500,'
                    '"cat":"dispatch","args":{"executable":"e","workgroup_count":[1,2,3]}}' % (i % 50, 2 * i))
        f.write('\n],"displayTimeUnit":"ns"}\n')
    start = time.monotonic()
    out = run([tool, "summarize", path]).stdout
    seconds = time.monotonic() - start
    if "50 exports, 200000 dispatches" not in out:
        fail("big trace summary wrong:\n" + out)
    run([tool, "png", path, path + ".png"])
    print("bare array OK; 200,000 events (%.1f MB) summarized in %.2f s" %
          (os.path.getsize(path) / 1e6, seconds))


def main():
    argv = sys.argv[1:]
    split = argv.index("--")
    tool, runner, options, flags = argv[0], argv[1], argv[2:split], argv[split + 1:]
    for o in options:
        if o.startswith("--module_required=") and not os.path.exists(o[18:]):
            print("SKIPPED: %s is missing (tests/models/zoo.py prepare)" % o[18:])
            return 0
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "run.json")
        run([runner] + flags + ["--trace=" + trace])
        text = open(trace, encoding="utf-8").read()
        events = json.loads(text)["traceEvents"]
        if not dispatch_stats(events):
            fail("the program dispatched nothing")
        print(check_summary(tool, trace, events))
        check_png(tool, trace, os.path.join(tmp, "run.png"))
        check_bad_inputs(tool, tmp, text)
        check_bare_array_and_size(tool, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
