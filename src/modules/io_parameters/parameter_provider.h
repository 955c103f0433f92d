// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// io_parameters::ParameterProvider: where the parameters of one scope come from, as the
// `io_parameters` module needs them: for each key, a range of a hal::File (zero-padded past
// the bytes the file stores), or a splat pattern. An index over archive files implements it;
// so can a test or an embedder with parameters in memory.
//
// Thread-safety: Lookup may be called from any number of threads.
#ifndef IREE_RT_MODULES_IO_PARAMETERS_PARAMETER_PROVIDER_H_
#define IREE_RT_MODULES_IO_PARAMETERS_PARAMETER_PROVIDER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/file.h"

namespace iree_rt::modules::io_parameters {

class ParameterProvider : public base::RefObject {
 public:
  struct Entry {
    uint64_t length = 0;  // the parameter's bytes

    // A splat: |pattern_length| (1, 2, 4, 8 or 16) bytes repeated over |length|.
    bool splat = false;
    uint8_t pattern[16] = {};
    uint8_t pattern_length = 0;

    // Otherwise the first |stored_length| bytes (<= |length|) are |file| at |file_offset|; the
    // rest read as zeros.
    base::Ref<hal::File> file;
    uint64_t file_offset = 0;
    uint64_t stored_length = 0;
    // The stored bytes in host memory when the file is mapped or read into memory (|file| keeps
    // them alive): a CPU device then imports them instead of copying.
    const uint8_t* host_data = nullptr;
  };

  // The scope this provider answers for ("" is the unscoped scope).
  virtual const std::string& scope() const = 0;
  // NOT_FOUND naming the key and scope when there is no such parameter.
  virtual base::StatusOr<Entry> Lookup(std::string_view key) const = 0;

 protected:
  ParameterProvider() = default;
};

}  // namespace iree_rt::modules::io_parameters

#endif  // IREE_RT_MODULES_IO_PARAMETERS_PARAMETER_PROVIDER_H_
