// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// session::DriverSet: the HAL drivers one runtime instance may use, and the devices made from
// them. Every enabled driver, or a caller's subset; each driver created once, on first use; a
// device created from a URI whose parameters merge with per-driver defaults. The C ABI's
// instance and the tools' session are both built on it, so a device URI means the same in both.
//
// Thread-safety: every method may be called from any thread.
#ifndef IREE_RT_SESSION_DRIVER_SET_H_
#define IREE_RT_SESSION_DRIVER_SET_H_

#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "hal/device.h"
#include "hal/driver.h"
#include "hal/driver_registry.h"

namespace iree_rt::session {

using DeviceParams = std::map<std::string, std::string, std::less<>>;

class DriverSet {
 public:
  // Registers the enabled drivers and keeps those named in |allowed| (all when empty; NOT_FOUND
  // for a name not built in). |defaults| are device parameters per driver name.
  static base::StatusOr<std::unique_ptr<DriverSet>> Create(
      std::span<const std::string> allowed = {},
      std::map<std::string, DeviceParams, std::less<>> defaults = {});

  // The drivers this set may use, in registration order.
  const std::vector<std::string>& names() const { return names_; }
  // Every enabled driver's factory (name and description), allowed or not.
  const std::vector<hal::DriverFactory>& factories() const { return registry_.factories(); }

  // The driver |name|, created on first use. NOT_FOUND naming the available ones for another
  // name; a driver's own error (UNAVAILABLE without its hardware) otherwise.
  base::StatusOr<base::Ref<hal::Driver>> Driver(std::string_view name);
  // The devices of driver |name|, or of every available driver when |name| is null.
  base::StatusOr<std::vector<hal::DeviceInfo>> EnumerateDevices(const char* name);
  // Parses |uri| and creates its device. Parameters: |overrides| (nullable) over the URI's over
  // the driver's defaults. |out_driver| (nullable) receives the device's driver.
  base::StatusOr<base::Ref<hal::Device>> CreateDevice(std::string_view uri,
                                                      const DeviceParams* overrides = nullptr,
                                                      base::Ref<hal::Driver>* out_driver = nullptr);

 private:
  DriverSet() = default;

  hal::DriverRegistry registry_;
  std::vector<std::string> names_;
  std::map<std::string, DeviceParams, std::less<>> defaults_;
  std::mutex mutex_;  // guards drivers_
  std::map<std::string, base::Ref<hal::Driver>, std::less<>> drivers_;
};

}  // namespace iree_rt::session

#endif  // IREE_RT_SESSION_DRIVER_SET_H_
