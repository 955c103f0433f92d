// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "io/parameter_index.h"

namespace iree_rt::io {

base::StatusOr<size_t> ParameterIndex::AddFile(std::string file_name,
                                               std::vector<ParameterEntry> entries) {
  // Check every key first so that a refused file leaves the index as it was.
  for (const ParameterEntry& entry : entries) {
    if (const ParameterEntry* existing = Find(entry.key)) {
      return base::MakeStatus(base::StatusCode::kAlreadyExists, "parameter '", entry.key,
                              "' of scope '", scope_, "' is in both ", files_[existing->file_index],
                              " and ", file_name);
    }
  }
  // Within one file the parsers already refused duplicates (ValidateEntries); entries built by
  // hand get the same check here.
  const size_t file_index = files_.size();
  decltype(by_key_) added;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!added.emplace(entries[i].key, entries_.size() + i).second) {
      return base::MakeStatus(base::StatusCode::kAlreadyExists, file_name, ": parameter '",
                              entries[i].key, "' appears twice");
    }
  }
  files_.push_back(std::move(file_name));
  for (ParameterEntry& entry : entries) {
    entry.file_index = file_index;
    entries_.push_back(std::move(entry));
  }
  by_key_.merge(added);
  return file_index;
}

const ParameterEntry* ParameterIndex::Find(std::string_view key) const {
  auto it = by_key_.find(key);
  return it == by_key_.end() ? nullptr : &entries_[it->second];
}

base::StatusOr<const ParameterEntry*> ParameterIndex::Lookup(std::string_view key) const {
  if (const ParameterEntry* entry = Find(key)) return entry;
  return base::NotFoundError("no parameter '", key, "' in scope '", scope_, "' (",
                             files_.size(), " files)");
}

}  // namespace iree_rt::io
