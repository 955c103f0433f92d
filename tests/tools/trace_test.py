#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks the tools' --trace file, --print_statistics and --dispatch_statistics on a real program.

usage: trace_test.py IREE_RT_RUN --dispatches=N|dump:IREE_DUMP_MODULE [--host_span=NAME ...] [--perfetto]
                     -- FLAGS...

Runs `IREE_RT_RUN FLAGS` without tracing, with --trace=FILE, and with IREE_RT_TRACE=FILE, and
checks that:
  - stdout is the same in the three runs (tracing changes no result);
  - each trace is strict JSON ({"traceEvents": [...], "displayTimeUnit": "ns"}, no NaN);
  - every event has name/ph/pid/tid, every "X" has ts >= 0 and dur >= 0, every "C" a numeric
    value, and "X" events nest on each track (one inside another ends before it);
  - every process and every track with events is named by "M" metadata;
  - the program's N dispatches (--dispatches, from its compiled form) appear exactly N times
    on device tracks (process "devices"), each with positive duration, inside a "command
    buffer" span of the same track (or, for a lane of concurrent work "<track> (concurrent N)",
    of that track), and named by their export with the workgroup count;
  - the workers' spans ("workgroups", local-task) lie inside a dispatch of their export;
  - each command buffer span is entered by a flow ("s" on the submitting host thread, "f" at
    the span's start) with a unique id;
  - the host track has the invoked function and its hal.device.queue.* and hal.fence.await
    (and every --host_span NAME, e.g. io_parameters.load);
  - --print_statistics reports a non-zero peak, per memory type too (DEVICE_LOCAL's non-zero), and --dispatch_statistics counts N dispatches.
--perfetto: instead, loads the trace with the perfetto package's trace processor and checks the
slice count; prints "SKIPPED: ..." (ctest skips) when the package is missing.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(tool, flags, env=None):
    result = subprocess.run([tool] + flags, capture_output=True, text=True, timeout=300, env=env)
    if result.returncode != 0:
        fail("%s exited with %d\n--- stdout\n%s--- stderr\n%s" %
             (" ".join([tool] + flags), result.returncode, result.stdout, result.stderr))
    return result


def reject_constant(name):
    raise ValueError("non-standard JSON constant " + name)


def load_trace(path):
    with open(path, encoding="utf-8") as f:
        try:
            trace = json.load(f, parse_constant=reject_constant)
        except ValueError as e:
            fail("%s is not strict JSON: %s" % (path, e))
    if not isinstance(trace, dict) or set(trace) != {"traceEvents", "displayTimeUnit"}:
        fail("the top level must be {traceEvents, displayTimeUnit}")
    if trace["displayTimeUnit"] != "ns" or not isinstance(trace["traceEvents"], list):
        fail("displayTimeUnit must be 'ns' and traceEvents a list")
    return trace["traceEvents"]


def ns(value):
    # ts and dur are microseconds with three decimals: whole nanoseconds.
    return round(value * 1000)


def check_trace(events, dispatches, function, host_spans=()):
    names = {}  # (pid, tid) -> thread name; (pid, None) -> process name
    spans = {}  # (pid, tid) -> [(start, end, event)]
    flows = {"s": {}, "f": {}}  # phase -> id -> event
    for e in events:
        for key in ("name", "ph", "pid", "tid"):
            if key not in e:
                fail("event without %r: %s" % (key, e))
        if e["ph"] == "M":
            if e["name"] == "process_name":
                names[(e["pid"], None)] = e["args"]["name"]
            elif e["name"] == "thread_name":
                names[(e["pid"], e["tid"])] = e["args"]["name"]
            continue
        if not isinstance(e.get("ts"), (int, float)) or e["ts"] < 0:
            fail("event with a bad ts: %s" % e)
        if e["ph"] in ("s", "f"):
            if not isinstance(e.get("id"), int) or e["id"] in flows[e["ph"]]:
                fail("flow event without a unique id: %s" % e)
            flows[e["ph"]][e["id"]] = e
            continue
        if e["ph"] == "C":
            if not e.get("args") or not all(isinstance(v, (int, float)) for v in e["args"].values()):
                fail("counter without numeric values: %s" % e)
            continue
        if e["ph"] != "X":
            fail("unexpected phase %r: %s" % (e["ph"], e))
        if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
            fail("X event with a bad dur: %s" % e)
        start = ns(e["ts"])
        spans.setdefault((e["pid"], e["tid"]), []).append((start, start + ns(e["dur"]), e))

    for (pid, tid), track in spans.items():
        if (pid, None) not in names:
            fail("process %d has no process_name" % pid)
        if (pid, tid) not in names:
            fail("track %d/%d has no thread_name" % (pid, tid))
        track.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end, e in track:
            while stack and start >= stack[-1][1]:
                stack.pop()
            if stack and end > stack[-1][1]:
                fail("on track %r, %r [%d, %d] overlaps %r [%d, %d] without nesting" %
                     (names[(pid, tid)], e["name"], start, end, stack[-1][2]["name"],
                      stack[-1][0], stack[-1][1]))
            stack.append((start, end, e))

    for flow_id, end in flows["f"].items():
        start = flows["s"].get(flow_id)
        if start is None or ns(start["ts"]) > ns(end["ts"]):
            fail("flow %d ends without starting before: %s" % (flow_id, end))
        on_track = spans.get((end["pid"], end["tid"]), [])
        if not any(b[0] == ns(end["ts"]) and b[2]["name"] == "command buffer" for b in on_track):
            fail("flow %d does not enter a command buffer span: %s" % (flow_id, end))

    device_pids = [pid for (pid, tid), name in names.items() if tid is None and name == "devices"]
    if len(device_pids) != 1:
        fail("no single 'devices' process: %s" % names)
    found = 0
    # A device's concurrent work may sit on extra lanes ("<queue> (concurrent N)"), inside the
    # command buffers of the queue's own track.
    by_name = {name: key for key, name in names.items() if key[1] is not None}
    for (pid, tid), track in spans.items():
        if pid != device_pids[0]:
            continue
        base = by_name.get(names[(pid, tid)].split(" (concurrent ")[0], (pid, tid))
        buffers = [s for s in spans.get(base, []) if s[2]["name"] == "command buffer"]
        for start, end, e in track:
            if e.get("cat") != "dispatch":
                continue
            found += 1
            if end <= start:
                fail("dispatch %r has no duration" % e["name"])
            if not any(b[0] <= start and end <= b[1] for b in buffers):
                fail("dispatch %r is outside every command buffer span of its track" % e["name"])
            args = e.get("args", {})
            if not args.get("executable") or len(args.get("workgroup_count", [])) != 3:
                fail("dispatch %r lacks its executable or workgroup count" % e["name"])
    if found != dispatches:
        fail("%d dispatches on the device tracks, the program runs %d" % (found, dispatches))
    # Workers' spans (local-task): each inside a dispatch of the same export, with its workgroups.
    dispatch_spans = [s for (pid, tid), track in spans.items() if pid == device_pids[0]
                      for s in track if s[2].get("cat") == "dispatch"]
    for (pid, tid), track in spans.items():
        for start, end, e in track:
            if e.get("cat") != "workgroups":
                continue
            if not e.get("args", {}).get("workgroups"):
                fail("workers' span %r lacks its workgroup count" % e["name"])
            if not any(d[2]["name"] == e["name"] and d[0] <= start and end <= d[1] for d in dispatch_spans):
                fail("workers' span %r on %r is outside every dispatch of that export" %
                     (e["name"], names[(pid, tid)]))

    host = [e["name"] for (pid, tid), track in spans.items() if pid != device_pids[0]
            for _, _, e in track]
    if not any(name.endswith("." + function) for name in host):
        fail("no host span for the invoked function @%s: %s" % (function, sorted(set(host))))
    if not any(name.startswith("hal.device.queue.execute") for name in host):
        fail("no hal.device.queue.execute span on the host")
    for name in ("hal.fence.await",) + tuple(host_spans):
        if name not in host:
            fail("no %s span on the host" % name)
    buffers = sum(1 for (pid, tid), track in spans.items() if pid == device_pids[0]
                  for _, _, e in track if e["name"] == "command buffer")
    if len(flows["f"]) != buffers:
        fail("%d command buffer spans but %d submit flows enter them" % (buffers, len(flows["f"])))
    print("trace OK: %d events, %d tracks, %d dispatches, %d flows" %
          (len(events), len(spans), found, len(flows["f"])))


def check_perfetto(path, expected_slices):
    try:
        from perfetto.trace_processor import TraceProcessor
    except ImportError:
        print("SKIPPED: the perfetto package is not installed (pip install perfetto)")
        return 0
    try:
        tp = TraceProcessor(trace=path)
    except Exception as e:  # the package fetches its trace_processor_shell on first use
        print("SKIPPED: perfetto's trace processor cannot start here: %s" % e)
        return 0
    rows = list(tp.query("select count(*) as n from slice"))
    tp.close()
    if rows[0].n != expected_slices:
        fail("perfetto reads %d slices, the file has %d X events" % (rows[0].n, expected_slices))
    print("perfetto OK: %d slices" % rows[0].n)
    return 0


def main():
    argv = sys.argv[1:]
    split = argv.index("--")
    tool, options, flags = argv[0], argv[1:split], argv[split + 1:]
    dispatches = next(o for o in options if o.startswith("--dispatches="))[13:]
    if dispatches.startswith("dump:"):
        # Counted in IREE's own disassembly (iree-dump-module) of the --module: straight-line
        # programs whose command buffers each run once per call.
        module = next(f[9:] for f in flags if f.startswith("--module="))
        listing = subprocess.run([dispatches[5:], module], capture_output=True, text=True, check=True).stdout
        dispatches = listing.count("vm.call.variadic @hal.command_buffer.dispatch")
        if not dispatches:
            fail("no dispatch in the disassembly of " + module)
    dispatches = int(dispatches)
    function = next((f[11:] for f in flags if f.startswith("--function=")), None)
    host_spans = [o[12:] for o in options if o.startswith("--host_span=")]
    with tempfile.TemporaryDirectory() as tmp:
        flag_trace = os.path.join(tmp, "flag.json")
        if "--perfetto" in options:
            run(tool, flags + ["--trace=" + flag_trace])
            events = load_trace(flag_trace)
            return check_perfetto(flag_trace, sum(1 for e in events if e["ph"] == "X"))
        plain = run(tool, flags)
        traced = run(tool, flags + ["--trace=" + flag_trace])
        env_trace = os.path.join(tmp, "env.json")
        env = dict(os.environ, IREE_RT_TRACE=env_trace)
        from_env = run(tool, flags, env=env)
        if not (plain.stdout == traced.stdout == from_env.stdout):
            fail("stdout differs with tracing on:\n%s\n%s\n%s" %
                 (plain.stdout, traced.stdout, from_env.stdout))
        if function is None:
            match = re.search(r"^EXEC @(\S+)$", plain.stdout, re.M)
            function = match.group(1) if match else "?"
        for path in (flag_trace, env_trace):
            if not os.path.exists(path):
                fail("no trace file written at " + path)
            check_trace(load_trace(path), dispatches, function, host_spans)

        stats = run(tool, flags + ["--print_statistics", "--dispatch_statistics"])
        if stats.stdout != plain.stdout:
            fail("stdout differs with the statistics flags")
        peaks = [int(m) for m in re.findall(r"^\[statistics\] device .*peak (\d+) B", stats.stderr, re.M)]
        if not peaks or max(peaks) == 0:
            fail("--print_statistics reports no non-zero peak:\n" + stats.stderr)
        typed = dict((name, int(peak)) for name, peak in re.findall(
            r"^\[statistics\]   (DEVICE_LOCAL|HOST_LOCAL): live \d+ B, peak (\d+) B", stats.stderr, re.M))
        if set(typed) != {"DEVICE_LOCAL", "HOST_LOCAL"} or typed["DEVICE_LOCAL"] == 0:
            fail("--print_statistics lacks the per-type lines or a device-local peak:\n" + stats.stderr)
        if sum(typed.values()) < max(peaks):
            fail("the per-type peaks cannot add up to less than the total peak:\n" + stats.stderr)
        counts = [int(m) for m in re.findall(r"^\[dispatch\] \S+ count=(\d+) ", stats.stderr, re.M)]
        if sum(counts) != dispatches:
            fail("--dispatch_statistics counts %d dispatches, the program runs %d:\n%s" %
                 (sum(counts), dispatches, stats.stderr))
        for line in re.findall(r"^\[dispatch\] \S+ count=.*$", stats.stderr, re.M):
            values = dict(kv.split("=") for kv in line.split()[2:])
            lo, mean, hi = float(values["min_us"]), float(values["mean_us"]), float(values["max_us"])
            if not (0 < lo <= mean <= hi):
                fail("implausible dispatch times: " + line)
        alias = run(tool, flags + ["--print_device_statistics"])  # IREE's name for it
        alias_counts = [int(m) for m in re.findall(r"^\[dispatch\] \S+ count=(\d+) ", alias.stderr, re.M)]
        if sum(alias_counts) != dispatches:
            fail("--print_device_statistics counts %d dispatches, the program runs %d" % (sum(alias_counts), dispatches))
        print("statistics OK:\n" + stats.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
