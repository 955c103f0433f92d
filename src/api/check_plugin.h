// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The `check` module behind iree_rt_module_create_check, kept out of libiree_rt.
//
// The check module and the tensor text it prints failures in (hal/utils/buffer_view_text) are
// test-program support that a deployment never runs, so they live in a companion library,
// libiree_rt_tooling.so.1, installed next to libiree_rt.so.1. libiree_rt keeps the export (the
// ABI is unchanged) and, on its first call, dlopens the companion from its own directory, then
// by name through the loader's search path (check_loader.cc); without it the call returns
// UNIMPLEMENTED naming the file and every place tried. Where the C ABI is linked statically
// (tests/fault), check_static.cc links the module in instead.
//
// The companion holds its own copies of the C++ code the module uses (base, vm, hal) and hands
// back a vm::Module that libiree_rt uses through its virtual interface, so both must come from
// one build: the entry point compares build ids (IREE_RT_BUILD_ID: version, compiler, build
// type, sanitizer and size options) and refuses another build with INCOMPATIBLE.
#ifndef IREE_RT_API_CHECK_PLUGIN_H_
#define IREE_RT_API_CHECK_PLUGIN_H_

#include <cstddef>

#include "base/ref_object.h"
#include "base/status.h"
#include "vm/module.h"

// The one function libiree_rt_tooling exports. Returns a base::StatusCode value; on OK,
// |*out_module| holds one reference to a vm::Module; otherwise |error| (NUL-terminated, cut to
// |error_capacity|) says why.
extern "C" typedef int (*iree_rt_tooling_create_check_module_fn)(const char* build_id,
                                                                 void** out_module, char* error,
                                                                 size_t error_capacity);
#define IREE_RT_TOOLING_CREATE_CHECK_MODULE "iree_rt_tooling_create_check_module"

namespace iree_rt::api {

// A new check module: the companion library's (check_loader.cc) or the linked-in one
// (check_static.cc).
base::StatusOr<base::Ref<vm::Module>> CreateCheckModule();

}  // namespace iree_rt::api

#endif  // IREE_RT_API_CHECK_PLUGIN_H_
