// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/executable.h"

#include "drivers/cpu/loader/executable_library.h"
#include "drivers/cpu/vmvx/vmvx_program.h"

namespace iree_rt::drivers::cpu {

bool Executable::SupportsFormat(std::string_view format) {
  return format == VmvxProgram::kFormat || ExecutableLibrary::SupportsFormat(format);
}

base::StatusOr<base::Ref<Executable>> Executable::Load(std::string_view format,
                                                       std::span<const uint8_t> data,
                                                       std::span<const uint32_t> constants) {
  std::unique_ptr<DispatchProgram> program;
  if (format == VmvxProgram::kFormat) {
    RT_ASSIGN_OR_RETURN(program, VmvxProgram::Load(data, constants));
  } else {
    RT_ASSIGN_OR_RETURN(program, ExecutableLibrary::Load(format, data, constants));
  }
  std::vector<hal::ExportInfo> exports(program->export_count());
  for (uint32_t i = 0; i < program->export_count(); ++i) {
    const auto& info = program->export_info(i);
    exports[i].name = info.name;
    exports[i].constant_count = info.constant_count;
    exports[i].binding_count = info.binding_count;
    for (int d = 0; d < 3; ++d) exports[i].workgroup_size[d] = info.workgroup_size[d];
  }
  return base::Ref<Executable>::Adopt(new Executable(std::move(exports), std::move(program)));
}

}  // namespace iree_rt::drivers::cpu
