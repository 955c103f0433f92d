// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// executable.*, ex.file.from_memory and fence.* (hal_abi_facts.md §1.3, "Executables, files and
// fences").
#include <chrono>
#include <string>
#include <vector>

#include "base/trace.h"
#include "base/inline_vector.h"
#include "hal/device.h"
#include "hal/executable.h"
#include "hal/executable_cache.h"
#include "hal/fence.h"
#include "hal/utils/memory_file.h"
#include "modules/hal/args.h"
#include "modules/hal/exports.h"
#include "modules/hal/module_state.h"

namespace iree_rt::modules::hal {
namespace {

using base::Ref;
using base::Status;
using base::StatusOr;
using vm::ModuleState;
using vm::Value;

// executable.create(device, affinity, format, data, constants) -> executable
Status ExecutableCreate(ModuleState& state, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(HalState * hal_state, GetHalState(state));
  RT_ASSIGN_OR_RETURN(rt::Device * device, RefArg<rt::Device>(args[0], "device"));
  RT_ASSIGN_OR_RETURN(std::string_view format, StringArg(args[2], "executable format"));
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> data, BytesArg(args[3], "executable data"));
  std::vector<uint32_t> constants;
  if (!args[4].ref().is_null()) {
    RT_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, BytesArg(args[4], "executable constants"));
    if (bytes.size() % sizeof(uint32_t) != 0) {
      return base::InvalidArgumentError("executable constants are ", bytes.size(),
                                        " bytes, not a whole number of 32-bit words");
    }
    constants.resize(bytes.size() / sizeof(uint32_t));
    if (!bytes.empty()) std::memcpy(constants.data(), bytes.data(), bytes.size());
  }
  RT_ASSIGN_OR_RETURN(rt::ExecutableCache * cache, hal_state->ExecutableCacheFor(*device));
  rt::ExecutableParams params;
  params.format = format;
  params.data = data;
  params.constants = constants;
  StatusOr<Ref<rt::Executable>> executable = cache->PrepareExecutable(params);
  if (!executable.ok()) {
    Status status = executable.status();
    return status.Annotate(base::StrCat("preparing a '", format, "' executable for device '",
                                        device->id(), "'"));
  }
  results[0] = RefResult(std::move(executable).value());
  return Status::Ok();
}

// executable.lookup.function(executable, name) -> function id (the export ordinal)
Status ExecutableLookupFunction(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Executable * executable, RefArg<rt::Executable>(args[0], "executable"));
  RT_ASSIGN_OR_RETURN(std::string_view name, StringArg(args[1], "function name"));
  RT_ASSIGN_OR_RETURN(uint32_t ordinal, executable->LookupExport(name));
  results[0] = Value::I64(ordinal);
  return Status::Ok();
}

// ex.file.from_memory(device, affinity, access, buffer, offset, length, flags) -> file
// A read-only file over a vm.buffer range (usually the module's embedded parameters).
Status FileFromMemory(ModuleState&, Args args, Results results) {
  RT_RETURN_IF_ERROR(RefArg<rt::Device>(args[0], "device").status());
  const auto access = static_cast<uint32_t>(args[2].i32());
  if (access & ~rt::MemoryAccess::kRead) {
    return base::MakeStatus(base::StatusCode::kPermissionDenied, "files over memory are read-only "
                            "(access 0x", std::hex, access, " asks for more than READ)");
  }
  RT_ASSIGN_OR_RETURN(vm::Buffer * buffer, RefArg<vm::Buffer>(args[3], "file memory"));
  const int64_t offset = args[4].i64();
  const int64_t length = args[5].i64();
  if (offset < 0 || length < 0) {
    return base::OutOfRangeError("file range [", offset, ", +", length, ") is negative");
  }
  RT_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes,
                      buffer->ReadRange(static_cast<uint64_t>(offset), static_cast<uint64_t>(length)));
  Ref<vm::Buffer> keep_alive = Ref<vm::Buffer>::Retain(buffer);
  // Never written: the file is created read-only.
  auto file = base::MakeRef<rt::utils::MemoryFile>(const_cast<uint8_t*>(bytes.data()), bytes.size(),
                                                    /*writable=*/false,
                                                    [keep_alive]() mutable { keep_alive = nullptr; });
  results[0] = RefResult(Ref<rt::File>(std::move(file)));
  return Status::Ok();
}

// fence.create(device, flags) -> fence on a new semaphore, to be reached at 1.
Status FenceCreate(ModuleState& state, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(HalState * hal_state, GetHalState(state));
  RT_ASSIGN_OR_RETURN(rt::Device * device, RefArg<rt::Device>(args[0], "device"));
  RT_ASSIGN_OR_RETURN(Ref<rt::Fence> fence, hal_state->fence_pool().Acquire(*device));
  results[0] = RefResult(std::move(fence));
  return Status::Ok();
}

// The non-null fences of the span starting at args[index] (programs pass one or two).
using FenceList = base::InlineVector<rt::Fence*, 4>;
Status FenceSpan(Args args, size_t index, FenceList* fences) {
  RT_ASSIGN_OR_RETURN(size_t count, SpanCount(args, &index, 1));
  for (size_t i = 0; i < count; ++i) {
    RT_ASSIGN_OR_RETURN(rt::Fence * fence, NullableRefArg<rt::Fence>(args[index + i], "fence"));
    if (fence) fences->push_back(fence);
  }
  return Status::Ok();
}

// fence.join(flags, [fences...]) -> fence, or null when there is nothing to wait for.
Status FenceJoin(ModuleState&, Args args, Results results) {
  FenceList fences;
  RT_RETURN_IF_ERROR(FenceSpan(args, 1, &fences));
  Ref<rt::Fence> joined = rt::Fence::Join(fences);
  if (joined->size() != 0) results[0] = RefResult(std::move(joined));
  return Status::Ok();
}

// fence.query(fence) -> 0 reached, 17 (DEFERRED) pending, else the failure's code.
Status FenceQuery(ModuleState&, Args args, Results results) {
  RT_ASSIGN_OR_RETURN(rt::Fence * fence, RefArg<rt::Fence>(args[0], "fence"));
  results[0] = Value::I32(static_cast<int32_t>(fence->Query().code()));
  return Status::Ok();
}

Status FenceSignal(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::Fence * fence, RefArg<rt::Fence>(args[0], "fence"));
  return fence->Signal();
}

// fence.fail(fence, status_code)
Status FenceFail(ModuleState&, Args args, Results) {
  RT_ASSIGN_OR_RETURN(rt::Fence * fence, RefArg<rt::Fence>(args[0], "fence"));
  base::StatusCode code = StatusCodeFromI32(args[1].i32());
  if (code == base::StatusCode::kOk) code = base::StatusCode::kUnknown;
  fence->Fail(base::MakeStatus(code, "fence failed by the program"));
  return Status::Ok();
}

// fence.await(timeout_ms, flags, [fences...]) -> 0, or 4 (DEADLINE_EXCEEDED) on timeout. Any
// failure of a waited semaphore is returned as the error, so the program traps with its cause.
// The deadline is fixed at entry: waiting on several fences never extends it.
Status FenceAwait(ModuleState&, Args args, Results results) {
  base::trace::Scope trace_scope("hal", "hal.fence.await");
  FenceList fences;
  RT_RETURN_IF_ERROR(FenceSpan(args, 2, &fences));
  const int32_t timeout_ms = args[0].i32();
  using Clock = std::chrono::steady_clock;
  const bool infinite = timeout_ms < 0;
  // Synchronous programs wait forever: no clock reads on that path.
  const Clock::time_point deadline =
      infinite ? Clock::time_point() : Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (rt::Fence* fence : fences) {
    int64_t timeout_ns = rt::kInfiniteTimeout;
    if (!infinite) {
      timeout_ns = std::max<int64_t>(
          0, std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - Clock::now()).count());
    }
    Status status = fence->Wait(rt::WaitMode::kAll, timeout_ns);
    // A semaphore failed with DEADLINE_EXCEEDED (a collective's peer timed out) is a failure,
    // not this wait's timeout: only a fence still pending is reported as a code.
    if (status.code() == base::StatusCode::kDeadlineExceeded &&
        fence->Query().code() == base::StatusCode::kDeferred) {
      results[0] = Value::I32(static_cast<int32_t>(base::StatusCode::kDeadlineExceeded));
      return Status::Ok();
    }
    RT_RETURN_IF_ERROR(status);
  }
  results[0] = Value::I32(0);
  return Status::Ok();
}

}  // namespace

void AppendExecutableAndFenceExports(ExportDefs* defs) {
  defs->push_back({"ex.file.from_memory", "0rIirIIi_r", FileFromMemory, {}});
  defs->push_back({"executable.create", "0rIrrr_r", ExecutableCreate, {}});
  defs->push_back({"executable.lookup.function", "0rr_I", ExecutableLookupFunction, {}});
  defs->push_back({"fence.await", "0iICrD_i", FenceAwait, {}});
  defs->push_back({"fence.create", "0rI_r", FenceCreate, {}});
  defs->push_back({"fence.fail", "0ri_v", FenceFail, {}});
  defs->push_back({"fence.join", "0ICrD_r", FenceJoin, {}});
  defs->push_back({"fence.query", "0r_i", FenceQuery, {}});
  defs->push_back({"fence.signal", "0r_v", FenceSignal, {}});
}

}  // namespace iree_rt::modules::hal
