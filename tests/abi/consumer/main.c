/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A client of an installed iree_rt (tests/abi/install_test.cmake builds it with find_package and
 * with pkg-config): prints the library's version, then runs the sample model
 * (samples/models/mlp.mlir, @mlp) on a device and checks its result.
 *
 * usage: iree_rt_consumer <sample_mlp.vmfb> [device URI, default local-sync]
 */
#include <math.h>
#include <stdio.h>

#include "iree_rt.h"

static int ok(iree_rt_status_t status, const char* what) {
  if (!status) return 1;
  fprintf(stderr, "error: %s: %s\n", what, iree_rt_status_message(status));
  iree_rt_status_free(status);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <sample_mlp.vmfb> [device URI]\n", argv[0]);
    return 2;
  }
  const char* uri = argc > 2 ? argv[2] : "local-sync";
  /* What samples/c/model_sample.c computes on the host for this input. */
  static const float x[2][4] = {{1, 2, 3, 4}, {-1, 0.5f, 0, 2}};
  static const float expected[2][3] = {{3.0f, -4.15f, -0.05f}, {0.4375f, -0.15f, -0.1125f}};
  const int64_t shape[] = {2, 4};
  float y[2][3];
  int result = 1;
  iree_rt_instance_t instance = NULL;
  iree_rt_device_t device = NULL;
  iree_rt_module_t modules[2] = {NULL, NULL};
  iree_rt_module_t check = NULL; /* from libiree_rt_tooling, found next to the library */
  iree_rt_context_t context = NULL;
  iree_rt_function_t function = NULL;
  iree_rt_buffer_t buffer = NULL, output_buffer = NULL;
  iree_rt_buffer_view_t input = NULL, output = NULL;
  iree_rt_value_list_t args = NULL, results = NULL;

  printf("iree_rt %s\n", iree_rt_get_version_string());
  if (!ok(iree_rt_instance_create(IREE_RT_ABI_VERSION, NULL, &instance), "instance") ||
      !ok(iree_rt_device_create(instance, uri, NULL, &device), uri) ||
      !ok(iree_rt_module_create_hal(instance, &device, 1, &modules[0]), "hal module") ||
      !ok(iree_rt_module_create_check(instance, &check), "check module") ||
      !ok(iree_rt_module_load_file(instance, argv[1], &modules[1]), argv[1]) ||
      !ok(iree_rt_context_create(instance, modules, 2, &context), "context") ||
      !ok(iree_rt_context_lookup_function(context, "mlp", &function), "mlp") ||
      !ok(iree_rt_buffer_allocate(device, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL,
                                  IREE_RT_BUFFER_USAGE_DEFAULT, sizeof(x), &buffer),
          "buffer") ||
      !ok(iree_rt_buffer_write(buffer, 0, x, sizeof(x)), "write") ||
      !ok(iree_rt_buffer_view_create(buffer, shape, 2, IREE_RT_ELEMENT_TYPE_FLOAT_32,
                                     IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &input),
          "view") ||
      !ok(iree_rt_value_list_create(1, &args), "arguments") ||
      !ok(iree_rt_value_list_create(1, &results), "results") ||
      !ok(iree_rt_value_list_push_buffer_view(args, input), "arguments") ||
      !ok(iree_rt_function_call(function, args, results), "calling mlp") ||
      !ok(iree_rt_value_list_get_buffer_view(results, 0, &output), "result") ||
      !ok(iree_rt_buffer_view_buffer(output, &output_buffer), "result buffer") ||
      !ok(iree_rt_buffer_read(output_buffer, 0, y, sizeof(y)), "result read")) {
    goto cleanup;
  }
  printf("@mlp on %s: 2x3xf32=[%g %g %g][%g %g %g]\n", uri, y[0][0], y[0][1], y[0][2], y[1][0],
         y[1][1], y[1][2]);
  result = 0;
  for (int b = 0; b < 2; ++b) {
    for (int k = 0; k < 3; ++k) {
      if (fabsf(y[b][k] - expected[b][k]) > 1e-5f) result = 1;
    }
  }
  printf(result ? "FAILED: the result differs from the host computation\n" : "OK\n");

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
  iree_rt_module_release(check);
  iree_rt_device_release(device);
  iree_rt_instance_release(instance);
  return result;
}
