// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/hal/hal_module.h"

#include <algorithm>
#include <memory>

#include "hal/device.h"
#include "modules/hal/exports.h"
#include "modules/hal/module_state.h"
#include "vm/native_module.h"

namespace iree_rt::modules::hal {
namespace {

using base::Ref;
using base::Status;
using base::StatusOr;
namespace rt = ::iree_rt::hal;

class HalModule final : public vm::NativeModule {
 public:
  HalModule(std::vector<Ref<rt::Device>> devices, ExportDefs defs)
      : NativeModule("hal", kHalModuleVersion, std::move(defs)), devices_(std::move(devices)) {}

  using NativeModule::Validate;

  StatusOr<std::unique_ptr<vm::ModuleState>> CreateState(vm::Instance& instance) override {
    return std::unique_ptr<vm::ModuleState>(std::make_unique<HalState>(devices_));
  }

 private:
  const std::vector<Ref<rt::Device>> devices_;
};

}  // namespace

StatusOr<Ref<vm::Module>> CreateHalModule(std::vector<Ref<rt::Device>> devices) {
  if (devices.empty()) return base::InvalidArgumentError("the hal module needs at least one device");
  for (size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i]) return base::InvalidArgumentError("device ", i, " given to the hal module is null");
  }
  ExportDefs defs;
  AppendBufferExports(&defs);
  AppendCommandBufferExports(&defs);
  AppendDeviceExports(&defs);
  AppendExecutableAndFenceExports(&defs);
  // Sorted by name, as the reference orders its exports.
  std::sort(defs.begin(), defs.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  auto module = base::MakeRef<HalModule>(std::move(devices), std::move(defs));
  RT_RETURN_IF_ERROR(module->Validate());
  return Ref<vm::Module>(std::move(module));
}

}  // namespace iree_rt::modules::hal
