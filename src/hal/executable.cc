#include "hal/executable.h"

namespace iree_rt::hal {

base::StatusOr<uint32_t> Executable::LookupExport(std::string_view name) const {
  for (size_t i = 0; i < exports_.size(); ++i) {
    if (exports_[i].name == name) return static_cast<uint32_t>(i);
  }
  return base::NotFoundError("executable has no export named '", name, "' (", exports_.size(),
                             " exports)");
}

}  // namespace iree_rt::hal
