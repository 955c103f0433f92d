/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The main job: loads a model compiled by iree-compile (samples/models/mlp.mlir), runs it on a
 * device through the public C ABI (the hal module, a context, a function call with a tensor),
 * prints the result as iree-run-module does and checks it against the same network computed on
 * the host.
 *
 * usage: iree-rt-model-sample <mlp.vmfb> [device URI, default local-task]
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iree_rt.h"

#define BATCH 2
#define IN 4
#define HIDDEN 8
#define OUT 3

/* Prints |status| (if an error), frees it, and reports whether it was OK. */
static int ok(iree_rt_status_t status, const char* what) {
  if (!status) return 1;
  fprintf(stderr, "error: %s: %s: %s\n", what,
          iree_rt_status_code_name(iree_rt_status_code(status)), iree_rt_status_message(status));
  iree_rt_status_free(status);
  return 0;
}

/* The weights, by the formulas the model's constants were written from. */
static float w1(int i, int j) { return (float)(((8 * i + j) % 7) - 3) / 4.0f; }
static float b1(int j) { return (float)((j % 3) - 1) / 2.0f; }
static float w2(int j, int k) { return (float)(((3 * j + k) % 5) - 2) / 2.0f; }
static float b2(int k) { return (float)k / 10.0f; }

static void reference(const float x[BATCH][IN], float y[BATCH][OUT]) {
  for (int b = 0; b < BATCH; ++b) {
    float h[HIDDEN];
    for (int j = 0; j < HIDDEN; ++j) {
      float sum = b1(j);
      for (int i = 0; i < IN; ++i) sum += x[b][i] * w1(i, j);
      h[j] = sum > 0.0f ? sum : 0.0f;
    }
    for (int k = 0; k < OUT; ++k) {
      float sum = b2(k);
      for (int j = 0; j < HIDDEN; ++j) sum += h[j] * w2(j, k);
      y[b][k] = sum;
    }
  }
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <mlp.vmfb> [device URI]\n", argv[0]);
    return 2;
  }
  const char* uri = argc > 2 ? argv[2] : "local-task";
  static const float x[BATCH][IN] = {{1, 2, 3, 4}, {-1, 0.5f, 0, 2}};
  float y[BATCH][OUT];
  int result = 1;

  iree_rt_instance_t instance = NULL;
  iree_rt_device_t device = NULL;
  iree_rt_module_t modules[2] = {NULL, NULL};
  iree_rt_context_t context = NULL;
  iree_rt_function_t function = NULL;
  iree_rt_buffer_t buffer = NULL;
  iree_rt_buffer_view_t input = NULL;
  iree_rt_buffer_view_t output = NULL;
  iree_rt_value_list_t args = NULL;
  iree_rt_value_list_t results = NULL;
  const int64_t shape[] = {BATCH, IN};

  if (!ok(iree_rt_instance_create(IREE_RT_ABI_VERSION, NULL, &instance), "instance") ||
      !ok(iree_rt_device_create(instance, uri, NULL, &device), uri) ||
      /* The hal module first: the program imports it. */
      !ok(iree_rt_module_create_hal(instance, &device, 1, &modules[0]), "hal module") ||
      !ok(iree_rt_module_load_file(instance, argv[1], &modules[1]), argv[1]) ||
      !ok(iree_rt_context_create(instance, modules, 2, &context), "context") ||
      !ok(iree_rt_context_lookup_function(context, "mlp", &function), "mlp") ||
      !ok(iree_rt_buffer_allocate(device, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL,
                                  IREE_RT_BUFFER_USAGE_DEFAULT, sizeof(x), &buffer),
          "input buffer") ||
      !ok(iree_rt_buffer_write(buffer, 0, x, sizeof(x)), "input write") ||
      !ok(iree_rt_buffer_view_create(buffer, shape, 2, IREE_RT_ELEMENT_TYPE_FLOAT_32,
                                     IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &input),
          "input view") ||
      !ok(iree_rt_value_list_create(1, &args), "arguments") ||
      !ok(iree_rt_value_list_create(1, &results), "results") ||
      !ok(iree_rt_value_list_push_buffer_view(args, input), "arguments") ||
      !ok(iree_rt_function_call(function, args, results), "calling mlp") ||
      !ok(iree_rt_value_list_get_buffer_view(results, 0, &output), "result")) {
    goto cleanup;
  }

  iree_rt_buffer_t output_buffer = NULL;
  float got[BATCH][OUT];
  if (!ok(iree_rt_buffer_view_buffer(output, &output_buffer), "result buffer") ||
      !ok(iree_rt_buffer_read(output_buffer, 0, got, sizeof(got)), "result read")) {
    goto cleanup;
  }
  reference(x, y);
  printf("EXEC @mlp on %s\nresult[0]: hal.buffer_view\n%dx%dxf32=", uri, BATCH, OUT);
  int mismatches = 0;
  for (int b = 0; b < BATCH; ++b) {
    printf("[");
    for (int k = 0; k < OUT; ++k) {
      printf(k ? " %g" : "%g", got[b][k]);
      if (fabsf(got[b][k] - y[b][k]) > 1e-5f + 1e-5f * fabsf(y[b][k])) ++mismatches;
    }
    printf("]");
  }
  printf("\n");
  if (mismatches) {
    fprintf(stderr, "FAILED: %d of %d outputs differ from the host computation\n", mismatches,
            BATCH * OUT);
  } else {
    printf("OK: all %d outputs match the host computation\n", BATCH * OUT);
    result = 0;
  }

cleanup:
  iree_rt_buffer_view_release(output);
  iree_rt_value_list_release(results);
  iree_rt_value_list_release(args);
  iree_rt_buffer_view_release(input);
  iree_rt_buffer_release(buffer);
  iree_rt_function_release(function);
  iree_rt_context_release(context);
  iree_rt_module_release(modules[1]);
  iree_rt_module_release(modules[0]);
  iree_rt_device_release(device);
  iree_rt_instance_release(instance);
  return result;
}
