// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::utils::FileStreams: the input files a command line reads from, kept open by path so that a
// `+path` spec continues where the previous read of the same path stopped (vm_format_facts.md
// §6.2: `=@file.bin`, `=+file.bin`, `@file.npy`, `+file.npy`, `*file.npy`).
//
// One instance per command line. Not thread-safe.
#ifndef IREE_RT_HAL_UTILS_FILE_STREAMS_H_
#define IREE_RT_HAL_UTILS_FILE_STREAMS_H_

#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"

namespace iree_rt::hal::utils {

class FileStreams {
 public:
  FileStreams();
  ~FileStreams();
  FileStreams(const FileStreams&) = delete;
  FileStreams& operator=(const FileStreams&) = delete;

  // Returns a binary stream over |path|. With |continue_previous| false (`@`) the file is
  // (re)opened at its start; with true (`+`) the stream left by the last read of |path| is returned
  // as it is, or the file is opened at its start if it was never read. The stream stays owned by
  // this object and valid until the next Open of the same path or destruction. NOT_FOUND if it
  // cannot be opened.
  base::StatusOr<std::istream*> Open(std::string_view path, bool continue_previous);

 private:
  std::map<std::string, std::unique_ptr<std::ifstream>, std::less<>> streams_;
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_FILE_STREAMS_H_
