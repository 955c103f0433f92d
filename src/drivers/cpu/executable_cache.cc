// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/executable_cache.h"

#include "drivers/cpu/executable.h"
#include "drivers/cpu/loader/executable_library.h"
#include "drivers/cpu/vmvx/vmvx_program.h"

namespace iree_rt::drivers::cpu {

namespace {

// The <arch> suffix of the CPU executable format names (hal_abi_facts.md §3a.1).
constexpr const char* kHostArch =
#if defined(__x86_64__)
    "x86_64";
#elif defined(__aarch64__)
    "arm_64";
#else
    "unknown";
#endif

}  // namespace

std::vector<std::string> ExecutableCache::SupportedFormats() const {
  std::vector<std::string> formats;
  for (const char* kind : {"embedded-elf-", "system-elf-"}) {
    std::string format = std::string(kind) + kHostArch;
    if (ExecutableLibrary::SupportsFormat(format)) formats.push_back(std::move(format));
  }
  formats.emplace_back(VmvxProgram::kFormat);
  return formats;
}

bool ExecutableCache::CanPrepareFormatImpl(std::string_view format) const {
  return Executable::SupportsFormat(format);
}

base::StatusOr<base::Ref<hal::Executable>> ExecutableCache::PrepareExecutableImpl(
    const hal::ExecutableParams& params) {
  RT_ASSIGN_OR_RETURN(base::Ref<Executable> executable,
                      Executable::Load(params.format, params.data, params.constants));
  return base::Ref<hal::Executable>(std::move(executable));
}

}  // namespace iree_rt::drivers::cpu
