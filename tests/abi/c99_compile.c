/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Compiles include/iree_rt.h as strict C99 (-std=c99 -pedantic -Wall -Wextra -Werror) and
 * touches its types and constants, so a header change that breaks C clients fails the build. */
#include "iree_rt.h"

/* The header is self-contained: nothing else is included here. */
uint32_t iree_rt_abi_c99_compile_check(void);

uint32_t iree_rt_abi_c99_compile_check(void) {
  iree_rt_status_code_t code = IREE_RT_STATUS_INCOMPATIBLE;
  iree_rt_wait_mode_t mode = IREE_RT_WAIT_MODE_ANY;
  iree_rt_encoding_type_t encoding = IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR;
  iree_rt_memory_statistic_t statistic = IREE_RT_MEMORY_STATISTIC_PEAK_BYTES_ALLOCATED;
  iree_rt_memory_type_t memory_type = IREE_RT_MEMORY_TYPE_DEVICE_LOCAL;
  iree_rt_buffer_usage_t usage = IREE_RT_BUFFER_USAGE_DEFAULT | IREE_RT_BUFFER_USAGE_MAPPING;
  iree_rt_memory_access_t access = IREE_RT_MEMORY_ACCESS_ALL;
  iree_rt_element_type_t element_type = IREE_RT_ELEMENT_TYPE_FLOAT_32;
  iree_rt_command_buffer_mode_t cb_mode = IREE_RT_COMMAND_BUFFER_MODE_ONE_SHOT;
  iree_rt_command_category_t categories = IREE_RT_COMMAND_CATEGORY_ANY;
  iree_rt_alloca_flags_t alloca_flags = IREE_RT_ALLOCA_FLAG_INDETERMINATE_LIFETIME;
  uint64_t whole = IREE_RT_WHOLE_BUFFER;
  int64_t timeout = IREE_RT_INFINITE_TIMEOUT;
  iree_rt_proc_t proc = (iree_rt_proc_t)0;
  iree_rt_host_release_fn_t release_fn = (iree_rt_host_release_fn_t)0;
  iree_rt_status_t (*create)(uint32_t, iree_rt_instance_options_t, iree_rt_instance_t*) =
      iree_rt_instance_create;
  (void)proc;
  (void)release_fn;
  (void)create;
  return (uint32_t)code + (uint32_t)mode + (uint32_t)encoding + (uint32_t)statistic + memory_type +
         usage + access + element_type + cb_mode + categories + (uint32_t)alloca_flags +
         (uint32_t)whole + (uint32_t)timeout + IREE_RT_ABI_VERSION + IREE_RT_MAX_BUFFER_VIEW_RANK;
}
