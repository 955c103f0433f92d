/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A C99 client of libiree_rt: instance, device enumeration, a local-task device, buffer
 * write/read, a buffer view, a semaphore, and a queue fill ordered by fences. Exits non-zero and
 * prints the failing step on any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iree_rt.h"

static void check(iree_rt_status_t status, const char* what) {
  if (!status) return;
  fprintf(stderr, "FAILED %s: %s: %s\n", what,
          iree_rt_status_code_name(iree_rt_status_code(status)), iree_rt_status_message(status));
  iree_rt_status_free(status);
  exit(1);
}

static void expect(int condition, const char* what) {
  if (condition) return;
  fprintf(stderr, "FAILED %s\n", what);
  exit(1);
}

int main(void) {
  iree_rt_instance_t instance = NULL;
  iree_rt_device_info_list_t devices = NULL;
  iree_rt_device_t device = NULL;
  iree_rt_buffer_t buffer = NULL;
  iree_rt_buffer_view_t view = NULL;
  iree_rt_semaphore_t semaphore = NULL;
  iree_rt_fence_t wait_fence = NULL, signal_fence = NULL;
  size_t count = 0, i;
  uint64_t value = 0;
  int32_t data[4] = {1, 2, 3, 4}, result[4] = {0, 0, 0, 0};
  int64_t shape[2] = {2, 2};
  const uint32_t pattern = 0x07070707u;
  iree_rt_buffer_t view_buffer = NULL;

  printf("iree_rt %s\n", iree_rt_get_version_string());
  expect(iree_rt_get_abi_version() == IREE_RT_ABI_VERSION, "library ABI matches the header");
  expect(iree_rt_get_proc("iree_rt_buffer_read") == (iree_rt_proc_t)iree_rt_buffer_read,
         "iree_rt_get_proc");
  check(iree_rt_instance_create(IREE_RT_ABI_VERSION, NULL, &instance), "instance_create");

  check(iree_rt_instance_enumerate_devices(instance, NULL, &devices), "enumerate_devices");
  check(iree_rt_device_info_list_count(devices, &count), "device_info_list_count");
  expect(count >= 2, "local-sync and local-task are enumerated");
  for (i = 0; i < count; ++i) {
    const char* name = NULL;
    const char* uri = NULL;
    check(iree_rt_device_info_list_name(devices, i, &name), "device_info_list_name");
    check(iree_rt_device_info_list_uri(devices, i, &uri), "device_info_list_uri");
    printf("device %u: %s (%s)\n", (unsigned)i, name, uri);
  }
  iree_rt_device_info_list_release(devices);

  check(iree_rt_device_create(instance, "local-task://?workers=2", NULL, &device), "device_create");
  iree_rt_instance_release(instance); /* the device keeps what it needs */

  check(iree_rt_buffer_allocate(device, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL,
                                IREE_RT_BUFFER_USAGE_DEFAULT, sizeof(data), &buffer),
        "buffer_allocate");
  check(iree_rt_buffer_write(buffer, 0, data, sizeof(data)), "buffer_write");
  check(iree_rt_buffer_read(buffer, 0, result, sizeof(result)), "buffer_read");
  expect(memcmp(data, result, sizeof(data)) == 0, "read back what was written");

  check(iree_rt_buffer_view_create(buffer, shape, 2, IREE_RT_ELEMENT_TYPE_SINT_32,
                                   IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view),
        "buffer_view_create");
  check(iree_rt_buffer_view_element_count(view, &value), "buffer_view_element_count");
  expect(value == 4, "2x2 view has 4 elements");
  check(iree_rt_buffer_view_buffer(view, &view_buffer), "buffer_view_buffer");
  expect(view_buffer == buffer, "the view lends back the same buffer handle");

  /* Fill the buffer on the queue once the semaphore reaches 1; the fill signals 2. */
  check(iree_rt_semaphore_create(device, 0, &semaphore), "semaphore_create");
  check(iree_rt_fence_create(&wait_fence), "fence_create");
  check(iree_rt_fence_insert(wait_fence, semaphore, 1), "fence_insert");
  check(iree_rt_fence_create(&signal_fence), "fence_create");
  check(iree_rt_fence_insert(signal_fence, semaphore, 2), "fence_insert");
  check(iree_rt_device_queue_fill(device, wait_fence, signal_fence, buffer, 0, IREE_RT_WHOLE_BUFFER,
                                  &pattern, sizeof(pattern)),
        "queue_fill");
  check(iree_rt_semaphore_signal(semaphore, 1), "semaphore_signal");
  check(iree_rt_semaphore_wait(semaphore, 2, IREE_RT_INFINITE_TIMEOUT), "semaphore_wait");
  check(iree_rt_semaphore_query(semaphore, &value), "semaphore_query");
  expect(value == 2, "semaphore reached 2");
  check(iree_rt_buffer_read(buffer, 0, result, sizeof(result)), "buffer_read");
  expect(result[0] == 0x07070707 && result[3] == 0x07070707, "queue fill ran");

  iree_rt_fence_release(wait_fence);
  iree_rt_fence_release(signal_fence);
  iree_rt_semaphore_release(semaphore);
  iree_rt_buffer_view_release(view);
  iree_rt_buffer_release(buffer);
  iree_rt_device_release(device);
  printf("c_smoke: OK\n");
  return 0;
}
