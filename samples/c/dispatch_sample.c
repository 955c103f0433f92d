/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A kernel-level sample: runs one executable compiled by iree-compile (saxpy.mlir) on a CPU
 * device through the HAL part of the public C ABI, without the VM, checks every element against a host computation and prints
 * the result.
 *
 * usage: iree-rt-sample <saxpy.so> [device URI, default local-task]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iree_rt.h"

#define N 1024

/* Prints |status| (if an error), frees it, and reports whether it was OK. */
static int ok(iree_rt_status_t status, const char* what) {
  if (!status) return 1;
  fprintf(stderr, "error: %s: %s: %s\n", what,
          iree_rt_status_code_name(iree_rt_status_code(status)), iree_rt_status_message(status));
  iree_rt_status_free(status);
  return 0;
}

static void* read_file(const char* path, size_t* out_size) {
  FILE* file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  void* data = size > 0 ? malloc((size_t)size) : NULL;
  if (data && fread(data, 1, (size_t)size, file) != (size_t)size) {
    free(data);
    data = NULL;
  }
  fclose(file);
  *out_size = (size_t)size;
  return data;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <saxpy.so> [device URI]\n", argv[0]);
    return 2;
  }
  const char* uri = argc > 2 ? argv[2] : "local-task";
#if defined(__x86_64__)
  const char* format = "embedded-elf-x86_64";
#else
  const char* format = "embedded-elf-arm_64";
#endif
  size_t data_size = 0;
  void* data = read_file(argv[1], &data_size);
  if (!data) {
    fprintf(stderr, "error: cannot read %s\n", argv[1]);
    return 1;
  }

  int result = 1;
  iree_rt_instance_t instance = NULL;
  iree_rt_device_t device = NULL;
  iree_rt_executable_t executable = NULL;
  iree_rt_buffer_t buffers[3] = {NULL, NULL, NULL};
  iree_rt_command_buffer_t command_buffer = NULL;
  iree_rt_semaphore_t semaphore = NULL;
  iree_rt_fence_t done = NULL;
  static float x[N], y[N], out[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = 0.5f * (float)(N - i);
  }
  const float a = 2.5f;
  uint32_t a_bits;
  memcpy(&a_bits, &a, sizeof(a_bits));

  if (!ok(iree_rt_instance_create(IREE_RT_ABI_VERSION, NULL, &instance), "creating the instance")) goto cleanup;
  if (!ok(iree_rt_device_create(instance, uri, NULL, &device), "creating the device")) goto cleanup;
  const char* device_id = NULL;
  if (!ok(iree_rt_device_id(device, &device_id), "device id")) goto cleanup;
  if (!ok(iree_rt_executable_load(device, format, data, data_size, NULL, 0, &executable),
          "loading the executable")) goto cleanup;
  uint32_t ordinal = 0;
  if (!ok(iree_rt_executable_lookup_export(executable, "saxpy", &ordinal), "finding export saxpy")) goto cleanup;

  const iree_rt_memory_type_t memory = IREE_RT_MEMORY_TYPE_DEVICE_LOCAL;
  const iree_rt_buffer_usage_t usage = IREE_RT_BUFFER_USAGE_DEFAULT;
  for (int i = 0; i < 3; ++i) {
    if (!ok(iree_rt_buffer_allocate(device, memory, usage, sizeof(x), &buffers[i]), "allocating")) goto cleanup;
  }
  if (!ok(iree_rt_buffer_write(buffers[0], 0, x, sizeof(x)), "writing x")) goto cleanup;
  if (!ok(iree_rt_buffer_write(buffers[1], 0, y, sizeof(y)), "writing y")) goto cleanup;

  if (!ok(iree_rt_command_buffer_create(device, IREE_RT_COMMAND_BUFFER_MODE_ONE_SHOT,
                                        IREE_RT_COMMAND_CATEGORY_ANY, 0, &command_buffer),
          "creating the command buffer")) goto cleanup;
  const uint32_t slots[3] = {0, 0, 0};
  const uint64_t offsets[3] = {0, 0, 0};
  const uint64_t lengths[3] = {sizeof(x), sizeof(y), sizeof(out)};
  if (!ok(iree_rt_command_buffer_dispatch(command_buffer, executable, ordinal, N / 64, 1, 1, &a_bits, 1,
                                          buffers, slots, offsets, lengths, 3),
          "recording the dispatch")) goto cleanup;
  if (!ok(iree_rt_command_buffer_finalize(command_buffer), "finalizing")) goto cleanup;

  if (!ok(iree_rt_semaphore_create(device, 0, &semaphore), "creating a semaphore")) goto cleanup;
  if (!ok(iree_rt_fence_create(&done), "creating a fence")) goto cleanup;
  if (!ok(iree_rt_fence_insert(done, semaphore, 1), "filling the fence")) goto cleanup;
  if (!ok(iree_rt_device_queue_execute(device, NULL, done, command_buffer, NULL, NULL, NULL, 0),
          "submitting")) goto cleanup;
  if (!ok(iree_rt_fence_wait(done, IREE_RT_INFINITE_TIMEOUT), "waiting for the dispatch")) goto cleanup;
  if (!ok(iree_rt_buffer_read(buffers[2], 0, out, sizeof(out)), "reading the result")) goto cleanup;

  int mismatches = 0;
  for (int i = 0; i < N; ++i) {
    if (fabsf(out[i] - (a * x[i] + y[i])) > 1e-4f) ++mismatches;
  }
  printf("device %s (%s): saxpy over %d floats in %d workgroups\n", uri, device_id, N, N / 64);
  printf("1024xf32=%g %g %g %g ... %g\n", out[0], out[1], out[2], out[3], out[N - 1]);
  if (mismatches) {
    printf("FAILED: %d elements differ from a*x+y\n", mismatches);
  } else {
    printf("OK: all %d elements equal a*x+y\n", N);
    result = 0;
  }

cleanup:
  iree_rt_fence_release(done);
  iree_rt_semaphore_release(semaphore);
  iree_rt_command_buffer_release(command_buffer);
  for (int i = 0; i < 3; ++i) iree_rt_buffer_release(buffers[i]);
  iree_rt_executable_release(executable);
  iree_rt_device_release(device);
  iree_rt_instance_release(instance);
  free(data);
  return result;
}
