// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The ggml tensor types a .gguf file may name, with the storage size of each: a type packs
// |block_size| elements into |type_size| bytes (1 and the element size for plain types).
#ifndef IREE_RT_IO_GGML_TYPES_H_
#define IREE_RT_IO_GGML_TYPES_H_

#include <cstdint>
#include <span>
#include <string_view>

namespace iree_rt::io {

struct GgmlType {
  uint32_t id;
  std::string_view name;
  uint32_t block_size;
  uint32_t type_size;
};

// The type with ggml id |id|, or null for an id the format does not define (or no longer does:
// 4, 5 and 31-33, 36-38 were removed from ggml).
const GgmlType* FindGgmlType(uint32_t id);

// Every defined type, by id.
std::span<const GgmlType> GgmlTypes();

}  // namespace iree_rt::io

#endif  // IREE_RT_IO_GGML_TYPES_H_
