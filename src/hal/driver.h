// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::Driver: enumerates and creates the devices of one backend (local-task, cuda, ...).
//
// Thread-safety: every method may be called from any thread.
#ifndef IREE_RT_HAL_DRIVER_H_
#define IREE_RT_HAL_DRIVER_H_

#include <string>
#include <utility>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/device.h"
#include "hal/device_uri.h"

namespace iree_rt::hal {

struct DeviceInfo {
  std::string name;  // human-readable
  std::string uri;   // a URI that creates this device
  std::vector<std::pair<std::string, std::string>> properties;
};

class Driver : public base::RefObject {
 public:
  const std::string& name() const { return name_; }

  base::StatusOr<std::vector<DeviceInfo>> EnumerateDevices() { return EnumerateDevicesImpl(); }
  // |uri.driver| must be this driver's name. Unknown parameters are INVALID_ARGUMENT.
  base::StatusOr<base::Ref<Device>> CreateDevice(const DeviceUri& uri);

 protected:
  explicit Driver(std::string name) : name_(std::move(name)) {}

 private:
  virtual base::StatusOr<std::vector<DeviceInfo>> EnumerateDevicesImpl() = 0;
  virtual base::StatusOr<base::Ref<Device>> CreateDeviceImpl(const DeviceUri& uri) = 0;

  const std::string name_;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_DRIVER_H_
