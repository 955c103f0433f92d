// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Function inputs and results in iree-run-module's text conventions, shared by the tools.
//
// Inputs are parsed against the function's calling convention, one spec per top-level
// argument: scalars ("5", "-2.5", "0x10") for i/I/f/F, and for references "(null)", a tensor
// spec ("4xf32=1 2 3 4", "2x2xi32=[1 2][3 4]", "f32=1.5") or "@file.npy" / "+file.npy" /
// "*file.npy" (the latter expands to every remaining array of the file). Results print as
// "result[i]: " + value text, a line each (vm.list results one line per element).
#ifndef IREE_RT_TOOLING_FUNCTION_IO_H_
#define IREE_RT_TOOLING_FUNCTION_IO_H_

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "vm/value.h"

namespace iree_rt::hal {
class Allocator;
}

namespace iree_rt::tooling {

// Parses |specs| against the arguments of |cconv|. |allocator| (nullable) makes buffer views;
// without one, tensor specs are FAILED_PRECONDITION. Errors name the spec and argument index.
base::StatusOr<std::vector<vm::Value>> ParseInputs(std::span<const std::string> specs,
                                                   std::string_view cconv,
                                                   hal::Allocator* allocator);

// The text iree-run-module prints for |value| after "result[i]: " (without the final newline).
base::StatusOr<std::string> FormatValue(const vm::Value& value, size_t max_element_count);

// "result[0]: ...\nresult[1]: ...\n" for every value of |results|.
base::StatusOr<std::string> FormatResults(std::span<const vm::Value> results,
                                          size_t max_element_count);

// Writes results per |--output| specs (one per result): "" discards, "-" prints the bare value
// (to |out|), "@path"/"+path" create/append a file (.npy → NumPy array, else raw bytes).
base::Status WriteOutputs(std::span<const vm::Value> results, std::span<const std::string> specs,
                          size_t max_element_count, std::string* out);

}  // namespace iree_rt::tooling

#endif  // IREE_RT_TOOLING_FUNCTION_IO_H_
