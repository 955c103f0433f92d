// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/executable.h"

namespace iree_rt::hal {

base::StatusOr<uint32_t> Executable::LookupExport(std::string_view name) const {
  for (size_t i = 0; i < exports_.size(); ++i) {
    if (exports_[i].name == name) return static_cast<uint32_t>(i);
  }
  // Name what is there, so a spelling mismatch between program and executable is visible.
  constexpr size_t kListed = 8;
  std::string present;
  for (size_t i = 0; i < exports_.size() && i < kListed; ++i) {
    present += (i ? ", '" : "'") + exports_[i].name + "'";
  }
  if (exports_.size() > kListed) present += ", ...";
  return base::NotFoundError("executable has no export named '", name, "'; its ", exports_.size(),
                             " exports are ", present);
}

}  // namespace iree_rt::hal
