// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/vmvx/vmvx_program.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "modules/vmvx/vmvx_module.h"
#include "vm/buffer.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/context.h"
#include "vm/instance.h"
#include "vm/list.h"

namespace iree_rt::drivers::cpu {

using base::Status;
using base::StatusOr;

namespace {

constexpr std::string_view kEntryCconv = "0rrriiiiiiiii_v";

// The module's bytes, 8-byte aligned as the loader requires, owned for as long as the module
// (and rodata buffers handed out from it) live.
class ModuleBytes final : public base::RefObject {
 public:
  explicit ModuleBytes(std::span<const uint8_t> data)
      : storage_(new uint64_t[(data.size() + 7) / 8]), size_(data.size()) {
    if (!data.empty()) std::memcpy(storage_.get(), data.data(), data.size());
  }
  std::span<const uint8_t> bytes() const {
    return {reinterpret_cast<const uint8_t*>(storage_.get()), size_};
  }

 private:
  std::unique_ptr<uint64_t[]> storage_;
  size_t size_;
};

// A reflection attr as a uint32 (absent: 0).
StatusOr<uint32_t> U32Attr(const vm::ExportInfo& info, std::string_view key) {
  for (const vm::Attr& attr : info.attrs) {
    if (attr.key != key) continue;
    uint32_t value = 0;
    auto [end, ec] = std::from_chars(attr.value.data(), attr.value.data() + attr.value.size(), value);
    if (ec != std::errc() || end != attr.value.data() + attr.value.size()) {
      return base::InvalidArgumentError("entry point '", info.name, "' attr ", key, " = '",
                                        attr.value, "' is not a 32-bit unsigned integer");
    }
    return value;
  }
  return uint32_t{0};
}

}  // namespace

// One context linking the vmvx module and the executable, with its entry points looked up.
struct VmvxProgram::Worker {
  base::Ref<vm::Context> context;
  std::vector<vm::Context::Function> functions;  // by entry point ordinal
};

VmvxProgram::VmvxProgram() = default;
VmvxProgram::~VmvxProgram() = default;

StatusOr<std::unique_ptr<VmvxProgram>> VmvxProgram::Load(std::span<const uint8_t> data,
                                                         std::span<const uint32_t> constants) {
  std::unique_ptr<VmvxProgram> program(new VmvxProgram());
  Status status = program->Initialize(data, constants);
  if (!status.ok()) {
    return status.Annotate(program->name_.empty()
                               ? std::string("loading VMVX executable")
                               : base::StrCat("loading VMVX executable '", program->name_, "'"));
  }
  return program;
}

Status VmvxProgram::Initialize(std::span<const uint8_t> data, std::span<const uint32_t> constants) {
  instance_ = vm::Instance::Create();
  RT_ASSIGN_OR_RETURN(vmvx_module_, modules::vmvx::CreateVmvxModule());
  RT_RETURN_IF_ERROR(vm::bytecode::BytecodeModule::CheckSize(*instance_, data.size()));
  base::Ref<ModuleBytes> bytes = base::MakeRef<ModuleBytes>(data);
  RT_ASSIGN_OR_RETURN(base::Ref<vm::bytecode::BytecodeModule> module,
                      vm::bytecode::BytecodeModule::Load(*instance_, bytes->bytes(), bytes));
  name_ = std::string(module->name());
  module_ = std::move(module);
  constants_.assign(constants.begin(), constants.end());

  const std::span<const vm::ExportInfo> exports = module_->exports();
  for (uint32_t i = 0; i < exports.size(); ++i) {
    const vm::ExportInfo& info = exports[i];
    if (info.cconv != kEntryCconv) {
      if (info.name.starts_with("__")) continue;  // __init, __set_constants, __deinit
      return base::InvalidArgumentError("entry point '", info.name, "' has signature '",
                                        info.cconv, "', not the dispatch signature '", kEntryCconv,
                                        "'");
    }
    ExportInfo entry;
    entry.name = std::string(info.name);
    RT_ASSIGN_OR_RETURN(entry.binding_count, U32Attr(info, "binding_count"));
    RT_ASSIGN_OR_RETURN(entry.constant_count, U32Attr(info, "constant_count"));
    RT_ASSIGN_OR_RETURN(entry.local_memory_size, U32Attr(info, "local_memory"));
    exports_.push_back(std::move(entry));
    export_ordinals_.push_back(i);
  }
  // Linking once here reports a missing import or bad constants at load, not at the first
  // dispatch; the context then serves the first workgroup.
  RT_ASSIGN_OR_RETURN(std::unique_ptr<Worker> worker, CreateWorker());
  idle_workers_.push_back(std::move(worker));
  return Status::Ok();
}

StatusOr<std::unique_ptr<VmvxProgram::Worker>> VmvxProgram::CreateWorker() const {
  auto worker = std::make_unique<Worker>();
  const base::Ref<vm::Module> modules[2] = {vmvx_module_, module_};
  RT_ASSIGN_OR_RETURN(worker->context, vm::Context::Create(instance_, modules));
  StatusOr<vm::Context::Function> set_constants = worker->context->LookupFunction("__set_constants");
  const bool wants_constants = set_constants.ok() && set_constants->module == module_.get();
  if (wants_constants != !constants_.empty()) {
    return base::FailedPreconditionError(
        "the executable ", wants_constants ? "declares" : "does not declare",
        " executable constants (__set_constants) but ", constants_.size(), " were given");
  }
  if (wants_constants) {
    // Read-only and dropped after the call: the module copies the values into its globals.
    base::Ref<vm::Buffer> buffer = vm::Buffer::WrapReadOnly(
        {reinterpret_cast<const uint8_t*>(constants_.data()), constants_.size() * sizeof(uint32_t)},
        nullptr, vm::Buffer::kOriginHost);
    const vm::Value args[1] = {vm::Value::FromRef(vm::Ref::Make(buffer))};
    std::vector<vm::Value> results;
    RT_RETURN_IF_ERROR(worker->context->Invoke(*set_constants, args, &results));
    if (buffer->ref_count() != 1) {
      return base::FailedPreconditionError("__set_constants kept its constants buffer");
    }
  }
  for (uint32_t ordinal : export_ordinals_) {
    const std::string_view name = module_->exports()[ordinal].name;
    RT_ASSIGN_OR_RETURN(vm::Context::Function found, worker->context->LookupFunction(name));
    if (found.module != module_.get() || found.export_ordinal != ordinal) {
      return base::InvalidArgumentError("entry point '", name, "' resolves to another function");
    }
    worker->functions.push_back(found);
  }
  return worker;
}

StatusOr<std::unique_ptr<VmvxProgram::Worker>> VmvxProgram::AcquireWorker() const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_workers_.empty()) {
      std::unique_ptr<Worker> worker = std::move(idle_workers_.back());
      idle_workers_.pop_back();
      return worker;
    }
  }
  return CreateWorker();
}

void VmvxProgram::ReleaseWorker(std::unique_ptr<Worker> worker) const {
  std::lock_guard<std::mutex> lock(mutex_);
  idle_workers_.push_back(std::move(worker));
}

Status VmvxProgram::RunWorkgroup(uint32_t ordinal, const DispatchStateV0& state, uint32_t x,
                                 uint32_t y, uint32_t z, uint32_t /*processor_id*/,
                                 void* local_memory, uint32_t local_memory_size) const {
  RT_ASSIGN_OR_RETURN(const ExportInfo* export_info,
                      CheckWorkgroup(ordinal, state, x, y, z, local_memory, local_memory_size));
  const ExportInfo& info = *export_info;
  // Wrappers over memory the dispatch owns; ours are the only references while the call runs
  // unless the program stores one away (checked below).
  std::vector<base::Ref<vm::Buffer>> wrappers;
  wrappers.reserve(state.binding_count + 2);
  wrappers.push_back(vm::Buffer::WrapMutable(
      {static_cast<uint8_t*>(local_memory), local_memory ? local_memory_size : 0u}, nullptr));
  wrappers.push_back(vm::Buffer::WrapReadOnly(
      {reinterpret_cast<const uint8_t*>(state.constants), state.constant_count * sizeof(uint32_t)},
      nullptr, vm::Buffer::kOriginHost));
  RT_ASSIGN_OR_RETURN(base::Ref<vm::List> bindings,
                      vm::List::Create(vm::Type::OfRef(&vm::kBufferType), state.binding_count));
  for (uint32_t i = 0; i < state.binding_count; ++i) {
    wrappers.push_back(vm::Buffer::WrapMutable(
        {static_cast<uint8_t*>(state.binding_ptrs[i]), state.binding_lengths[i]}, nullptr));
    RT_RETURN_IF_ERROR(bindings->Push(vm::Value::FromRef(vm::Ref::Make(wrappers.back()))));
  }
  const vm::Value args[12] = {
      vm::Value::FromRef(vm::Ref::Make(wrappers[0])),
      vm::Value::FromRef(vm::Ref::Make(wrappers[1])),
      vm::Value::FromRef(vm::Ref::Make(bindings)),
      vm::Value::I32(static_cast<int32_t>(x)),
      vm::Value::I32(static_cast<int32_t>(y)),
      vm::Value::I32(static_cast<int32_t>(z)),
      vm::Value::I32(static_cast<int32_t>(state.workgroup_size_x)),
      vm::Value::I32(static_cast<int32_t>(state.workgroup_size_y)),
      vm::Value::I32(static_cast<int32_t>(state.workgroup_size_z)),
      vm::Value::I32(static_cast<int32_t>(state.workgroup_count_x)),
      vm::Value::I32(static_cast<int32_t>(state.workgroup_count_y)),
      vm::Value::I32(static_cast<int32_t>(state.workgroup_count_z)),
  };
  RT_ASSIGN_OR_RETURN(std::unique_ptr<Worker> worker, AcquireWorker());
  std::vector<vm::Value> results;
  Status status = worker->context->Invoke(worker->functions[ordinal], args, &results);
  // Each object has two references of ours: |wrappers| or |bindings|, plus |args| or the list.
  bool retained = bindings->ref_count() != 2;
  for (const base::Ref<vm::Buffer>& wrapper : wrappers) retained |= wrapper->ref_count() != 2;
  if (!status.ok()) {
    // |worker| is dropped, not reused: its context may hold a wrapper or a half-done state.
    return status.Annotate(base::StrCat("VMVX executable '", name_, "' export '", info.name,
                                        "' workgroup (", x, ", ", y, ", ", z, ")"));
  }
  if (retained) {
    // The context holds a dangling wrapper: drop it (with its globals) rather than reuse it.
    worker.reset();
    return base::FailedPreconditionError("VMVX executable '", name_, "' export '", info.name,
                                         "' kept a reference to a dispatch buffer after its call");
  }
  ReleaseWorker(std::move(worker));
  return Status::Ok();
}

}  // namespace iree_rt::drivers::cpu
