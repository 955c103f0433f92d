/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* abi_check_companion's client (check_companion_test.cmake): creates the check module through
 * libiree_rt and prints the outcome. Usage: check_companion expect-ok | expect-missing.
 * expect-missing wants UNIMPLEMENTED whose message names libiree_rt_tooling.so.1. */
#include <stdio.h>
#include <string.h>

#include "iree_rt.h"

int main(int argc, char** argv) {
  const int want_ok = argc > 1 && strcmp(argv[1], "expect-ok") == 0;
  iree_rt_instance_t instance = NULL;
  iree_rt_module_t module = NULL;
  iree_rt_status_t status = iree_rt_instance_create(IREE_RT_ABI_VERSION, NULL, &instance);
  int result = 1;
  if (status) {
    fprintf(stderr, "instance: %s\n", iree_rt_status_message(status));
    iree_rt_status_free(status);
    return 1;
  }
  status = iree_rt_module_create_check(instance, &module);
  if (!status) {
    printf("check module: OK\n");
    result = want_ok ? 0 : 1;
  } else {
    const char* message = iree_rt_status_message(status);
    printf("check module: %s: %s\n", iree_rt_status_code_name(iree_rt_status_code(status)), message);
    result = !want_ok && iree_rt_status_code(status) == IREE_RT_STATUS_UNIMPLEMENTED &&
                     strstr(message, "libiree_rt_tooling.so.1")
                 ? 0
                 : 1;
    iree_rt_status_free(status);
  }
  iree_rt_module_release(module);
  iree_rt_instance_release(instance);
  return result;
}
