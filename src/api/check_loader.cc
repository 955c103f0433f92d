// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// libiree_rt's side of check_plugin.h: loads libiree_rt_tooling once, on first use.
#include <dlfcn.h>

#include <string>

#include "api/check_plugin.h"

namespace iree_rt::api {
namespace {

struct Companion {
  iree_rt_tooling_create_check_module_fn create = nullptr;
  std::string error;  // why |create| is null
};

// Next to this library first (an install, a build tree, the bindings' unpacked natives), then
// the dynamic loader's search path. Never closed: the modules it makes run its code.
Companion Load() {
  Companion companion;
  std::string candidates[2];
  Dl_info self;
  if (dladdr(reinterpret_cast<void*>(&Load), &self) && self.dli_fname) {
    const std::string path = self.dli_fname;
    const size_t slash = path.rfind('/');
    if (slash != std::string::npos) candidates[0] = path.substr(0, slash + 1) + IREE_RT_TOOLING_LIBRARY;
  }
  candidates[1] = IREE_RT_TOOLING_LIBRARY;
  std::string tried;
  for (const std::string& candidate : candidates) {
    if (candidate.empty()) continue;
    void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    const char* error = handle ? nullptr : dlerror();
    if (handle) {
      companion.create = reinterpret_cast<iree_rt_tooling_create_check_module_fn>(
          dlsym(handle, IREE_RT_TOOLING_CREATE_CHECK_MODULE));
      if (companion.create) return companion;
      error = "no " IREE_RT_TOOLING_CREATE_CHECK_MODULE " in it";
    }
    tried += base::StrCat("\n  ", candidate, ": ", error ? error : "unknown error");
  }
  companion.error = base::StrCat(
      "the check module is in " IREE_RT_TOOLING_LIBRARY
      ", next to libiree_rt in every build and install, and it could not be loaded; tried:",
      tried);
  return companion;
}

}  // namespace

base::StatusOr<base::Ref<vm::Module>> CreateCheckModule() {
  static const Companion companion = Load();
  if (!companion.create) return base::UnimplementedError(companion.error);
  void* module = nullptr;
  char error[512] = "";
  const int code = companion.create(IREE_RT_BUILD_ID, &module, error, sizeof(error));
  if (code != 0) {
    return base::Status(static_cast<base::StatusCode>(code),
                        base::StrCat(IREE_RT_TOOLING_LIBRARY ": ", error));
  }
  return base::Ref<vm::Module>::Adopt(static_cast<vm::Module*>(module));
}

}  // namespace iree_rt::api
