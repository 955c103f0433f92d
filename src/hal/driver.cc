// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/driver.h"

namespace iree_rt::hal {

base::StatusOr<base::Ref<Device>> Driver::CreateDevice(const DeviceUri& uri) {
  if (uri.driver != name_) {
    return base::InvalidArgumentError("URI for driver '", uri.driver, "' given to driver '", name_, "'");
  }
  return CreateDeviceImpl(uri);
}

}  // namespace iree_rt::hal
