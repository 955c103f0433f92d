// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/status_util.h"

#include "drivers/cuda/dynamic_symbols.h"

namespace iree_rt::drivers::cuda {

base::Status ToStatus(const DynamicSymbols& syms, CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return base::Status::Ok();
  const char* name = nullptr;
  const char* description = nullptr;
  if (syms.cuGetErrorName) syms.cuGetErrorName(result, &name);
  if (syms.cuGetErrorString) syms.cuGetErrorString(result, &description);
  base::StatusCode code = base::StatusCode::kInternal;
  switch (result) {
    case CUDA_ERROR_OUT_OF_MEMORY: code = base::StatusCode::kResourceExhausted; break;
    case CUDA_ERROR_INVALID_VALUE:
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_NOT_FOUND: code = base::StatusCode::kInvalidArgument; break;
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_DEINITIALIZED: code = base::StatusCode::kUnavailable; break;
    case CUDA_ERROR_NOT_SUPPORTED: code = base::StatusCode::kUnimplemented; break;
    case CUDA_ERROR_NOT_READY: code = base::StatusCode::kDeferred; break;
    default: break;
  }
  return base::MakeStatus(code, what, " failed: ", name ? name : "CUDA error", " (",
                          static_cast<int>(result), "): ", description ? description : "");
}

}  // namespace iree_rt::drivers::cuda
