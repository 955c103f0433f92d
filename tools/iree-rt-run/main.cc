// iree-rt-run: runs one function of a compiled module, with iree-run-module's flags and output.
//
//   iree-rt-run --module=m.vmfb [--module=...] [--function=f] [--input=SPEC ...]
//               [--device=local-task] [--output=SPEC ...] [--output_max_element_count=N]
//
// Prints "EXEC @f" and then each result as iree-run-module does. Exit code 0 only on success;
// errors go to stderr and name the problem.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "api/driver_registration.h"
#include "base/mapped_file.h"
#include "base/status.h"
#include "hal/device.h"
#include "hal/device_uri.h"
#include "hal/driver_registry.h"
#include "modules/hal/ref_types.h"
#include "tooling/function_io.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/cconv.h"
#include "vm/context.h"
#include "vm/instance.h"

namespace iree_rt {
namespace {

using base::Ref;
using base::Status;
using base::StatusOr;

struct Flags {
  std::vector<std::string> modules;
  std::string function;
  std::vector<std::string> inputs;
  std::vector<std::string> devices;
  std::vector<std::string> outputs;
  bool has_outputs = false;
  size_t output_max_element_count = 1024;
};

constexpr const char kUsage[] =
    "usage: iree-rt-run --module=FILE.vmfb [--module=...] [--function=NAME] [--input=SPEC ...]\n"
    "                   [--device=URI] [--output=SPEC ...] [--output_max_element_count=N]\n"
    "Runs one exported function and prints its results as iree-run-module does.\n"
    "  --module   a compiled module; repeat to link several (the last one is the main module)\n"
    "  --function the export to run (default: the main module's only public export)\n"
    "  --input    one per argument: 5, -2.5, 0x10, 4xf32=1 2 3 4, @file.npy, (null)\n"
    "  --device   the HAL device for tensor inputs (default local-task)\n"
    "  --output   one per result: '' discards, '-' prints, @path / +path write (.npy or raw)\n";

StatusOr<Flags> ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    const size_t eq = arg.find('=');
    if (arg.substr(0, 2) != "--" || eq == std::string_view::npos) {
      return base::InvalidArgumentError("unrecognized argument `", arg, "` (flags are --name=value)");
    }
    const std::string_view name = arg.substr(2, eq - 2);
    const std::string value(arg.substr(eq + 1));
    if (name == "module") {
      flags.modules.push_back(value);
    } else if (name == "function") {
      flags.function = value;
    } else if (name == "input") {
      flags.inputs.push_back(value);
    } else if (name == "device") {
      flags.devices.push_back(value);
    } else if (name == "output") {
      flags.outputs.push_back(value);
      flags.has_outputs = true;
    } else if (name == "output_max_element_count") {
      char* end = nullptr;
      flags.output_max_element_count = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end) return base::InvalidArgumentError("bad --", name, "=", value);
    } else {
      return base::InvalidArgumentError("unknown flag --", name, " (see --help)");
    }
  }
  if (flags.modules.empty()) return base::InvalidArgumentError("no --module= given (see --help)");
  return flags;
}

StatusOr<Ref<hal::Device>> CreateDevice(const std::vector<std::string>& uris) {
  const std::string uri = uris.empty() ? "local-task" : uris.front();
  hal::DriverRegistry registry;
  RT_RETURN_IF_ERROR(drivers::RegisterEnabledDrivers(registry));
  RT_ASSIGN_OR_RETURN(hal::DeviceUri parsed, hal::DeviceUri::Parse(uri));
  RT_ASSIGN_OR_RETURN(Ref<hal::Driver> driver, registry.CreateDriver(parsed.driver));
  return driver->CreateDevice(parsed);
}

// The export to run: --function, else the main module's only export meant for callers.
StatusOr<std::string> SelectFunction(const Flags& flags, const vm::Module& main_module) {
  if (!flags.function.empty()) return flags.function;
  std::vector<std::string> candidates;
  for (const vm::ExportInfo& info : main_module.exports()) {
    if (info.name.substr(0, 2) == "__" || info.name.find('$') != std::string_view::npos) continue;
    candidates.emplace_back(info.name);
  }
  if (candidates.size() != 1) {
    std::string names;
    for (const std::string& name : candidates) names += (names.empty() ? "" : ", ") + name;
    return base::InvalidArgumentError("no --function= given and module '", main_module.name(),
                                      "' has ", candidates.size(), " public exports (", names,
                                      "); choose one");
  }
  return candidates.front();
}

Status Run(const Flags& flags, std::string* out) {
  Ref<vm::Instance> instance = vm::Instance::Create();
  RT_RETURN_IF_ERROR(modules::hal::RegisterRefTypes(*instance));
  std::vector<Ref<vm::Module>> modules;
  for (const std::string& path : flags.modules) {
    RT_ASSIGN_OR_RETURN(Ref<base::MappedFile> file, base::MappedFile::Open(path));
    std::span<const uint8_t> bytes = file->span();
    auto module = vm::bytecode::BytecodeModule::Load(*instance, bytes, std::move(file));
    if (!module.ok()) {
      Status status = module.status();
      return status.Annotate(base::StrCat("loading module '", path, "'"));
    }
    modules.push_back(std::move(module).value());
  }
  RT_ASSIGN_OR_RETURN(Ref<vm::Context> context, vm::Context::Create(instance, modules));
  RT_ASSIGN_OR_RETURN(std::string name, SelectFunction(flags, *modules.back()));
  RT_ASSIGN_OR_RETURN(vm::Context::Function function, context->LookupFunction(name));

  // A device is only made when a reference argument gets a tensor.
  RT_ASSIGN_OR_RETURN(vm::Cconv cconv, vm::ParseCconv(function.info->cconv));
  bool needs_device = !flags.devices.empty();
  for (size_t i = 0; i < flags.inputs.size() && i < cconv.arguments.size(); ++i) {
    needs_device |= cconv.arguments[i].type == vm::ValueType::kRef &&
                    flags.inputs[i] != "(null)" && flags.inputs[i] != "(ignored)";
  }
  Ref<hal::Device> device;
  if (needs_device) {
    RT_ASSIGN_OR_RETURN(device, CreateDevice(flags.devices));
  }
  RT_ASSIGN_OR_RETURN(std::vector<vm::Value> args,
                      tooling::ParseInputs(flags.inputs, function.info->cconv,
                                           device ? &device->allocator() : nullptr));

  *out += base::StrCat("EXEC @", function.info->name, "\n");
  std::vector<vm::Value> results;
  Status status = context->Invoke(function, args, &results);
  if (!status.ok()) return status;
  if (flags.has_outputs) {
    return tooling::WriteOutputs(results, flags.outputs, flags.output_max_element_count, out);
  }
  RT_ASSIGN_OR_RETURN(std::string text,
                      tooling::FormatResults(results, flags.output_max_element_count));
  *out += text;
  return Status::Ok();
}

}  // namespace
}  // namespace iree_rt

int main(int argc, char** argv) {
  auto flags = iree_rt::ParseFlags(argc, argv);
  if (!flags.ok()) {
    std::fprintf(stderr, "iree-rt-run: %s\n", flags.status().ToString().c_str());
    return 1;
  }
  std::string out;
  iree_rt::base::Status status = iree_rt::Run(*flags, &out);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  if (!status.ok()) {
    std::fprintf(stderr, "iree-rt-run: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
