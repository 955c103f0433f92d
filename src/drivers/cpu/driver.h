// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cpu::Driver: "local-sync" (no threads) and "local-task" (a worker pool), one device each.
//
// URI parameters: local-task accepts workers=N (1..1024; default one per core).
#ifndef IREE_RT_DRIVERS_CPU_DRIVER_H_
#define IREE_RT_DRIVERS_CPU_DRIVER_H_

#include "hal/driver.h"

namespace iree_rt::drivers::cpu {

class Driver final : public hal::Driver {
 public:
  enum class Kind { kSync, kTask };
  explicit Driver(Kind kind);

 private:
  base::StatusOr<std::vector<hal::DeviceInfo>> EnumerateDevicesImpl() override;
  base::StatusOr<base::Ref<hal::Device>> CreateDeviceImpl(const hal::DeviceUri& uri) override;

  const Kind kind_;
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_DRIVER_H_
