// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/driver.h"

namespace iree_rt::hal {

namespace {

// Takes the collective parameters every driver shares out of |uri| into |config|.
base::Status TakeChannelParams(DeviceUri& uri, ChannelConfig* config) {
  RT_ASSIGN_OR_RETURN(std::optional<uint64_t> rank, uri.UintParam("rank", 0, INT32_MAX - 1));
  RT_ASSIGN_OR_RETURN(std::optional<uint64_t> ranks, uri.UintParam("ranks", 1, INT32_MAX));
  RT_ASSIGN_OR_RETURN(std::optional<uint64_t> timeout, uri.UintParam("collective_timeout_ms", 1, 86400000));
  if (rank.has_value() != ranks.has_value()) {
    return base::InvalidArgumentError("device parameters rank= and ranks= go together");
  }
  if (rank && *rank >= *ranks) {
    return base::InvalidArgumentError("device parameter rank=", *rank, " is not within ranks=", *ranks);
  }
  if (rank) {
    config->rank = static_cast<int32_t>(*rank);
    config->count = static_cast<int32_t>(*ranks);
  }
  if (std::optional<std::string_view> rendezvous = uri.Param("rendezvous")) config->rendezvous = *rendezvous;
  if (timeout) config->timeout = std::chrono::milliseconds(*timeout);
  for (const char* key : {"rank", "ranks", "rendezvous", "collective_timeout_ms"}) uri.params.erase(key);
  return base::Status::Ok();
}

}  // namespace

base::StatusOr<base::Ref<Device>> Driver::CreateDevice(const DeviceUri& uri) {
  if (uri.driver != name_) {
    return base::InvalidArgumentError("URI for driver '", uri.driver, "' given to driver '", name_, "'");
  }
  DeviceUri own = uri;
  ChannelConfig config;
  RT_RETURN_IF_ERROR(TakeChannelParams(own, &config));
  RT_ASSIGN_OR_RETURN(base::Ref<Device> device, CreateDeviceImpl(own));
  device->set_channel_config(std::move(config));
  return device;
}

}  // namespace iree_rt::hal
