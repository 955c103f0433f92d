// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Helpers of the bad-module corpus: test files, loading, rejection checks with per-category
// counts, and the byte positions of every offset and length in a module's FlatBuffer.
#ifndef IREE_RT_TESTS_BAD_MODULES_BAD_MODULES_UTIL_H_
#define IREE_RT_TESTS_BAD_MODULES_BAD_MODULES_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace iree_rt::bad_modules {

// The bytes of <build>/tests/testdata/<relative path>.
std::vector<uint8_t> ReadTestFile(std::string_view relative_path);

// BytecodeModule::Load (parse, type resolution, verification) with the hal types registered.
base::Status LoadModule(const std::vector<uint8_t>& bytes);

// Adds a failure unless |status| is an error whose message contains one of |substrings| (and,
// when |code| is not kOk, has that code). Counts the case under |category|.
void ExpectRejected(const base::Status& status, std::string_view category,
                    std::initializer_list<std::string_view> substrings, const std::string& what,
                    base::StatusCode code = base::StatusCode::kOk);

// Cases checked per category so far (printed by the test environment at exit).
void PrintCounts();

template <typename T>
T ReadAt(const std::vector<uint8_t>& bytes, size_t pos) {
  T value;
  std::memcpy(&value, bytes.data() + pos, sizeof(T));
  return value;
}
template <typename T>
void WriteAt(std::vector<uint8_t>& bytes, size_t pos, T value) {
  std::memcpy(bytes.data() + pos, &value, sizeof(T));
}

// One u32 of the module FlatBuffer that the corpus corrupts.
struct FlatBufferSlot {
  enum Kind { kOffset, kLength } kind;
  size_t pos;              // byte position in the module file
  std::string path;        // "types[3].full_name"
  std::string root_field;  // the module table field it belongs to ("types")
};

// Every uoffset and every vector/string length reachable from the module root of |bytes|
// (either .vmfb layout), following the schema; union vectors are not descended into.
std::vector<FlatBufferSlot> CollectFlatBufferSlots(const std::vector<uint8_t>& bytes);

// Position in the file of scalar field |slot| (a VT_ value) of the table at file position
// |table|; 0 when the field is absent.
size_t TableFieldPos(const std::vector<uint8_t>& bytes, size_t table, uint16_t slot);

// File position of the module root table and of the module table's vector field |slot|'s
// first element (0 if absent), for scalar edits.
size_t ModuleRootPos(const std::vector<uint8_t>& bytes);
size_t VectorElementsPos(const std::vector<uint8_t>& bytes, size_t table, uint16_t slot,
                         uint32_t* count);

}  // namespace iree_rt::bad_modules

#endif  // IREE_RT_TESTS_BAD_MODULES_BAD_MODULES_UTIL_H_
