// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::Executable: device code loaded from a compiled executable, with one entry point per export.
//
// Immutable once created; safe to share between threads and command buffers.
#ifndef IREE_RT_HAL_EXECUTABLE_H_
#define IREE_RT_HAL_EXECUTABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"

namespace iree_rt::hal {

// Upper bounds from the executable ABIs (hal_abi_facts.md §3a.3).
inline constexpr uint32_t kMaxDispatchConstants = 64;
inline constexpr uint32_t kMaxDispatchBindings = 64;

struct ExportInfo {
  std::string name;
  uint32_t constant_count = 0;  // 32-bit push constants the entry point reads
  uint32_t binding_count = 0;   // buffer bindings, in pipeline-layout order
  uint32_t workgroup_size[3] = {1, 1, 1};
};

class Executable : public base::RefObject {
 public:
  uint32_t export_count() const { return static_cast<uint32_t>(exports_.size()); }
  // Requires ordinal < export_count().
  const ExportInfo& export_info(uint32_t ordinal) const { return exports_[ordinal]; }
  // The ordinal of the export called |name|; NOT_FOUND naming it otherwise.
  base::StatusOr<uint32_t> LookupExport(std::string_view name) const;
  // Identifies the concrete class for cheap down-casts on the dispatch path (as
  // CommandBuffer::type_tag).
  virtual const void* type_tag() const { return nullptr; }

 protected:
  explicit Executable(std::vector<ExportInfo> exports) : exports_(std::move(exports)) {}

 private:
  std::vector<ExportInfo> exports_;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_EXECUTABLE_H_
