// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "tooling/info_flags.h"

#include <cstdio>
#include <cstdlib>

#include "hal/driver_registry.h"
#include "iree_rt.h"
#include "session/driver_set.h"
#include "vm/bytecode/module_image.h"

namespace iree_rt::tooling {

const char kInfoFlagsUsage[] =
    "  --version  the tool and runtime version\n"
    "  --list_drivers  the HAL drivers built in\n"
    "  --list_devices[=DRIVER], --dump_devices[=DRIVER]  the devices each driver finds (as\n"
    "             URIs for --device), with their properties for --dump_devices\n"
    "  --module_mode=preload|mmap  read --module files into memory (default, as IREE's tools) or\n"
    "             map them (less memory; constants are then read through the page cache)\n"
    "  --parameters=[SCOPE=]FILE  a parameter archive (.irpa, .safetensors, .gguf) for SCOPE\n"
    "             (none: the unscoped scope); repeatable, several files may share a scope\n"
    "  --parameter_mode=mmap|preload|file  map archives and use their pages in place (default),\n"
    "             read them into memory first, or copy each parameter from the file\n"
    "  --trace=FILE  write a Chrome/Perfetto trace (JSON) of the run to FILE (also: the\n"
    "             environment variable IREE_RT_TRACE=FILE)\n"
    "  --print_statistics  device memory (live, peak, allocations) per device, to stderr\n"
    "  --dispatch_statistics  per dispatched export: count, total, mean, min, max time, to stderr\n"
    "                  (also --print_device_statistics, IREE's name)\n";

namespace {

[[noreturn]] void PrintAndExit(std::string_view tool, const base::StatusOr<std::string>& text) {
  if (!text.ok()) {
    std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(tool.size()), tool.data(),
                 text.status().ToString().c_str());
    std::exit(1);
  }
  std::fwrite(text->data(), 1, text->size(), stdout);
  std::exit(0);
}

}  // namespace

std::string ListDrivers() {
  auto drivers = session::DriverSet::Create();
  if (!drivers.ok()) return base::StrCat("# cannot register drivers: ", drivers.status().ToString(), "\n");
  std::string out = "# HAL drivers built into iree_rt; --list_devices=DRIVER lists a driver's devices.\n";
  for (const hal::DriverFactory& factory : (*drivers)->factories()) {
    out += base::StrCat(factory.name, ": ", factory.description, "\n");
  }
  return out;
}

base::StatusOr<std::string> ListDevices(std::string_view driver, bool dump) {
  RT_ASSIGN_OR_RETURN(std::unique_ptr<session::DriverSet> drivers, session::DriverSet::Create());
  bool found = driver.empty();
  std::string out;
  for (const std::string& name : drivers->names()) {
    if (!driver.empty() && name != driver) continue;
    found = true;
    auto created = drivers->Driver(name);
    if (!created.ok()) {
      out += base::StrCat("# ", name, ": unavailable: ", created.status().ToString(), "\n");
      continue;
    }
    auto devices = (*created)->EnumerateDevices();
    if (!devices.ok()) {
      out += base::StrCat("# ", name, ": ", devices.status().ToString(), "\n");
      continue;
    }
    for (const hal::DeviceInfo& info : *devices) {
      if (!dump) {
        out += info.uri + "\n";
        continue;
      }
      out += base::StrCat("# ", info.uri, "\n  name: ", info.name, "\n  driver: ", name, "\n");
      for (const auto& [key, value] : info.properties) out += base::StrCat("  ", key, ": ", value, "\n");
    }
  }
  if (!found) {
    return base::NotFoundError("no driver named '", driver, "' (--list_drivers lists them)");
  }
  return out;
}

base::StatusOr<bool> HandleInfoFlag(std::string_view tool, std::string_view arg, SessionOptions* options) {
  const size_t eq = arg.find('=');
  const std::string_view name = arg.substr(0, eq);
  const std::string_view value = eq == std::string_view::npos ? "" : arg.substr(eq + 1);
  if (name == "--version") {
    PrintAndExit(tool, base::StrCat(tool, " (iree_rt ", IREE_RT_PACKAGE_VERSION, ", ABI ",
                                    IREE_RT_ABI_VERSION_MAJOR, ".", IREE_RT_ABI_VERSION_MINOR,
                                    "; runs modules of iree-base-compiler ",
                                    vm::bytecode::kCompilerVersion, ", bytecode ",
                                    vm::bytecode::kBytecodeVersionMajor, ".",
                                    vm::bytecode::kBytecodeVersionMinor, ")\n"));
  }
  if (name == "--list_drivers") PrintAndExit(tool, ListDrivers());
  if (name == "--list_devices") PrintAndExit(tool, ListDevices(value, /*dump=*/false));
  if (name == "--dump_devices") PrintAndExit(tool, ListDevices(value, /*dump=*/true));
  if (name == "--module_mode") {
    if (value == "preload") {
      options->module_mode = ModuleMode::kPreload;
    } else if (value == "mmap") {
      options->module_mode = ModuleMode::kMmap;
    } else {
      return base::InvalidArgumentError("bad --module_mode=", value, " (preload or mmap)");
    }
    return true;
  }
  if (name == "--trace") {
    if (value.empty()) return base::InvalidArgumentError("--trace needs a file path");
    options->trace_path = std::string(value);
    return true;
  }
  if (arg == "--print_statistics" || arg == "--print_statistics=true") {
    options->print_statistics = true;
    return true;
  }
  if (arg == "--dispatch_statistics" || arg == "--dispatch_statistics=true" || arg == "--print_device_statistics" ||
      arg == "--print_device_statistics=true") {
    options->dispatch_statistics = true;
    return true;
  }
  if (name == "--parameters") {
    if (value.empty()) return base::InvalidArgumentError("--parameters needs [SCOPE=]FILE");
    options->parameters.emplace_back(value);
    return true;
  }
  if (name == "--parameter_mode") {
    using modules::io_parameters::ParameterMode;
    if (value == "mmap") {
      options->parameter_mode = ParameterMode::kMmap;
    } else if (value == "preload") {
      options->parameter_mode = ParameterMode::kPreload;
    } else if (value == "file") {
      options->parameter_mode = ParameterMode::kFile;
    } else {
      return base::InvalidArgumentError("bad --parameter_mode=", value, " (mmap, preload or file)");
    }
    return true;
  }
  return false;
}

}  // namespace iree_rt::tooling
