// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "tooling/run_session.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "base/aligned_bytes.h"
#include "base/mapped_file.h"
#include "base/trace.h"
#include "hal/fence.h"
#include "hal/semaphore.h"
#include "modules/check/check_module.h"
#include "modules/hal/hal_module.h"
#include "modules/hal/ref_types.h"
#include "modules/io_parameters/io_parameters_module.h"
#include "session/driver_set.h"
#include "session/vm_instance.h"
#include "tooling/device_upload.h"
#include "tooling/function_io.h"
#include "tooling/statistics.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/cconv.h"
#include "vm/limits.h"
#include "vm/ref.h"

namespace iree_rt::tooling {
namespace {

using base::Ref;
using base::Status;
using base::StatusOr;

StatusOr<Ref<vm::Module>> LoadModule(vm::Instance& instance, const std::string& path, ModuleMode mode) {
  // The file is mapped either way; preload copies it and lets the mapping go.
  RT_ASSIGN_OR_RETURN(Ref<base::MappedFile> file, base::MappedFile::Open(path));
  Ref<base::RefObject> owner = file;
  std::span<const uint8_t> bytes = file->span();
  if (mode == ModuleMode::kPreload) {
    // Page aligned, as a mapping is: the compiler lays rodata out at aligned file offsets, and
    // kernels load constants with aligned vector loads.
    RT_ASSIGN_OR_RETURN(Ref<base::AlignedBytes> copy, base::AlignedBytes::Copy(bytes));
    bytes = copy->span();
    owner = std::move(copy);
  }
  RT_ASSIGN_OR_RETURN(Ref<vm::bytecode::BytecodeModule> module,
                      vm::bytecode::BytecodeModule::Load(instance, bytes, std::move(owner)));
  return Ref<vm::Module>(std::move(module));
}

template <typename T>
StatusOr<T> Annotated(StatusOr<T> result, std::string_view what, std::string_view name) {
  if (result.ok()) return result;
  Status status = result.status();
  return status.Annotate(base::StrCat(what, " '", name, "'"));
}

// "NAME=VALUE" of a --limit flag into |limits|.
Status ApplyLimitFlag(const std::string& flag, vm::Limits* limits) {
  const size_t eq = flag.find('=');
  if (eq == std::string::npos) {
    return base::InvalidArgumentError("bad --limit=", flag, " (expected NAME=VALUE)");
  }
  RT_ASSIGN_OR_RETURN(uint32_t id, vm::LimitIdByName(flag.substr(0, eq)));
  const std::string value = flag.substr(eq + 1);
  uint64_t number = vm::kUnlimited;
  if (value != "unlimited") {
    char* end = nullptr;
    errno = 0;
    number = std::strtoull(value.c_str(), &end, 0);
    if (value.empty() || value[0] == '-' || *end != '\0' || errno != 0) {
      return base::InvalidArgumentError("bad --limit=", flag,
                                        " (VALUE is a number or 'unlimited')");
    }
  }
  return vm::SetLimit(*limits, id, number).Annotate(base::StrCat("--limit=", flag));
}

}  // namespace

RunSession::~RunSession() {
  if (print_statistics_ || dispatch_statistics_) {
    std::string text;
    if (print_statistics_) text += FormatAllocatorStatistics(devices_);
    if (dispatch_statistics_) text += FormatDispatchStatistics();
    std::fwrite(text.data(), 1, text.size(), stderr);
  }
  base::Status status = owns_trace_ ? base::trace::Stop() : base::trace::Flush();
  if (!status.ok()) std::fprintf(stderr, "%s\n", status.ToString().c_str());
}

StatusOr<std::unique_ptr<RunSession>> RunSession::Create(const SessionOptions& options) {
  if (options.module_paths.empty()) {
    return base::InvalidArgumentError("no --module= given (see --help)");
  }
  std::unique_ptr<RunSession> session(new RunSession());
  session->print_statistics_ = options.print_statistics;
  session->dispatch_statistics_ = options.dispatch_statistics;
  // A trace this session starts ends with it; one from IREE_RT_TRACE lasts for the process.
  base::trace::StartFromEnvironment();
  if (!base::trace::Enabled() && (!options.trace_path.empty() || options.dispatch_statistics)) {
    session->owns_trace_ = true;
  }
  if (!options.trace_path.empty() || options.dispatch_statistics) {
    base::trace::Start(options.trace_path);  // an empty path records for the statistics only
  }
  vm::Limits limits;
  for (const std::string& flag : options.limits) RT_RETURN_IF_ERROR(ApplyLimitFlag(flag, &limits));
  RT_ASSIGN_OR_RETURN(session->instance_, session::CreateVmInstance(limits));

  RT_ASSIGN_OR_RETURN(std::unique_ptr<session::DriverSet> drivers, session::DriverSet::Create());
  std::vector<std::string> uris = options.device_uris;
  if (uris.empty()) uris.push_back("local-task");
  for (const std::string& uri : uris) {
    RT_ASSIGN_OR_RETURN(Ref<hal::Device> device,
                        Annotated(drivers->CreateDevice(uri), "creating device", uri));
    session->devices_.push_back(std::move(device));
  }

  RT_ASSIGN_OR_RETURN(Ref<vm::Module> hal_module,
                      modules::hal::CreateHalModule(session->devices_));
  session->modules_.push_back(std::move(hal_module));
  RT_ASSIGN_OR_RETURN(Ref<vm::Module> check_module, modules::check::CreateCheckModule());
  session->modules_.push_back(std::move(check_module));
  std::vector<Ref<vm::Module>> programs;
  bool wants_parameters = !options.parameters.empty();
  for (const std::string& path : options.module_paths) {
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> module,
                        Annotated(LoadModule(*session->instance_, path, options.module_mode), "loading module", path));
    for (const vm::Dependency& dependency : module->dependencies()) {
      wants_parameters |= dependency.name == "io_parameters";
    }
    programs.push_back(std::move(module));
  }
  // Programs with external weights import io_parameters: created whenever one does (without
  // --parameters, a load then names the scope it found no file for).
  if (wants_parameters) {
    RT_ASSIGN_OR_RETURN(std::vector<Ref<modules::io_parameters::ParameterProvider>> providers,
                        modules::io_parameters::OpenParameterFlags(options.parameters,
                                                                   options.parameter_mode));
    RT_ASSIGN_OR_RETURN(Ref<vm::Module> parameters_module,
                        modules::io_parameters::CreateIoParametersModule(std::move(providers)));
    session->modules_.push_back(std::move(parameters_module));
  }
  for (Ref<vm::Module>& program : programs) session->modules_.push_back(std::move(program));
  RT_RETURN_IF_ERROR(session->ResetContext());
  return session;
}

Status RunSession::ResetContext() {
  // Drop the old context first so its __deinit runs before the new one's __init.
  context_ = Ref<vm::Context>();
  auto context = vm::Context::Create(instance_, modules_);
  if (!context.ok()) {
    Status status = context.status();
    return status.Annotate(
        base::StrCat("creating a context for module '", modules_.back()->name(), "'"));
  }
  context_ = std::move(context).value();
  return Status::Ok();
}

bool RunSession::IsPublicExport(std::string_view name) {
  return name.substr(0, 2) != "__" && name.find('$') == std::string_view::npos;
}

bool RunSession::IsAsync(const vm::ExportInfo& info) {
  for (const vm::Attr& attr : info.attrs) {
    if (attr.key == "iree.abi.model") return attr.value == "coarse-fences";
  }
  return false;
}

StatusOr<std::string> RunSession::UserCconv(const vm::ExportInfo& info) {
  std::string cconv(info.cconv);
  if (!IsAsync(info)) return cconv;
  // The fences are the last two arguments, both refs, right before the '_' separator.
  const size_t separator = cconv.find('_');
  if (separator == std::string::npos || separator < 3 ||
      cconv.compare(separator - 2, 2, "rr") != 0) {
    return base::InvalidArgumentError("function '", info.name, "' is marked coarse-fences but "
                                      "its cconv '", cconv, "' does not end in two fences");
  }
  return cconv.erase(separator - 2, 2);
}

std::string RunSession::Signature(const vm::ExportInfo& info) {
  std::string text = base::StrCat("@", info.name, "(", info.cconv, ")");
  for (const vm::Attr& attr : info.attrs) {
    if (attr.key == "iree.abi.declaration") text += base::StrCat(" `", attr.value, "`");
  }
  return text;
}

StatusOr<vm::Context::Function> RunSession::LookupFunction(std::string_view name) {
  if (!name.empty()) {
    auto function = context_->LookupFunction(name);
    if (function.ok() || function.status().code() != base::StatusCode::kNotFound) return function;
    std::string listing;
    for (const vm::ExportInfo& info : main_module().exports()) {
      if (IsPublicExport(info.name)) listing += base::StrCat("\n  ", Signature(info));
    }
    return base::NotFoundError("module '", main_module().name(), "' has no function '", name,
                               "'; its public exports are:", listing);
  }
  std::vector<std::string_view> candidates;
  for (const vm::ExportInfo& info : main_module().exports()) {
    if (IsPublicExport(info.name)) candidates.push_back(info.name);
  }
  if (candidates.size() != 1) {
    std::string names;
    for (std::string_view candidate : candidates) {
      names += base::StrCat(names.empty() ? "" : ", ", candidate);
    }
    return base::InvalidArgumentError("no --function= given and module '", main_module().name(),
                                      "' has ", candidates.size(), " public exports (", names,
                                      "); choose one");
  }
  return context_->LookupFunction(candidates.front());
}

StatusOr<std::vector<vm::Value>> RunSession::ParseInputs(const vm::Context::Function& function,
                                                         std::span<const std::string> specs) {
  RT_ASSIGN_OR_RETURN(std::string cconv, UserCconv(*function.info));
  auto parsed = tooling::ParseInputs(specs, cconv, &device().allocator());
  if (!parsed.ok()) {
    Status status = parsed.status();
    return status.Annotate(base::StrCat("inputs of ", Signature(*function.info)));
  }
  std::vector<vm::Value> values = std::move(parsed).value();
  for (vm::Value& value : values) {
    if (value.type() != vm::ValueType::kRef) continue;
    Ref<hal::BufferView> view = value.ref().GetRef<hal::BufferView>();
    if (!view) continue;
    RT_ASSIGN_OR_RETURN(Ref<hal::BufferView> uploaded, UploadToDevice(view, device()));
    value = vm::Value::FromRef(vm::Ref::Make(std::move(uploaded)));
  }
  return values;
}

Status RunSession::DownloadResults(std::vector<vm::Value>* results) {
  for (vm::Value& value : *results) {
    if (value.type() != vm::ValueType::kRef) continue;
    Ref<hal::BufferView> view = value.ref().GetRef<hal::BufferView>();
    if (!view) continue;
    RT_ASSIGN_OR_RETURN(Ref<hal::BufferView> host, DownloadToHost(view, device()));
    value = vm::Value::FromRef(vm::Ref::Make(std::move(host)));
  }
  return Status::Ok();
}

Status RunSession::Invoke(const vm::Context::Function& function, std::span<const vm::Value> args,
                          std::vector<vm::Value>* results) {
  if (!IsAsync(*function.info)) return context_->Invoke(function, args, results);

  std::vector<vm::Value> all_args(args.begin(), args.end());
  Ref<hal::Fence> wait_fence = hal::Fence::Create();
  Ref<hal::Fence> signal_fence = hal::Fence::Create();
  RT_ASSIGN_OR_RETURN(Ref<hal::Semaphore> semaphore, device().CreateSemaphore(0));
  RT_RETURN_IF_ERROR(signal_fence->Insert(semaphore, 1));
  all_args.push_back(vm::Value::FromRef(vm::Ref::Make(wait_fence)));
  all_args.push_back(vm::Value::FromRef(vm::Ref::Make(signal_fence)));
  RT_RETURN_IF_ERROR(context_->Invoke(function, all_args, results));
  // The call only enqueued the work; the results are ready once the signal fence is reached.
  Status status = signal_fence->Wait(hal::WaitMode::kAll, hal::kInfiniteTimeout);
  if (!status.ok()) return status.Annotate(base::StrCat("waiting for @", function.info->name));
  return Status::Ok();
}

}  // namespace iree_rt::tooling
