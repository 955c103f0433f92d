#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs the collectives on a multi-GPU machine from bench/collectives/build_payload.sh's payload:
# the SPMD test on 2 (and 4, where there are 4 GPUs) CUDA devices in graph and stream modes, one
# process driving all GPUs; two iree-rt-run processes meeting through a rendezvous file; and the
# all-reduce bandwidth benchmark. NCCL comes from PyTorch's wheel (nvidia/nccl/lib).
set -u
PAYLOAD=$(cd "${1:-.gpu/coll}" && pwd)
OUT=${OUT:-/tmp/coll}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
NCCL_DIR=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))" 2>/dev/null)
export LD_LIBRARY_PATH="$PAYLOAD/lib:${NCCL_DIR}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "NCCL from: ${NCCL_DIR:-not found}" | tee "$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$OUT/summary.txt"
GPUS=$(nvidia-smi -L | wc -l)
export IREE_RT_COLLECTIVES_DIR=$PAYLOAD/programs
for mode in ${TEST_MODES:-graph stream}; do
  export IREE_RT_COLLECTIVES_URI="cuda://{rank}?command_buffer_mode=$mode"
  filter='*2ranks*:CollectivesTest.*'
  [[ $GPUS -ge 4 ]] && filter='*'
  timeout 300 "$PAYLOAD/bin/collectives_test" --gtest_filter="$filter" > "$OUT/test_$mode.log" 2>&1
  echo "collectives_test $mode exit=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/test_$mode.log" | tr '\n' ' ')" \
    | tee -a "$OUT/summary.txt"
  grep -E '^\[  FAILED  \]' "$OUT/test_$mode.log" | sort -u | head -20 | tee -a "$OUT/summary.txt"
done
# Two processes, one GPU each, meeting through a file (as under mpirun with rendezvous=file:).
rm -f "$OUT/rendezvous"
for rank in 0 1; do
  timeout 120 "$PAYLOAD/bin/iree-rt-run" --module="$PAYLOAD/programs/collectives_spmd2.vmfb" \
    "--device=cuda://$rank?rank=$rank&ranks=2&rendezvous=file:$OUT/rendezvous" \
    --function=all_reduce_sum --input="8xf32=$((rank + 1))" > "$OUT/process$rank.log" 2>&1 &
done
wait
for rank in 0 1; do echo "process $rank: $(tr '\n' ' ' < "$OUT/process$rank.log")" | tee -a "$OUT/summary.txt"; done
# The same traced (issue 24): each rank's trace has the all-reduce as a device span ("collective")
# inside its command buffer, in graph and stream mode.
for mode in graph stream; do
  rm -f "$OUT/rendezvous_t"
  for rank in 0 1; do
    timeout 120 "$PAYLOAD/bin/iree-rt-run" --module="$PAYLOAD/programs/collectives_spmd2.vmfb" \
      "--device=cuda://$rank?rank=$rank&ranks=2&rendezvous=file:$OUT/rendezvous_t&command_buffer_mode=$mode" \
      --function=all_reduce_sum --input="8xf32=$((rank + 1))" --trace="$OUT/trace_${mode}_$rank.json" \
      > "$OUT/trace_${mode}_$rank.log" 2>&1 &
  done
  wait
  for rank in 0 1; do
    echo "traced $mode rank $rank: $(tail -1 "$OUT/trace_${mode}_$rank.log") $(python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
x = [e for e in ev if e["ph"] == "X" and e["pid"] == 2]
coll = [e for e in x if e.get("cat") == "collective"]
cbs = [e for e in x if e["name"] == "command buffer"]
inside = all(any(c["ts"] <= e["ts"] and e["ts"] + e["dur"] <= c["ts"] + c["dur"] for c in cbs) for e in coll)
print("collective spans:", [(e["name"], e["dur"]) for e in coll], "inside a command buffer:", inside)
' "$OUT/trace_${mode}_$rank.json" 2>&1)" | tee -a "$OUT/summary.txt"
  done
done
# A peer killed while both wait in NCCL's kernels (rank 1 waits to receive what rank 0 never sends,
# rank 0 in an all-reduce rank 1 never joins): rank 0's watchdog aborts the communicator after its
# 3 s timeout and the call fails, instead of hanging.
rm -f "$OUT/rendezvous2"
start=$(date +%s.%N)
timeout 60 "$PAYLOAD/bin/iree-rt-run" --module="$PAYLOAD/programs/collectives_spmd2.vmfb" \
  "--device=cuda://0?rank=0&ranks=2&rendezvous=file:$OUT/rendezvous2&collective_timeout_ms=3000" \
  --function=all_reduce_sum --input=8xf32=1 > "$OUT/survivor.log" 2>&1 &
survivor=$!
timeout 60 "$PAYLOAD/bin/iree-rt-run" --module="$PAYLOAD/programs/collectives_spmd2.vmfb" \
  "--device=cuda://1?rank=1&ranks=2&rendezvous=file:$OUT/rendezvous2&collective_timeout_ms=60000" \
  --function=ring_shift --input=4xf32=2 > "$OUT/victim.log" 2>&1 &
victim=$!
sleep 2; kill -9 $victim 2>/dev/null; wait $victim 2>/dev/null
wait $survivor; rc=$?
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
echo "killed peer: survivor exit=$rc after ${elapsed}s: $(head -c 300 "$OUT/survivor.log" | tr '\n' ' ')" | tee -a "$OUT/summary.txt"
# The same under mpirun: ranks from OMPI_COMM_WORLD_*, the GPU of the local rank, the NCCL id
# through MPI; IREE's iree-run-module the same way when it is in the payload's sibling folder.
IREE_RUN=${IREE_RUN:-$PAYLOAD/../iree/iree-run-module}
if command -v mpirun > /dev/null; then
  for tool in "$PAYLOAD/bin/iree-rt-run" "$IREE_RUN"; do
    [[ -x $tool ]] || continue
    timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE "$tool" \
      --device=cuda --module="$PAYLOAD/programs/collectives_spmd2.vmfb" --function=all_reduce_sum \
      --input=8xf32=1 > "$OUT/mpirun.log" 2>&1
    echo "mpirun $(basename $tool) exit=$?: $(grep -c '8xf32=2 2 2 2 2 2 2 2' "$OUT/mpirun.log") of 2 ranks print 8xf32=2" \
      | tee -a "$OUT/summary.txt"
    grep -i "error\|fail" "$OUT/mpirun.log" | head -5 | tee -a "$OUT/summary.txt"
  done
else
  echo "mpirun: not installed" | tee -a "$OUT/summary.txt"
fi
# A program for 2 devices of one process on 2 GPUs (no collectives: transfers between devices).
mapfile -t md_inputs < "$PAYLOAD/programs/multi_device2.inputs"
for tool in "$PAYLOAD/bin/iree-rt-run" "$IREE_RUN"; do
  [[ -x $tool ]] || continue
  timeout 120 "$tool" --module="$PAYLOAD/programs/multi_device2.cuda.vmfb" --device=cuda://0 --device=cuda://1 \
    --function=sharded_matmul "${md_inputs[@]}" > "$OUT/multi_device.out" 2> "$OUT/multi_device.err"
  rc=$?
  if cmp -s "$OUT/multi_device.out" "$PAYLOAD/programs/multi_device2.expected"; then same=yes; else same=NO; fi
  echo "multi-device (2 GPUs) $(basename $tool) exit=$rc, output equal to IREE's CPU run: $same $(head -c 300 "$OUT/multi_device.err")" \
    | tee -a "$OUT/summary.txt"
done
[[ -n ${SKIP_BENCH:-} ]] && exit 0
if [[ -x "$PAYLOAD/bin/iree-rt-allreduce-bandwidth" ]]; then
  for mode in ${BANDWIDTH_MODES:-graph stream}; do
    timeout 300 "$PAYLOAD/bin/iree-rt-allreduce-bandwidth" --ranks="$GPUS" --mode=$mode > "$OUT/bandwidth_$mode.txt" 2>&1
    echo "bandwidth $mode exit=$?" | tee -a "$OUT/summary.txt"
    cat "$OUT/bandwidth_$mode.txt" | tee -a "$OUT/summary.txt"
  done
fi
for ranks in 2 4; do
  [[ $ranks -le $GPUS ]] || continue
  timeout 300 "$PAYLOAD/bin/iree-rt-tp-mlp" --whole="$PAYLOAD/programs/tp_mlp1.vmfb" \
    --sharded="$PAYLOAD/programs/tp_mlp$ranks.vmfb" --ranks=$ranks > "$OUT/tp_mlp$ranks.txt" 2>&1
  echo "tp_mlp $ranks exit=$?" | tee -a "$OUT/summary.txt"
  cat "$OUT/tp_mlp$ranks.txt" | tee -a "$OUT/summary.txt"
done
