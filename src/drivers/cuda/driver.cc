// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/driver.h"

#include <cctype>
#include <cstdlib>
#include <cstdio>

#include "drivers/cuda/device.h"
#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

using base::Ref;
using base::StatusOr;

namespace {

std::string Lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

StatusOr<bool> BoolParam(const hal::DeviceUri& uri, std::string_view key, bool fallback) {
  std::optional<std::string_view> value = uri.Param(key);
  if (!value) return fallback;
  const std::string text = Lowercase(*value);
  if (text == "true" || text == "1" || text == "on") return true;
  if (text == "false" || text == "0" || text == "off") return false;
  return base::InvalidArgumentError("device parameter '", key, "' must be true or false, not '", *value, "'");
}

}  // namespace

StatusOr<Ref<hal::Driver>> Driver::Create() {
  RT_ASSIGN_OR_RETURN(const DynamicSymbols* syms, DynamicSymbols::Get());
  int count = 0;
  RT_CUDA_RETURN_IF_ERROR(*syms, cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (count == 0) return base::UnavailableError("the CUDA driver loaded but reports no GPUs");
  return Ref<hal::Driver>(base::MakeRef<Driver>(*syms));
}

StatusOr<std::string> Driver::DevicePath(CUdevice device) const {
  CUuuid uuid;
  RT_CUDA_RETURN_IF_ERROR(syms_, cuDeviceGetUuid(&uuid, device), "cuDeviceGetUuid");
  std::string path = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) path += '-';
    char hex[3];
    std::snprintf(hex, sizeof(hex), "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    path += hex;
  }
  return path;
}

StatusOr<std::vector<hal::DeviceInfo>> Driver::EnumerateDevicesImpl() {
  int count = 0;
  RT_CUDA_RETURN_IF_ERROR(syms_, cuDeviceGetCount(&count), "cuDeviceGetCount");
  std::vector<hal::DeviceInfo> devices;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    RT_CUDA_RETURN_IF_ERROR(syms_, cuDeviceGet(&device, ordinal), "cuDeviceGet");
    char name[256] = {};
    RT_CUDA_RETURN_IF_ERROR(syms_, cuDeviceGetName(name, sizeof(name) - 1, device), "cuDeviceGetName");
    RT_ASSIGN_OR_RETURN(std::string path, DevicePath(device));
    int major = 0, minor = 0;
    syms_.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    syms_.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    size_t memory = 0;
    syms_.cuDeviceTotalMem(&memory, device);
    hal::DeviceInfo info;
    info.name = name;
    info.uri = "cuda://" + path;
    info.properties = {{"ordinal", std::to_string(ordinal)},
                       {"compute_capability", std::to_string(major) + "." + std::to_string(minor)},
                       {"memory_bytes", std::to_string(memory)},
                       {"driver_version", std::to_string(syms_.driver_version)}};
    devices.push_back(std::move(info));
  }
  return devices;
}

StatusOr<Ref<hal::Device>> Driver::CreateDeviceImpl(const hal::DeviceUri& uri) {
  for (const auto& [key, value] : uri.params) {
    if (key == "command_buffer_mode" || key == "async_allocations" || key == "event_pool_capacity") continue;
    return base::InvalidArgumentError("driver 'cuda' has no device parameter '", key,
                                      "' (known: command_buffer_mode, async_allocations, event_pool_capacity)");
  }
  DeviceOptions options;
  if (std::optional<std::string_view> mode = uri.Param("command_buffer_mode")) {
    const std::string text = Lowercase(*mode);
    if (text == "graph") {
      options.command_buffer_mode = CommandBufferMode::kGraph;
    } else if (text == "stream") {
      options.command_buffer_mode = CommandBufferMode::kStream;
    } else {
      return base::InvalidArgumentError("command_buffer_mode must be 'graph' or 'stream', not '", *mode, "'");
    }
  }
  RT_ASSIGN_OR_RETURN(options.async_allocations, BoolParam(uri, "async_allocations", true));
  RT_ASSIGN_OR_RETURN(std::optional<uint64_t> capacity, uri.UintParam("event_pool_capacity", 0, 1 << 20));
  if (capacity) options.event_pool_capacity = *capacity;

  int count = 0;
  RT_CUDA_RETURN_IF_ERROR(syms_, cuDeviceGetCount(&count), "cuDeviceGetCount");
  int ordinal = -1;
  if (uri.path.empty()) {
    // Under an MPI launcher each process of a node takes the GPU of its local rank.
    ordinal = 0;
    for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
      const char* local = std::getenv(name);
      if (local && *local && count > 0) {
        ordinal = static_cast<int>(std::strtol(local, nullptr, 10) % count);
        break;
      }
    }
  } else if (uri.path.rfind("GPU-", 0) == 0 || uri.path.rfind("gpu-", 0) == 0) {
    const std::string wanted = Lowercase(uri.path);
    for (int i = 0; i < count && ordinal < 0; ++i) {
      CUdevice device = 0;
      RT_CUDA_RETURN_IF_ERROR(syms_, cuDeviceGet(&device, i), "cuDeviceGet");
      RT_ASSIGN_OR_RETURN(std::string path, DevicePath(device));
      if (Lowercase(path) == wanted) ordinal = i;
    }
    if (ordinal < 0) return base::NotFoundError("no CUDA device has the UUID path '", uri.path, "'");
  } else {
    char* end = nullptr;
    const long value = std::strtol(uri.path.c_str(), &end, 10);
    if (*end != '\0' || value < 0) {
      return base::InvalidArgumentError("CUDA device path '", uri.path,
                                        "' is neither an ordinal nor GPU-<uuid>");
    }
    if (value >= count) {
      return base::NotFoundError("CUDA device ordinal ", value, " out of range (", count, " devices)");
    }
    ordinal = static_cast<int>(value);
  }
  CUdevice device = 0;
  RT_CUDA_RETURN_IF_ERROR(syms_, cuDeviceGet(&device, ordinal), "cuDeviceGet");
  RT_ASSIGN_OR_RETURN(Ref<Device> created, Device::Create(syms_, device, options));
  return Ref<hal::Device>(std::move(created));
}

}  // namespace iree_rt::drivers::cuda
