// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hal/device_uri.h"

#include <charconv>

namespace iree_rt::hal {

base::StatusOr<DeviceUri> DeviceUri::Parse(std::string_view uri) {
  DeviceUri result;
  size_t scheme_end = uri.find("://");
  std::string_view rest;
  if (scheme_end == std::string_view::npos) {
    if (uri.find_first_of("?&=/") != std::string_view::npos) {
      return base::InvalidArgumentError("device URI '", uri, "' needs the form driver://path?key=value");
    }
    result.driver = std::string(uri);
  } else {
    result.driver = std::string(uri.substr(0, scheme_end));
    rest = uri.substr(scheme_end + 3);
  }
  if (result.driver.empty()) return base::InvalidArgumentError("device URI '", uri, "' names no driver");
  size_t query = rest.find('?');
  result.path = std::string(rest.substr(0, query));
  if (query != std::string_view::npos) {
    std::string_view params = rest.substr(query + 1);
    while (!params.empty()) {
      size_t amp = params.find('&');
      std::string_view pair = params.substr(0, amp);
      size_t eq = pair.find('=');
      if (pair.empty() || eq == 0) {
        return base::InvalidArgumentError("malformed parameter '", pair, "' in device URI '", uri, "'");
      }
      std::string key(pair.substr(0, eq));
      std::string value = eq == std::string_view::npos ? "" : std::string(pair.substr(eq + 1));
      if (!result.params.emplace(std::move(key), std::move(value)).second) {
        return base::InvalidArgumentError("parameter repeated in device URI '", uri, "'");
      }
      if (amp == std::string_view::npos) break;
      params = params.substr(amp + 1);
    }
  }
  return result;
}

std::optional<std::string_view> DeviceUri::Param(std::string_view key) const {
  auto it = params.find(key);
  if (it == params.end()) return std::nullopt;
  return std::string_view(it->second);
}

base::StatusOr<std::optional<uint64_t>> DeviceUri::UintParam(std::string_view key, uint64_t min,
                                                             uint64_t max) const {
  std::optional<std::string_view> text = Param(key);
  if (!text) return std::optional<uint64_t>();
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size() || value < min || value > max) {
    return base::InvalidArgumentError("device parameter ", key, "='", *text,
                                      "' must be an integer in [", min, ", ", max, "]");
  }
  return std::optional<uint64_t>(value);
}

}  // namespace iree_rt::hal
