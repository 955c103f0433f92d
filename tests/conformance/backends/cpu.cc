// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The CPU backends: local-sync, local-task with the default worker count, and local-task with
// exactly 4 workers (more workers than this machine may have cores: exercises oversubscription).
// Devices are made the way applications make them: DriverRegistry + RegisterCpuDrivers + a URI.
#include <fstream>
#include <iterator>

#include "drivers/cpu/registration.h"
#include "hal/device_uri.h"
#include "hal/driver_registry.h"
#include "registry.h"

namespace iree_rt::cts {

namespace {

using base::Ref;
using base::StatusOr;

// The <arch> of the embedded-elf format the test kernels were compiled to (hal_abi_facts.md §3a.1).
constexpr const char* kEmbeddedElfFormat =
#if defined(__x86_64__)
    "embedded-elf-x86_64";
#elif defined(__aarch64__)
    "embedded-elf-arm_64";
#else
    "embedded-elf-unknown";
#endif

StatusOr<Ref<hal::Driver>> CreateCpuDriver(std::string_view name) {
  hal::DriverRegistry registry;
  RT_RETURN_IF_ERROR(drivers::cpu::RegisterCpuDrivers(registry));
  return registry.CreateDriver(name);
}

StatusOr<Ref<hal::Device>> CreateCpuDevice(std::string_view uri_text) {
  RT_ASSIGN_OR_RETURN(hal::DeviceUri uri, hal::DeviceUri::Parse(uri_text));
  RT_ASSIGN_OR_RETURN(Ref<hal::Driver> driver, CreateCpuDriver(uri.driver));
  return driver->CreateDevice(uri);
}

StatusOr<std::vector<uint8_t>> ReadTestKernel(std::string_view name) {
#ifdef RT_CTS_EXECUTABLES_DIR
  const std::string path = std::string(RT_CTS_EXECUTABLES_DIR) + "/rt_exe_" + std::string(name) + ".so";
  std::ifstream file(path, std::ios::binary);
  if (!file) return base::NotFoundError("cannot open test kernel ", path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
#else
  return base::UnavailableError("this build has no compiled test kernels (iree-compile not found)");
#endif
}

Backend MakeCpuBackend(std::string name, std::string driver, std::string uri) {
  Backend backend;
  backend.name = std::move(name);
  backend.driver = driver;
  backend.create_device = [uri]() { return CreateCpuDevice(uri); };
  backend.create_driver = [driver]() { return CreateCpuDriver(driver); };
  backend.executable_format = kEmbeddedElfFormat;
  backend.executable_data = ReadTestKernel;
  // Nothing is unsupported: the CPU drivers implement every feature the suites test. Entries
  // would read {"Suite.Case*", "reason"}.
  backend.unsupported = {};
  backend.xfail = {};
  return backend;
}

}  // namespace

void RegisterBackends(Registry& registry) {
  registry.Register(MakeCpuBackend("local-sync", "local-sync", "local-sync"));
  registry.Register(MakeCpuBackend("local-task", "local-task", "local-task"));
  registry.Register(MakeCpuBackend("local-task-w4", "local-task", "local-task://?workers=4"));
}

}  // namespace iree_rt::cts
