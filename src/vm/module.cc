// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/module.h"

namespace iree_rt::vm {

using base::Status;
using base::StatusOr;

Status Module::BindImport(ModuleState& state, uint32_t ordinal, const ImportTarget& target) {
  return base::InternalError("module ", name(), " has no imports (asked to bind import ", ordinal,
                             ")");
}

Status Module::Resume(Stack& stack, std::span<Value> results) {
  return base::FailedPreconditionError("module ", name(),
                                       " never yields, so it has no call to resume");
}

StatusOr<uint32_t> Module::FindExport(std::string_view name) const {
  std::span<const ExportInfo> list = exports();
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].name == name) return static_cast<uint32_t>(i);
  }
  return base::NotFoundError("function '", name, "' not exported by module '", this->name(), "'");
}

}  // namespace iree_rt::vm
