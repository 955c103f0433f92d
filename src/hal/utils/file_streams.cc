// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/utils/file_streams.h"

namespace iree_rt::hal::utils {

FileStreams::FileStreams() = default;
FileStreams::~FileStreams() = default;

base::StatusOr<std::istream*> FileStreams::Open(std::string_view path, bool continue_previous) {
  auto it = streams_.find(path);
  if (continue_previous && it != streams_.end())
    return static_cast<std::istream*>(it->second.get());
  auto stream = std::make_unique<std::ifstream>(std::string(path), std::ios::binary);
  if (!stream->is_open()) return base::NotFoundError("cannot open file '", path, "'");
  std::istream* result = stream.get();
  if (it != streams_.end()) {
    it->second = std::move(stream);
  } else {
    streams_.emplace(std::string(path), std::move(stream));
  }
  return result;
}

}  // namespace iree_rt::hal::utils
