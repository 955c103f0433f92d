// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/kernel_args.h"

#include "drivers/cuda/buffer.h"

namespace iree_rt::drivers::cuda {

base::Status PrepareDispatch(hal::Executable& executable, uint32_t export_ordinal,
                             const uint32_t workgroup_count[3], const hal::utils::ResolvedRef* indirect_count,
                             std::span<const uint32_t> constants,
                             std::span<const hal::utils::ResolvedRef> bindings, const Kernel** kernel,
                             KernelArgs* args) {
  *kernel = nullptr;
  if (indirect_count) {
    return base::UnimplementedError("indirect workgroup counts are not supported by the CUDA driver");
  }
  Executable* cuda_executable = Executable::Cast(&executable);
  if (!cuda_executable) return base::InvalidArgumentError("executable was not loaded by a CUDA device");
  if (workgroup_count[0] == 0 || workgroup_count[1] == 0 || workgroup_count[2] == 0) return base::Status::Ok();
  base::InlineVector<CUdeviceptr, 16> addresses;
  for (const hal::utils::ResolvedRef& binding : bindings) {
    RT_ASSIGN_OR_RETURN(CUdeviceptr address, Buffer::ResolveDevicePointer(binding.buffer, binding.offset));
    addresses.push_back(address);
  }
  RT_RETURN_IF_ERROR(CheckBindingAlignment(addresses));
  args->Pack(addresses, constants);
  *kernel = &cuda_executable->kernel(export_ordinal);
  return base::Status::Ok();
}

}  // namespace iree_rt::drivers::cuda
