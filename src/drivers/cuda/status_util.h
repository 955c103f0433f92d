// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CUresult → base::Status, and the driver's one early-return macro.
#ifndef IREE_RT_DRIVERS_CUDA_STATUS_UTIL_H_
#define IREE_RT_DRIVERS_CUDA_STATUS_UTIL_H_

#include <cuda.h>

#include "base/status.h"

namespace iree_rt::drivers::cuda {

struct DynamicSymbols;

// OK for CUDA_SUCCESS; otherwise a status whose code follows the error class (out of memory →
// RESOURCE_EXHAUSTED, invalid value → INVALID_ARGUMENT, ...) and whose message names |what|, the
// CUDA error name and its description.
base::Status ToStatus(const DynamicSymbols& syms, CUresult result, const char* what);

}  // namespace iree_rt::drivers::cuda

// Evaluates a call through a DynamicSymbols |syms| and returns its error as a Status.
#define RT_CUDA_RETURN_IF_ERROR(syms, call, what) \
  RT_RETURN_IF_ERROR(::iree_rt::drivers::cuda::ToStatus((syms), (syms).call, (what)))

#endif  // IREE_RT_DRIVERS_CUDA_STATUS_UTIL_H_
