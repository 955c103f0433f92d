/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* abi_check_companion's client (check_companion_test.cmake): dlopens the libiree_rt.so.1 it is
 * given (a run path could otherwise pick the build tree's), creates the check module through it
 * and prints the outcome. Usage: check_companion <libiree_rt.so.1> expect-ok | expect-missing.
 * expect-missing wants UNIMPLEMENTED whose message names libiree_rt_tooling.so.1. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "iree_rt.h"

#define PROC(name) name##_fn = (name##_t)dlsym(library, #name)

typedef iree_rt_status_t (*iree_rt_instance_create_t)(uint32_t, iree_rt_instance_options_t,
                                                      iree_rt_instance_t*);
typedef iree_rt_status_t (*iree_rt_module_create_check_t)(iree_rt_instance_t, iree_rt_module_t*);
typedef iree_rt_status_code_t (*iree_rt_status_code_t_)(iree_rt_status_t);
typedef const char* (*iree_rt_status_message_t)(iree_rt_status_t);
typedef void (*iree_rt_status_free_t)(iree_rt_status_t);
typedef void (*iree_rt_module_release_t)(iree_rt_module_t);
typedef void (*iree_rt_instance_release_t)(iree_rt_instance_t);

int main(int argc, char** argv) {
  const int want_ok = argc > 2 && strcmp(argv[2], "expect-ok") == 0;
  void* library = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
  iree_rt_instance_create_t iree_rt_instance_create_fn;
  iree_rt_module_create_check_t iree_rt_module_create_check_fn;
  iree_rt_status_code_t_ iree_rt_status_code_fn;
  iree_rt_status_message_t iree_rt_status_message_fn;
  iree_rt_status_free_t iree_rt_status_free_fn;
  iree_rt_module_release_t iree_rt_module_release_fn;
  iree_rt_instance_release_t iree_rt_instance_release_fn;
  iree_rt_instance_t instance = NULL;
  iree_rt_module_t module = NULL;
  iree_rt_status_t status;
  int result = 1;
  if (!library) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  PROC(iree_rt_instance_create);
  PROC(iree_rt_module_create_check);
  iree_rt_status_code_fn = (iree_rt_status_code_t_)dlsym(library, "iree_rt_status_code");
  PROC(iree_rt_status_message);
  PROC(iree_rt_status_free);
  PROC(iree_rt_module_release);
  PROC(iree_rt_instance_release);
  status = iree_rt_instance_create_fn(IREE_RT_ABI_VERSION, NULL, &instance);
  if (status) {
    fprintf(stderr, "instance: %s\n", iree_rt_status_message_fn(status));
    iree_rt_status_free_fn(status);
    return 1;
  }
  status = iree_rt_module_create_check_fn(instance, &module);
  if (!status) {
    printf("check module: OK\n");
    result = want_ok ? 0 : 1;
  } else {
    const char* message = iree_rt_status_message_fn(status);
    printf("check module: %d: %s\n", (int)iree_rt_status_code_fn(status), message);
    result = !want_ok && iree_rt_status_code_fn(status) == IREE_RT_STATUS_UNIMPLEMENTED &&
                     strstr(message, "libiree_rt_tooling.so.1")
                 ? 0
                 : 1;
    iree_rt_status_free_fn(status);
  }
  iree_rt_module_release_fn(module);
  iree_rt_instance_release_fn(instance);
  return result;
}
