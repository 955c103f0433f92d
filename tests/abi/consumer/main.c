/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Creates an instance and a local-sync device through an installed libiree_rt. */
#include <stdio.h>

#include "iree_rt.h"

int main(void) {
  iree_rt_instance_t instance = NULL;
  iree_rt_device_t device = NULL;
  iree_rt_status_t status = iree_rt_instance_create(IREE_RT_ABI_VERSION, NULL, &instance);
  if (!status) status = iree_rt_device_create(instance, "local-sync", NULL, &device);
  if (status) {
    fprintf(stderr, "%s\n", iree_rt_status_message(status));
    iree_rt_status_free(status);
    return 1;
  }
  printf("installed iree_rt %s works\n", iree_rt_get_version_string());
  iree_rt_device_release(device);
  iree_rt_instance_release(instance);
  return 0;
}
