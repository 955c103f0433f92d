#include "drivers/cpu/executable.h"

namespace iree_rt::drivers::cpu {

base::StatusOr<base::Ref<Executable>> Executable::Load(std::string_view format,
                                                       std::span<const uint8_t> data,
                                                       std::span<const uint32_t> constants) {
  RT_ASSIGN_OR_RETURN(std::unique_ptr<ExecutableLibrary> library,
                      ExecutableLibrary::Load(format, data, constants));
  std::vector<hal::ExportInfo> exports(library->export_count());
  for (uint32_t i = 0; i < library->export_count(); ++i) {
    const auto& info = library->export_info(i);
    exports[i].name = info.name;
    exports[i].constant_count = info.constant_count;
    exports[i].binding_count = info.binding_count;
    for (int d = 0; d < 3; ++d) exports[i].workgroup_size[d] = info.workgroup_size[d];
  }
  return base::Ref<Executable>::Adopt(new Executable(std::move(exports), std::move(library)));
}

}  // namespace iree_rt::drivers::cpu
