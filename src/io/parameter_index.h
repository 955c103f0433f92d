// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ParameterIndex: every parameter of one scope, merged from the archives given for it (IREE's
// tools take several files per scope, e.g. one per tensor-parallel rank). Each entry remembers
// its file; a key found in two files is refused, naming both.
#ifndef IREE_RT_IO_PARAMETER_INDEX_H_
#define IREE_RT_IO_PARAMETER_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "io/parameter_entry.h"

namespace iree_rt::io {

class ParameterIndex {
 public:
  explicit ParameterIndex(std::string scope = {}) : scope_(std::move(scope)) {}

  const std::string& scope() const { return scope_; }

  // Adds the entries parsed from |file_name|. Nothing is added when any key is already in the
  // index (ALREADY_EXISTS, naming the key and both files). Returns the file's index in files().
  base::StatusOr<size_t> AddFile(std::string file_name, std::vector<ParameterEntry> entries);

  // The entry for |key|, or null. Entries never move: the pointer lives as long as the index.
  const ParameterEntry* Find(std::string_view key) const;
  // NOT_FOUND naming the scope and the key.
  base::StatusOr<const ParameterEntry*> Lookup(std::string_view key) const;

  const std::vector<std::string>& files() const { return files_; }
  // In the order they were added: each file's entries in the order its parser returned them.
  const std::deque<ParameterEntry>& entries() const { return entries_; }

 private:
  std::string scope_;
  std::vector<std::string> files_;
  std::deque<ParameterEntry> entries_;  // a deque: borrowed entries and keys stay put
  // Looks keys up by string_view without a copy.
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(std::string_view key) const { return std::hash<std::string_view>()(key); }
  };
  std::unordered_map<std::string, size_t, KeyHash, std::equal_to<>> by_key_;  // → entries_
};

}  // namespace iree_rt::io

#endif  // IREE_RT_IO_PARAMETER_INDEX_H_
