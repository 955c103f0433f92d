#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Ranks as processes on the CPU: iree-rt-run processes of one SPMD program meet through a
rendezvous file and a shared-memory channel (hal/utils/shm_channel.h).

usage: processes_test.py IREE_RT_RUN PROGRAM_DIR   (PROGRAM_DIR holds collectives_spmd{2,4}.vmfb)

Checks: 2 and 4 ranks on local-task and local-sync give the results computed here; a rank whose
process is killed while the others wait makes them fail within seconds naming it; a rank that never
starts makes the others fail after their timeout; ranks launched as by mpirun without an MPI
library fail saying so; nothing is left in /dev/shm.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

SLOT_BYTES = 0  # when set, IREE_RT_SHM_SLOT_BYTES for the ranks: collectives cut into pieces


def launch(run, module, device, function, inputs, env=None):
    if env is None and SLOT_BYTES:
        env = dict(os.environ, IREE_RT_SHM_SLOT_BYTES=str(SLOT_BYTES))
    return subprocess.Popen([run, f"--module={module}", f"--device={device}", f"--function={function}"] +
                            [f"--input={i}" for i in inputs], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)


def result_line(out):
    lines = [l for l in out.splitlines() if "xf32=" in l or "xi32=" in l]
    return lines[-1] if lines else ""


def run_ranks(run, program_dir, ranks, driver, function, inputs_of, timeout_ms=20000):
    with tempfile.TemporaryDirectory() as tmp:
        rendezvous = os.path.join(tmp, "rendezvous")
        procs = [launch(run, os.path.join(program_dir, f"collectives_spmd{ranks}.vmfb"),
                        f"{driver}://?rank={r}&ranks={ranks}&rendezvous=file:{rendezvous}"
                        f"&collective_timeout_ms={timeout_ms}", function, inputs_of(r))
                 for r in range(ranks)]
        return [p.communicate(timeout=120) + (p.returncode,) for p in procs]


def check(condition, message, failures):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def shm_entries():
    return {e for e in os.listdir("/dev/shm") if e.startswith("iree_rt.")} if os.path.isdir("/dev/shm") else set()


def main():
    run, program_dir = sys.argv[1], sys.argv[2]
    failures = []
    before = shm_entries()
    for driver in ("local-task", "local-sync"):
        for ranks in (2, 4):
            results = run_ranks(run, program_dir, ranks, driver, "all_reduce_sum", lambda r: [f"8xf32={r + 1}"])
            total = sum(range(1, ranks + 1))
            want = "8xf32=" + " ".join([str(total)] * 8)
            check(all(rc == 0 and result_line(out) == want for out, _, rc in results),
                  f"{driver} {ranks} processes all_reduce -> {want}: "
                  f"{[result_line(o) or e.strip()[-200:] for o, e, _ in results]}", failures)
        results = run_ranks(run, program_dir, 4, driver, "ring_shift", lambda r: [f"4xf32={r + 1}"])
        want = [f"4xf32={' '.join([str(r)] * 4)}" for r in range(4)]  # rank r gets rank r-1's r; rank 0 zeros
        check([result_line(o) for o, _, _ in results] == want,
              f"{driver} 4 processes send/recv ring: {[result_line(o) for o, _, _ in results]}", failures)
        results = run_ranks(run, program_dir, 2, driver, "all_gather", lambda r: [f"3xf32={r + 1}"])
        check(all(result_line(o) == "6xf32=1 1 1 2 2 2" for o, _, _ in results),
              f"{driver} 2 processes all_gather: {[result_line(o) for o, _, _ in results]}", failures)

    # Slots smaller than the collectives: every kind runs in pieces and gives the same results.
    global SLOT_BYTES
    SLOT_BYTES = 8
    results = run_ranks(run, program_dir, 2, "local-task", "all_reduce_sum", lambda r: [f"8xf32={r + 1}"])
    check(all(result_line(o) == "8xf32=3 3 3 3 3 3 3 3" for o, _, _ in results),
          f"8-byte slots: all_reduce in 4 pieces: {[result_line(o) or e[-200:] for o, e, _ in results]}", failures)
    results = run_ranks(run, program_dir, 2, "local-task", "all_gather", lambda r: [f"3xf32={r + 1}"])
    check(all(result_line(o) == "6xf32=1 1 1 2 2 2" for o, _, _ in results),
          f"8-byte slots: all_gather in 2 pieces: {[result_line(o) or e[-200:] for o, e, _ in results]}", failures)
    results = run_ranks(run, program_dir, 4, "local-task", "ring_shift", lambda r: [f"4xf32={r + 1}"])
    check([result_line(o) for o, _, _ in results] == [f"4xf32={' '.join([str(r)] * 4)}" for r in range(4)],
          f"8-byte slots: send/recv in 2 pieces: {[result_line(o) for o, _, _ in results]}", failures)
    SLOT_BYTES = 16
    values = lambda r: [f"8xf32={' '.join(str(10 * r + i) for i in range(8))}"]
    results = run_ranks(run, program_dir, 4, "local-task", "reduce_scatter", values)
    want = [f"2xf32={sum(10 * k + 2 * r for k in range(4))} {sum(10 * k + 2 * r + 1 for k in range(4))}"
            for r in range(4)]
    check([result_line(o) for o, _, _ in results] == want,
          f"16-byte slots: reduce_scatter in 2 pieces: {[result_line(o) for o, _, _ in results]} want {want}",
          failures)
    results = run_ranks(run, program_dir, 4, "local-task", "all_to_all", values)
    want = [f"8xf32={' '.join(str(10 * k + 2 * r + j) for k in range(4) for j in range(2))}" for r in range(4)]
    check([result_line(o) for o, _, _ in results] == want,
          f"16-byte slots: all_to_all in 2 pieces: {[result_line(o) for o, _, _ in results]} want {want}",
          failures)
    SLOT_BYTES = 0

    # A rank killed while the other waits for it: the survivor fails within seconds, naming it.
    with tempfile.TemporaryDirectory() as tmp:
        rendezvous = os.path.join(tmp, "rendezvous")
        module = os.path.join(program_dir, "collectives_spmd2.vmfb")
        # Rank 1 blocks at a send to rank 0 that rank 0 never receives (rank 0 runs all_reduce), so
        # it is alive and attached when it is killed; rank 0 waits at the all_reduce.
        device = "local-task://?rank={}&ranks=2&rendezvous=file:" + rendezvous + "&collective_timeout_ms=60000"
        survivor = launch(run, module, device.format(0), "all_reduce_sum", ["8xf32=1"])
        victim = launch(run, module, device.format(1), "ring_shift", ["4xf32=2"])
        time.sleep(1.5)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        start = time.time()
        out, err, = survivor.communicate(timeout=60)
        elapsed = time.time() - start
        check(survivor.returncode != 0 and "rank 1" in err and elapsed < 10,
              f"killed peer: rank 0 fails in {elapsed:.1f} s naming rank 1: {err.strip()[:300]}", failures)

    # A rank that never starts: the other fails after its timeout, DEADLINE_EXCEEDED.
    with tempfile.TemporaryDirectory() as tmp:
        rendezvous = os.path.join(tmp, "rendezvous")
        start = time.time()
        lonely = launch(run, os.path.join(program_dir, "collectives_spmd2.vmfb"),
                        f"local-task://?rank=0&ranks=2&rendezvous=file:{rendezvous}&collective_timeout_ms=500",
                        "all_reduce_sum", ["8xf32=1"])
        out, err = lonely.communicate(timeout=60)
        check(lonely.returncode != 0 and "DEADLINE_EXCEEDED" in err and "never arrived" in err and
              time.time() - start < 10, f"absent peer: {err.strip()[:300]}", failures)

    # Launched as by mpirun (ranks from OMPI_COMM_WORLD_*), the default rendezvous is MPI: without
    # an MPI library that fails saying so (IREE_RT_MPI_LIBRARY names one that does not exist).
    env = dict(os.environ, OMPI_COMM_WORLD_RANK="0", OMPI_COMM_WORLD_SIZE="2",
               IREE_RT_MPI_LIBRARY="/nonexistent/libmpi.so")
    no_mpi = launch(run, os.path.join(program_dir, "collectives_spmd2.vmfb"), "local-task", "all_reduce_sum",
                    ["8xf32=1"], env=env)
    out, err = no_mpi.communicate(timeout=60)
    if "no MPI library" in err or no_mpi.returncode == 0:
        check(no_mpi.returncode != 0 and "no MPI library could be loaded" in err,
              f"mpirun-style launch without MPI: {err.strip()[:200]}", failures)
    else:
        print(f"skip the no-MPI case: this machine has an MPI library ({err.strip()[:200]})")

    leftover = shm_entries() - before
    check(not leftover, f"nothing left in /dev/shm ({sorted(leftover)})", failures)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
