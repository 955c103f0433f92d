#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs the cuda driver's tests on a GPU machine from a prebuilt payload (no build tools needed):
#   <payload>/bin/{rt_conformance_cuda,rt_conformance_cuda_queue,rt_cuda_driver_test,iree-rt-check}
#   <payload>/lib/libiree_rt.so*   <payload>/testdata/*.bin   <payload>/e2e/*.vmfb
# Logs and a summary go to $OUT (default /tmp/cuda_device_test). Usage:
#   scripts/cuda_device_test.sh [payload=.gpu/cuda] [sections=cts,driver,e2e,memcheck,bench,zoo,params,paramzoo,loadbw,trace,traceoverhead]
set -u
PAYLOAD=$(cd "${1:-.gpu/cuda}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
SECTIONS=${2:-cts,driver,e2e,memcheck,bench}
OUT=${OUT:-/tmp/cuda_device_test}
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
: > "$SUMMARY"
export LD_LIBRARY_PATH="$PAYLOAD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export RT_CTS_CUDA_EXECUTABLES_DIR="$PAYLOAD/testdata"
export RT_CUDA_TEST_PROGRAMS_DIR="$PAYLOAD/runs"

nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"

# run_bounded SECONDS LOG CMD...: runs CMD with output to LOG; if it is still running after
# SECONDS, appends every thread's backtrace (gdb or cuda-gdb) to LOG, kills it and returns 124.
run_bounded() {
  local limit=$1 log=$2; shift 2
  "$@" > "$log" 2>&1 &
  local pid=$! waited=0
  while kill -0 $pid 2>/dev/null && [[ $waited -lt $limit ]]; do sleep 1; waited=$((waited + 1)); done
  if kill -0 $pid 2>/dev/null; then
    local debugger=$(command -v gdb || command -v cuda-gdb || echo /usr/local/cuda/bin/cuda-gdb)
    echo "=== still running after ${limit}s: backtraces" >> "$log"
    timeout 60 "$debugger" -batch -p $pid -ex "thread apply all bt 25" >> "$log" 2>&1
    kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
    return 124
  fi
  wait $pid
}

gtest_summary() {  # <name> <log>
  local passed skipped failed
  passed=$(grep -Eo '^\[  PASSED  \] [0-9]+' "$2" | grep -Eo '[0-9]+' | tail -1)
  skipped=$(grep -Eo '^\[  SKIPPED \] [0-9]+' "$2" | grep -Eo '[0-9]+' | tail -1)
  failed=$(grep -Eo '^\[  FAILED  \] [0-9]+ test' "$2" | grep -Eo '[0-9]+' | tail -1)
  echo "$1: passed=${passed:-0} skipped=${skipped:-0} failed=${failed:-0}" | tee -a "$SUMMARY"
  grep -E '^\[  FAILED  \] [A-Za-z]' "$2" | sort -u | head -60 | tee -a "$SUMMARY"
}

if [[ $SECTIONS == *cts* ]]; then
  for binary in rt_conformance_cuda rt_conformance_cuda_queue; do
    run_bounded "${CTS_TIMEOUT:-110}" "$OUT/$binary.log" "$PAYLOAD/bin/$binary"
    echo "$binary exit=$?" >> "$SUMMARY"
    gtest_summary "$binary" "$OUT/$binary.log"
    # Per backend and recording mode: cases by outcome (parameter suffix of the test name).
    for backend in cuda_stream cuda_graph cuda_stream_sync_alloc; do
      for mode in "" _direct _indirect; do
        count() { grep -E "^\[ +$1 +\] [^ ]*/${backend}${mode}( |$)" "$OUT/$binary.log" | sort -u | wc -l; }
        ok=$(count OK); skipped=$(count SKIPPED); failed=$(count FAILED)
        [[ $((ok + skipped + failed)) -gt 0 ]] &&
          echo "  ${backend}${mode:-(no mode)}: passed=$ok skipped=$skipped failed=$failed" | tee -a "$SUMMARY"
      done
    done
  done
fi

if [[ $SECTIONS == *driver* ]]; then
  timeout 120 "$PAYLOAD/bin/rt_cuda_driver_test" > "$OUT/rt_cuda_driver_test.log" 2>&1
  echo "rt_cuda_driver_test exit=$?" >> "$SUMMARY"
  gtest_summary rt_cuda_driver_test "$OUT/rt_cuda_driver_test.log"
  if [[ -x "$PAYLOAD/bin/cuda_executable_test" ]]; then
    timeout 60 "$PAYLOAD/bin/cuda_executable_test" > "$OUT/cuda_executable_test.log" 2>&1
    echo "cuda_executable_test exit=$?" >> "$SUMMARY"
    gtest_summary cuda_executable_test "$OUT/cuda_executable_test.log"
  fi
  grep "INFO" "$OUT/rt_cuda_driver_test.log" | tee -a "$SUMMARY"
fi

if [[ $SECTIONS == *e2e* ]]; then
  : > "$OUT/e2e.log"
  # Stream command buffers (the default) and CUDA graphs.
  for device in ${E2E_DEVICES:-cuda cuda://0?command_buffer_mode=stream}; do
    pass=0; fail=0; expected_fail=0; unexpected=()
    for module in "$PAYLOAD"/e2e/*.vmfb; do
      name=$(basename "$module" .vmfb)
      run_bounded 30 "$OUT/e2e_one.log" "$PAYLOAD/bin/iree-rt-check" --device="$device" --module="$module"
      rc=$?
      { echo "=== $device $name rc=$rc"; cat "$OUT/e2e_one.log"; } >> "$OUT/e2e.log"
      if [[ $name == *negative* ]]; then
        if [[ $rc -ne 0 ]]; then expected_fail=$((expected_fail + 1)); else unexpected+=("$name(passed)"); fi
      elif [[ $rc -eq 0 ]]; then
        pass=$((pass + 1))
      else
        fail=$((fail + 1)); unexpected+=("$name(rc=$rc)")
      fi
    done
    # A program as iree-import-onnx writes it (dispatches named "main_graph$async_dispatch_...").
    if [[ -f "$PAYLOAD/runs/onnx_relu_slice_cuda.vmfb" ]]; then
      run_bounded 30 "$OUT/e2e_one.log" "$PAYLOAD/bin/iree-rt-run" --device="$device" \
        --module="$PAYLOAD/runs/onnx_relu_slice_cuda.vmfb" \
        "--input=2x8xf32=-1 2 -3 4 -5 6 -7 8 9 -10 11 -12 13 -14 15 -16" \
        "--expected_output=2x4xf32=0 4 0 6 11 0 13 0"
      rc=$?
      { echo "=== $device onnx_relu_slice rc=$rc"; cat "$OUT/e2e_one.log"; } >> "$OUT/e2e.log"
      if [[ $rc -eq 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); unexpected+=("onnx_relu_slice(rc=$rc)"); fi
    fi
    echo "e2e $device: passed=$pass failed=$fail negative_failed_as_expected=$expected_fail" | tee -a "$SUMMARY"
    for u in "${unexpected[@]}"; do echo "  unexpected: $u" | tee -a "$SUMMARY"; done
  done
  rm -f "$OUT/e2e_one.log"
fi

if [[ $SECTIONS == *memcheck* ]]; then
  SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  if [[ -x $SANITIZER ]]; then
    : > "$OUT/memcheck.log"
    for binary in rt_conformance_cuda rt_conformance_cuda_queue; do
      timeout "${MEMCHECK_TIMEOUT:-100}" "$SANITIZER" --tool memcheck --leak-check no --error-exitcode 99 \
        "$PAYLOAD/bin/$binary" --gtest_brief=1 > "$OUT/memcheck_one.log" 2>&1
      rc=$?
      cat "$OUT/memcheck_one.log" >> "$OUT/memcheck.log"
      echo "memcheck $binary (all backends) exit=$rc" | tee -a "$SUMMARY"
      grep -E 'ERROR SUMMARY' "$OUT/memcheck_one.log" | tail -1 | tee -a "$SUMMARY"
      gtest_summary "memcheck $binary" "$OUT/memcheck_one.log"
    done
    rm -f "$OUT/memcheck_one.log"
  else
    echo "memcheck: compute-sanitizer not found" | tee -a "$SUMMARY"
  fi
fi
if [[ $SECTIONS == *bench* && -x "$PAYLOAD/bin/iree-rt-benchmark" ]]; then
  # ms per call (median of 3 runs): compare with docs/facts_corrections.md (IREE 3.13.0's own
  # runtime: add 0.118-0.131 ms, matmul_4096 35.3 ms, on an H200).
  : > "$OUT/bench.log"
  for device in "cuda" "cuda://0?command_buffer_mode=stream"; do
    for workload in add matmul_4096; do
      if [[ $workload == add ]]; then ins=(--input="4xf32=1 2 3 4" --input="4xf32=10 20 30 40");
      else ins=(--input=4096x4096xf32=0.5 --input=4096x4096xf32=0.25); fi
      runs=()
      for rep in 1 2 3; do
        timeout 60 "$PAYLOAD/bin/iree-rt-benchmark" --module="$PAYLOAD/bench/$workload.vmfb" \
          --function="$workload" "${ins[@]}" --device="$device" --benchmark_min_time=1 \
          >> "$OUT/bench.log" 2>&1
        ms=$(grep -E "^BM_|^$workload" "$OUT/bench.log" | tail -1 | awk '{print $2, $3}')
        runs+=("$ms")
      done
      echo "bench $workload $device: ${runs[*]}" | tee -a "$SUMMARY"
    done
  done
fi
# The model zoo (bench/cuda/build_payload.sh puts it in $PAYLOAD/zoo): weights drawn here from each
# .weights.json, then each model under IREE's runtime and ours in graph and stream mode: same bytes
# and within tolerance of JAX's output. Needs IREE's iree-run-module: IREE_RUN_MODULE or .gpu/iree.
IREE_RUN_MODULE=${IREE_RUN_MODULE:-$PAYLOAD/../iree/iree-run-module}
if [[ $SECTIONS == *zoo* ]]; then
  if [[ ! -d $PAYLOAD/zoo || ! -x $IREE_RUN_MODULE ]]; then
    echo "zoo: skipped (no $PAYLOAD/zoo or no IREE iree-run-module at $IREE_RUN_MODULE)" | tee -a "$SUMMARY"
  else
    HERE=$(cd "$(dirname "$0")" && pwd)
    for spec in "$PAYLOAD"/zoo/*.weights.json; do
      model=${spec%.weights.json}
      python3 "$HERE/../tests/models/zoo_weights.py" "$spec" "$model.weights.npy" >> "$OUT/zoo.log" 2>&1
      for mode in graph stream; do
        use_streams=false; [[ $mode == stream ]] && use_streams=true
        line=$(python3 "$HERE/../tests/models/check_model.py" --ours "$PAYLOAD/bin/iree-rt-run" \
          --theirs "$IREE_RUN_MODULE" --model "$model" --module "$model.cuda.vmfb" --device cuda \
          --ours-device "cuda://0?command_buffer_mode=$mode" --theirs-flag=--cuda_use_streams=$use_streams 2>&1)
        echo "zoo $mode: rc=$? $line" | tee -a "$SUMMARY"
      done
    done
  fi
fi
# Traces on the GPU (issue 24): tests/tools/trace_test.py's strict checks on zoo models in graph
# and stream mode (each dispatch once on the device track, positive, inside its command buffer,
# entered by its submission's flow; stdout unchanged by tracing), with the dispatch count each
# program records (build_payload.sh counts it in IREE's disassembly). Then what tracing costs.
if [[ $SECTIONS == *trace* && -d $PAYLOAD/zoo ]]; then
  HERE=$(cd "$(dirname "$0")" && pwd)
  # ResNet-50 is left out: iree-compile 3.13.0's CUDA program gives different bytes from run to run
  # in IREE's runtime and ours (bench/results/models_cuda.txt), so "the same stdout" cannot hold.
  for model in ${TRACE_MODELS:-mobilenet_v3_small bert_base}; do
    Z=$PAYLOAD/zoo/$model
    [[ -f $Z.weights.npy ]] || python3 "$HERE/../tests/models/zoo_weights.py" "$Z.weights.json" "$Z.weights.npy" \
      >> "$OUT/trace.log" 2>&1
    for mode in graph stream; do
      line=$(python3 "$HERE/../tests/tools/trace_test.py" "$PAYLOAD/bin/iree-rt-run" --dispatches="$(cat "$Z.dispatches")" \
        -- "--device=cuda://0?command_buffer_mode=$mode" --module="$Z.cuda.vmfb" --function=main \
        --input=@"$Z.weights.npy" $(for i in "$Z".input*.npy; do echo --input=@"$i"; done) 2>&1)
      rc=$?
      echo "$line" >> "$OUT/trace.log"
      echo "trace $model $mode: rc=$rc $(echo "$line" | grep -E '^(trace OK|FAIL)' | head -2 | tr '\n' ' ')" | tee -a "$SUMMARY"
    done
    if [[ $model == mobilenet_v3_small ]]; then
      # A trace to look at (README's CUDA picture).
      "$PAYLOAD/bin/iree-rt-run" --device=cuda --module="$Z.cuda.vmfb" --function=main --input=@"$Z.weights.npy" \
        --input=@"$Z.input0.npy" --trace="$OUT/mobilenet_v3_small.cuda.trace.json" > /dev/null 2>&1
    fi
  done
  if [[ $SECTIONS == *traceoverhead* ]]; then
    [[ -f $PAYLOAD/zoo/resnet50.weights.npy ]] || python3 "$HERE/../tests/models/zoo_weights.py" \
      "$PAYLOAD/zoo/resnet50.weights.json" "$PAYLOAD/zoo/resnet50.weights.npy" >> "$OUT/trace.log" 2>&1
    python3 "$HERE/../bench/trace_overhead.py" --models "$PAYLOAD/zoo" --ours "$PAYLOAD/bin" --pairs 5 \
      --only mobilenet_v3_small --only resnet50 --device "cuda|cuda://0?command_buffer_mode=graph" \
      --device "cuda|cuda://0?command_buffer_mode=stream" 2>&1 | tee -a "$SUMMARY"
  fi
fi
# External weights through io_parameters on the GPU: each function of the parameters program
# with archives from three writers, ours in every --parameter_mode against IREE's output.
if [[ $SECTIONS == *params* && -d $PAYLOAD/params && -x $IREE_RUN_MODULE ]]; then
  P=$PAYLOAD/params
  for call in "main|--input=1x2xf32=1 1" "padded|--input=4xi32=0" "splat|--input=4xf32=0" \
              "splat64|--input=3xi64=0"; do
    fn=${call%%|*}; in=${call#*|}
    for archive in model.irpa model.safetensors; do
      args=(--module="$P/parameters.cuda.vmfb" --function="$fn" "$in" --parameters="$P/unscoped.irpa"
            --parameters=model="$P/$archive")
      theirs=$("$IREE_RUN_MODULE" --device=cuda "${args[@]}" 2>&1 | tail -1)
      for mode in mmap preload file; do
        for dev in "cuda://0?command_buffer_mode=graph" "cuda://0?command_buffer_mode=stream"; do
          ours=$("$PAYLOAD/bin/iree-rt-run" --device="$dev" "${args[@]}" --parameter_mode=$mode 2>&1 | tail -1)
          verdict=FAIL; [[ "$ours" == "$theirs" ]] && verdict=same
          echo "params $fn $archive $mode $dev: $verdict (ours '$ours', IREE '$theirs')" | tee -a "$SUMMARY"
        done
      done
    done
  done
fi
# GPT-2 with its weights in a safetensors archive drawn here from the spec: ours (each mode, graph
# and stream) against IREE's runtime on the same file, then the time to first result.
if [[ $SECTIONS == *paramzoo* && -d $PAYLOAD/zoo_params && -x $IREE_RUN_MODULE ]]; then
  Z=$PAYLOAD/zoo_params
  [[ -f $Z/gpt2.safetensors ]] || python3 "$HERE/../tests/models/zoo_weights.py" "$Z/gpt2.weights.json" \
    "$Z/gpt2.safetensors" >> "$OUT/paramzoo.log" 2>&1
  for mode in mmap preload file; do
    for cb in graph stream; do
      line=$(python3 "$HERE/../tests/models/check_model.py" --ours "$PAYLOAD/bin/iree-rt-run" \
        --theirs "$IREE_RUN_MODULE" --model "$Z/gpt2" --module "$Z/gpt2.params.cuda.vmfb" --device cuda \
        --ours-device "cuda://0?command_buffer_mode=$cb" --flag=--function=run \
        --flag=--parameters=model="$Z/gpt2.safetensors" --ours-flag=--parameter_mode=$mode 2>&1)
      echo "paramzoo $mode $cb: rc=$? $line" | tee -a "$SUMMARY"
    done
  done
  python3 "$HERE/../bench/parameters/first_result.py" --model "$Z/gpt2" --vmfb "$Z/gpt2.params.cuda.vmfb" \
    --archive "$Z/gpt2.safetensors" --ours "$PAYLOAD/bin" --iree "$(dirname "$IREE_RUN_MODULE")" \
    --device cuda --runs 3 2>&1 | tee -a "$OUT/first_result.txt" | tee -a "$SUMMARY"
fi
# Parameter load bandwidth into device memory against a raw cuMemcpyHtoDAsync loop.
if [[ $SECTIONS == *loadbw* ]]; then
  "$PAYLOAD/bin/iree-rt-load-bandwidth" --device=cuda --mib=2048 --runs=5 2>&1 | tee -a "$SUMMARY"
fi
cat "$SUMMARY"
