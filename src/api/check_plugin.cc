// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// libiree_rt_tooling's side of check_plugin.h: its only export.
#include <cstdio>
#include <cstring>
#include <new>

#include "api/check_plugin.h"
#include "modules/check/check_module.h"

namespace {

int Fail(iree_rt::base::StatusCode code, std::string_view message, char* error, size_t capacity) {
  if (capacity > 0) std::snprintf(error, capacity, "%.*s", static_cast<int>(message.size()), message.data());
  return static_cast<int>(code);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int iree_rt_tooling_create_check_module(
    const char* build_id, void** out_module, char* error, size_t error_capacity) {
  using iree_rt::base::StatusCode;
  if (!build_id || std::strcmp(build_id, IREE_RT_BUILD_ID) != 0) {
    return Fail(StatusCode::kIncompatible,
                iree_rt::base::StrCat("built as '", IREE_RT_BUILD_ID, "', libiree_rt as '",
                                      build_id ? build_id : "", "': install both from one build"),
                error, error_capacity);
  }
  try {
    auto module = iree_rt::modules::check::CreateCheckModule();
    if (!module.ok()) return Fail(module.status().code(), module.status().message(), error, error_capacity);
    *out_module = std::move(module).value().Detach();
    return 0;
  } catch (const std::bad_alloc&) {
    return Fail(StatusCode::kResourceExhausted, "out of memory", error, error_capacity);
  }
}
