// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// tooling::RunSession: the setup every command-line tool shares (iree-rt-run, iree-rt-check,
// iree-rt-benchmark): an instance with the hal ref types, the devices named by --device, the
// native hal and check modules, the --module files (mmapped) and one context over them all.
//
// It also knows the calling conventions of compiled functions that a tool must honour:
// functions compiled with --iree-execution-model=async-external ("iree.abi.model" =
// "coarse-fences") take two trailing hal.fence arguments (wait, signal) that users never give.
//
// Thread-safety: externally synchronized, like the vm::Context it holds.
#ifndef IREE_RT_TOOLING_RUN_SESSION_H_
#define IREE_RT_TOOLING_RUN_SESSION_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "modules/io_parameters/archive_provider.h"
#include "hal/device.h"
#include "vm/context.h"
#include "vm/instance.h"
#include "vm/module.h"
#include "vm/value.h"

namespace iree_rt::tooling {

// How --module files reach memory: mapped (pages shared and loaded on use) or read whole at start
// (IREE's tools' default; steadier first-call times).
enum class ModuleMode { kMmap, kPreload };

struct SessionOptions {
  std::vector<std::string> device_uris;   // --device flags, in order; empty means {"local-task"}
  std::vector<std::string> module_paths;  // --module flags, in order; the last is the main module
  std::vector<std::string> limits;        // --limit flags: "max_call_depth=64", "...=unlimited"
  ModuleMode module_mode = ModuleMode::kPreload;  // --module_mode (IREE's default too)
  // --parameters flags ("[scope=]path", repeatable) and --parameter_mode. Mapped by default:
  // CPU devices then use the archive's pages in place (IREE's tools default to "file").
  std::vector<std::string> parameters;
  modules::io_parameters::ParameterMode parameter_mode = modules::io_parameters::ParameterMode::kMmap;
  // --trace=PATH: base::trace records from Create on; the file is written when the session ends.
  std::string trace_path;
  // --print_statistics / --dispatch_statistics: printed to stderr when the session ends
  // (tooling/statistics.h).
  bool print_statistics = false;
  bool dispatch_statistics = false;
};

// An instance, the devices, the hal and check modules, the loaded modules and one context over
// them all (hal and check first, then the modules in order).
class RunSession {
 public:
  // Errors name the device URI or module path that failed; INVALID_ARGUMENT without modules.
  static base::StatusOr<std::unique_ptr<RunSession>> Create(const SessionOptions& options);

  vm::Instance& instance() { return *instance_; }
  hal::Device& device() { return *devices_.front(); }  // the first device
  std::span<const base::Ref<hal::Device>> devices() const { return devices_; }
  vm::Context& context() { return *context_; }
  vm::Module& main_module() { return *modules_.back(); }

  // Replaces the context with a fresh one over the same modules (new globals, new module
  // states). Functions looked up before refer to the old context and must be looked up again.
  base::Status ResetContext();

  // Resolves --function (empty: the main module's only public export) to a function. NOT_FOUND
  // for an unknown name lists the main module's public exports with their signatures.
  base::StatusOr<vm::Context::Function> LookupFunction(std::string_view name);

  // Parses iree-run-module-style input specs for |function|. Tensors are uploaded to the first
  // device's device-local memory, so a GPU does not read them over the bus at every call.
  // Errors carry the function's signature.
  base::StatusOr<std::vector<vm::Value>> ParseInputs(const vm::Context::Function& function,
                                                     std::span<const std::string> specs);

  // Invokes |function|. Functions compiled with --iree-execution-model=async-external take two
  // extra trailing hal.fence arguments (wait, signal) that the caller does not give: Invoke
  // appends an empty wait fence and a signal fence and waits on the signal fence after the call,
  // as iree-run-module does.
  base::Status Invoke(const vm::Context::Function& function, std::span<const vm::Value> args,
                      std::vector<vm::Value>* results);

  // Replaces each buffer-view result the host cannot map (device-local GPU memory) by a
  // host-readable copy, for printing, writing and comparing.
  base::Status DownloadResults(std::vector<vm::Value>* results);

  // The cconv of |function| as its callers see it: without the async fence arguments.
  static base::StatusOr<std::string> UserCconv(const vm::ExportInfo& info);
  // Whether |info| was compiled with the async-external (coarse-fences) execution model.
  static bool IsAsync(const vm::ExportInfo& info);
  // Whether |name| is meant for callers: not "__"-prefixed internals, not "$" variants.
  static bool IsPublicExport(std::string_view name);
  // "@name(cconv)" followed by the source declaration the compiler recorded, when it did
  // (`func @main(%input0: tensor<1x3x224x224xf32>) -> ...`).
  static std::string Signature(const vm::ExportInfo& info);

  // Prints the statistics asked for and writes the trace file (--trace or IREE_RT_TRACE).
  ~RunSession();

 private:
  RunSession() = default;

  bool print_statistics_ = false;
  bool dispatch_statistics_ = false;
  bool owns_trace_ = false;  // this session started base::trace and stops it

  base::Ref<vm::Instance> instance_;
  std::vector<base::Ref<hal::Device>> devices_;
  std::vector<base::Ref<vm::Module>> modules_;  // hal, check, then the --module files
  base::Ref<vm::Context> context_;
};

}  // namespace iree_rt::tooling

#endif  // IREE_RT_TOOLING_RUN_SESSION_H_
