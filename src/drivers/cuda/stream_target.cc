// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/stream_target.h"

#include "drivers/cuda/buffer.h"
#include "drivers/cuda/kernel_args.h"
#include "drivers/cuda/nccl_channel.h"
#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

using base::Status;
using hal::utils::ResolvedRef;

namespace {

base::StatusOr<CUdeviceptr> Address(const ResolvedRef& ref) {
  return Buffer::ResolveDevicePointer(ref.buffer, ref.offset);
}

}  // namespace

template <typename Issue, typename MakeLabel>
Status StreamTarget::Timed(Issue&& issue, MakeLabel&& label) {
  if (!parent_) return issue();
  TraceTimer& timer = context_.trace_timer();
  TraceTimer::Mark start = timer.Begin(stream_, parent_);
  Status status = issue();
  timer.End(stream_, std::move(start), label());
  return status;
}

Status StreamTarget::Fill(const ResolvedRef& target, uint32_t pattern, uint32_t pattern_length) {
  if (target.length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  const DynamicSymbols& syms = context_.syms();
  const size_t count = target.length / pattern_length;
  return Timed(
      [&] {
        switch (pattern_length) {
          case 1:
            return ToStatus(syms, syms.cuMemsetD8Async(dst, static_cast<uint8_t>(pattern), count, stream_),
                            "cuMemsetD8Async");
          case 2:
            return ToStatus(syms, syms.cuMemsetD16Async(dst, static_cast<uint16_t>(pattern), count, stream_),
                            "cuMemsetD16Async");
          default:
            return ToStatus(syms, syms.cuMemsetD32Async(dst, pattern, count, stream_), "cuMemsetD32Async");
        }
      },
      [&] { return TransferLabel("fill", target.length); });
}

Status StreamTarget::Update(const uint8_t* source, const ResolvedRef& target) {
  if (target.length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  // |source| lives in the command buffer, which the submission keeps until it completes.
  return Timed(
      [&] {
        return ToStatus(context_.syms(), context_.syms().cuMemcpyHtoDAsync(dst, source, target.length, stream_),
                        "cuMemcpyHtoDAsync");
      },
      [&] { return TransferLabel("update", target.length); });
}

Status StreamTarget::Copy(const ResolvedRef& source, const ResolvedRef& target) {
  if (target.length == 0) return Status::Ok();
  RT_ASSIGN_OR_RETURN(CUdeviceptr src, Address(source));
  RT_ASSIGN_OR_RETURN(CUdeviceptr dst, Address(target));
  return Timed(
      [&] {
        return ToStatus(context_.syms(), context_.syms().cuMemcpyAsync(dst, src, target.length, stream_),
                        "cuMemcpyAsync");
      },
      [&] { return TransferLabel("copy", target.length); });
}

Status StreamTarget::Dispatch(hal::Executable& executable, uint32_t export_ordinal,
                              const uint32_t workgroup_count[3], const ResolvedRef* indirect_count,
                              std::span<const uint32_t> constants, std::span<const ResolvedRef> bindings) {
  const Kernel* kernel = nullptr;
  KernelArgs args;
  RT_RETURN_IF_ERROR(PrepareDispatch(executable, export_ordinal, workgroup_count, indirect_count, constants,
                                     bindings, &kernel, &args));
  if (!kernel) return Status::Ok();
  return Timed(
      [&] {
        return ToStatus(context_.syms(),
                        context_.syms().cuLaunchKernel(kernel->function, workgroup_count[0], workgroup_count[1],
                                                       workgroup_count[2], kernel->block_dims[0],
                                                       kernel->block_dims[1], kernel->block_dims[2],
                                                       kernel->shared_memory_bytes, stream_, args.params(), nullptr),
                        "cuLaunchKernel");
      },
      [&] { return DispatchLabel(executable, export_ordinal, workgroup_count); });
}

Status StreamTarget::Collective(hal::Channel& channel, const hal::CollectiveOp& op, uint32_t param,
                                const ResolvedRef* send, const ResolvedRef* recv, uint64_t element_count) {
  return Timed([&] { return EnqueueCollective(channel, op, param, send, recv, element_count, stream_); },
               [&] { return CollectiveLabel(op, element_count); });
}

}  // namespace iree_rt::drivers::cuda
