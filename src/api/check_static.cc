// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// check_plugin.h where the C ABI is linked statically: the module itself, no companion library.
#include "api/check_plugin.h"
#include "modules/check/check_module.h"

namespace iree_rt::api {

base::StatusOr<base::Ref<vm::Module>> CreateCheckModule() {
  return modules::check::CreateCheckModule();
}

}  // namespace iree_rt::api
