// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Compiles include/iree_rt.h as C++17 (-std=c++17 -pedantic -Wall -Wextra -Werror) and checks
// the layout promises bindings rely on.
#include <type_traits>

#include "iree_rt.h"

static_assert(sizeof(iree_rt_status_code_t) == 4, "enums are 32-bit");
static_assert(sizeof(iree_rt_wait_mode_t) == 4, "enums are 32-bit");
static_assert(sizeof(iree_rt_encoding_type_t) == 4, "enums are 32-bit");
static_assert(sizeof(iree_rt_memory_statistic_t) == 4, "enums are 32-bit");
static_assert(std::is_same_v<iree_rt_alloca_flags_t, uint64_t>);
static_assert(std::is_same_v<iree_rt_memory_type_t, uint32_t>);
static_assert(IREE_RT_ABI_VERSION ==
              ((IREE_RT_ABI_VERSION_MAJOR << 16) | IREE_RT_ABI_VERSION_MINOR));
static_assert(IREE_RT_WHOLE_BUFFER == ~uint64_t{0});
static_assert(IREE_RT_INFINITE_TIMEOUT == INT64_MAX);
static_assert(std::is_pointer_v<iree_rt_device_t> && std::is_pointer_v<iree_rt_status_t>);
// Distinct handle types: passing a buffer where a device is expected does not compile.
static_assert(!std::is_convertible_v<iree_rt_buffer_t, iree_rt_device_t>);

int iree_rt_abi_cxx_compile_check() {
  iree_rt_status_t (*read)(iree_rt_buffer_t, uint64_t, void*, uint64_t) = &iree_rt_buffer_read;
  return read != nullptr;
}
