// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/driver.h"

#include <thread>

#include "drivers/cpu/device.h"

namespace iree_rt::drivers::cpu {

using base::Ref;
using base::StatusOr;

Driver::Driver(Kind kind) : hal::Driver(kind == Kind::kSync ? "local-sync" : "local-task"), kind_(kind) {}

StatusOr<std::vector<hal::DeviceInfo>> Driver::EnumerateDevicesImpl() {
  hal::DeviceInfo info;
  info.name = kind_ == Kind::kSync ? "CPU (inline, calling thread)" : "CPU (task system)";
  info.uri = name();
  if (kind_ == Kind::kTask) {
    unsigned cores = std::thread::hardware_concurrency();
    info.properties.emplace_back("workers", std::to_string(cores ? cores : 1));
  }
  return std::vector<hal::DeviceInfo>{info};
}

StatusOr<Ref<hal::Device>> Driver::CreateDeviceImpl(const hal::DeviceUri& uri) {
  if (!uri.path.empty() && uri.path != "0") {
    return base::NotFoundError("driver '", name(), "' has one device (path '' or '0'), not '", uri.path, "'");
  }
  for (const auto& [key, value] : uri.params) {
    if (kind_ == Kind::kTask && key == "workers") continue;
    return base::InvalidArgumentError("driver '", name(), "' has no device parameter '", key, "'");
  }
  DeviceOptions options;
  if (kind_ == Kind::kTask) {
    TaskExecutor::Options executor_options;
    RT_ASSIGN_OR_RETURN(std::optional<uint64_t> workers, uri.UintParam("workers", 1, 1024));
    if (workers) executor_options.worker_count = static_cast<uint32_t>(*workers);
    RT_ASSIGN_OR_RETURN(options.executor, TaskExecutor::Create(executor_options));
  }
  return Ref<hal::Device>(base::MakeRef<Device>(name(), options));
}

}  // namespace iree_rt::drivers::cpu
