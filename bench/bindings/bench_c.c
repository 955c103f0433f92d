/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Per-call overhead of a trivial module function (@add_i32 of bindings/tests/bindings_test.mlir,
 * pure VM code) called through the C ABI: the baseline for the Java and C# bindings
 * (bench/bindings/run.sh). Each call reuses its argument and result lists, as the bindings'
 * Invocation objects do: clear both, push two i32, call, read the i32 result.
 *
 * usage: iree-rt-bindings-bench <bindings_test_module.vmfb> [calls per run] [runs]
 * prints: "C ns/call <best> <median>"
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "iree_rt.h"

static int ok(iree_rt_status_t status, const char* what) {
  if (!status) return 1;
  fprintf(stderr, "error: %s: %s\n", what, iree_rt_status_message(status));
  iree_rt_status_free(status);
  return 0;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <bindings_test_module.vmfb> [calls] [runs]\n", argv[0]);
    return 2;
  }
  long calls = argc > 2 ? atol(argv[2]) : 1000000;
  int runs = argc > 3 ? atoi(argv[3]) : 7;
  if (runs > 64) runs = 64;
  iree_rt_instance_t instance = NULL;
  iree_rt_device_t device = NULL;
  iree_rt_module_t modules[2] = {NULL, NULL};
  iree_rt_context_t context = NULL;
  iree_rt_function_t fn = NULL;
  iree_rt_value_list_t args = NULL, results = NULL;
  if (!ok(iree_rt_instance_create(IREE_RT_ABI_VERSION, NULL, &instance), "instance") ||
      !ok(iree_rt_device_create(instance, "local-sync", NULL, &device), "device") ||
      !ok(iree_rt_module_create_hal(instance, &device, 1, &modules[0]), "hal") ||
      !ok(iree_rt_module_load_file(instance, argv[1], &modules[1]), argv[1]) ||
      !ok(iree_rt_context_create(instance, modules, 2, &context), "context") ||
      !ok(iree_rt_context_lookup_function(context, "add_i32", &fn), "add_i32") ||
      !ok(iree_rt_value_list_create(8, &args), "args") ||
      !ok(iree_rt_value_list_create(8, &results), "results")) {
    return 1;
  }
  double per_call[64];
  long long checksum = 0;
  for (int run = -1; run < runs; ++run) {  /* run -1 warms up */
    double t0 = now_ns();
    for (long i = 0; i < calls; ++i) {
      int32_t r = 0;
      if (!ok(iree_rt_value_list_clear(args), "clear") ||
          !ok(iree_rt_value_list_clear(results), "clear") ||
          !ok(iree_rt_value_list_push_i32(args, (int32_t)i), "push") ||
          !ok(iree_rt_value_list_push_i32(args, 3), "push") ||
          !ok(iree_rt_function_call(fn, args, results), "call") ||
          !ok(iree_rt_value_list_get_i32(results, 0, &r), "get")) {
        return 1;
      }
      checksum += r;
    }
    if (run >= 0) per_call[run] = (now_ns() - t0) / (double)calls;
  }
  qsort(per_call, (size_t)runs, sizeof(double), compare);
  printf("C ns/call %.1f %.1f (checksum %lld)\n", per_call[0], per_call[runs / 2], checksum);
  iree_rt_value_list_release(results);
  iree_rt_value_list_release(args);
  iree_rt_function_release(fn);
  iree_rt_context_release(context);
  iree_rt_module_release(modules[1]);
  iree_rt_module_release(modules[0]);
  iree_rt_device_release(device);
  iree_rt_instance_release(instance);
  return 0;
}
