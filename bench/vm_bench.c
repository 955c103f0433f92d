/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
// Times calls of a VM-bound function through the public C ABI: loads |module|, calls
// |function| with one i32 argument |n| until at least |min_seconds| have passed, and prints the
// mean wall time per call in milliseconds (the figure bench/vm_bench.sh compares with IREE).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "iree_rt.h"

static int Check(iree_rt_status_t status, const char* what) {
  if (!status) return 0;
  fprintf(stderr, "%s: %s\n", what, iree_rt_status_message(status));
  iree_rt_status_free(status);
  return 1;
}

static double Now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s MODULE.vmfb FUNCTION N MIN_SECONDS\n", argv[0]);
    return 2;
  }
  const int32_t n = atoi(argv[3]);
  const double min_seconds = atof(argv[4]);
  iree_rt_instance_t instance = NULL;
  iree_rt_module_t module = NULL;
  iree_rt_context_t context = NULL;
  iree_rt_function_t function = NULL;
  iree_rt_value_list_t args = NULL;
  iree_rt_value_list_t results = NULL;
  int failed = Check(iree_rt_instance_create(IREE_RT_ABI_VERSION, NULL, &instance), "instance") ||
               Check(iree_rt_module_load_file(instance, argv[1], &module), "load") ||
               Check(iree_rt_context_create(instance, &module, 1, &context), "context") ||
               Check(iree_rt_context_lookup_function(context, argv[2], &function), "lookup") ||
               Check(iree_rt_value_list_create(1, &args), "args") ||
               Check(iree_rt_value_list_create(4, &results), "results") ||
               Check(iree_rt_value_list_push_i32(args, n), "push");
  long calls = 0;
  double elapsed = 0.0;
  double fastest = 0.0;  // the best call: robust to other load on a shared machine
  // One warm-up call, then timed calls.
  for (int warm = 1; !failed && (warm || elapsed < min_seconds); warm = 0) {
    const double start = Now();
    failed = Check(iree_rt_value_list_clear(results), "clear") ||
             Check(iree_rt_function_call(function, args, results), "call");
    if (!warm) {
      const double took = Now() - start;
      elapsed += took;
      if (calls == 0 || took < fastest) fastest = took;
      ++calls;
    }
  }
  if (!failed) {
    int64_t acc = 0;  // the first result, i32 or i64, for a sanity check against IREE's output
    failed = Check(iree_rt_value_list_get_i64(results, 0, &acc), "result");
    printf("calls=%ld ms_per_call=%.4f min_ms_per_call=%.4f result0=%lld\n", calls,
           elapsed * 1e3 / (double)calls, fastest * 1e3, (long long)acc);
  }
  iree_rt_value_list_release(results);
  iree_rt_value_list_release(args);
  iree_rt_function_release(function);
  iree_rt_context_release(context);
  iree_rt_module_release(module);
  iree_rt_instance_release(instance);
  return failed ? 1 : 0;
}
