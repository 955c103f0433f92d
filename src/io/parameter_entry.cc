// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "io/parameter_entry.h"

#include <algorithm>
#include <unordered_map>

namespace iree_rt::io {

base::Status CheckSplat(std::string_view key, size_t pattern_length, uint64_t length,
                        std::string_view file_name) {
  const size_t n = pattern_length;
  if (n != 1 && n != 2 && n != 4 && n != 8 && n != 16) {
    return base::InvalidArgumentError(file_name, ": parameter '", key, "': splat pattern length ", n,
                                      " is not 1, 2, 4, 8 or 16");
  }
  if (length % n != 0) {
    return base::InvalidArgumentError(file_name, ": parameter '", key, "': splat length ", length,
                                      " is not a multiple of its ", n, "-byte pattern");
  }
  return base::Status::Ok();
}

base::Status ValidateEntries(std::vector<ParameterEntry>& entries, std::string_view file_name) {
  std::unordered_map<std::string_view, size_t> seen;
  seen.reserve(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    auto [it, inserted] = seen.emplace(entries[i].key, i);
    if (!inserted) {
      return base::MakeStatus(base::StatusCode::kAlreadyExists, file_name, ": parameter '",
                              entries[i].key, "' appears twice (entries ", it->second, " and ", i,
                              ")");
    }
  }
  // Overlapping stored bytes mean a corrupt (or hostile) index: a scatter into one parameter
  // would silently change another.
  std::vector<const ParameterEntry*> data;
  for (const ParameterEntry& entry : entries) {
    if (entry.kind == ParameterKind::kData && entry.stored_length != 0) data.push_back(&entry);
  }
  std::sort(data.begin(), data.end(), [](const ParameterEntry* a, const ParameterEntry* b) {
    return a->offset < b->offset;
  });
  for (size_t i = 1; i < data.size(); ++i) {
    const ParameterEntry& prev = *data[i - 1];
    // Parsers checked offset + stored_length against the file size, so the sum cannot wrap.
    if (data[i]->offset < prev.offset + prev.stored_length) {
      return base::InvalidArgumentError(file_name, ": parameter '", data[i]->key, "' (bytes ",
                                        data[i]->offset, "..) overlaps parameter '", prev.key,
                                        "' (bytes ", prev.offset, "..",
                                        prev.offset + prev.stored_length, ")");
    }
  }
  return base::Status::Ok();
}

}  // namespace iree_rt::io
