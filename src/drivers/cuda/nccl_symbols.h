// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::NcclSymbols: NCCL, loaded at run time as libcuda is (never a link dependency).
//
// Get() dlopens $IREE_RT_NCCL_LIBRARY or libnccl.so.2 and resolves nccl_symbols.inc by name. A
// library of another major version, or older than 2.18 (communicator split and non-blocking
// init), is refused. Without NCCL, collective channels on CUDA fail with UNAVAILABLE saying so;
// everything else works. Only nccl.h's declarations are used, at build time.
#ifndef IREE_RT_DRIVERS_CUDA_NCCL_SYMBOLS_H_
#define IREE_RT_DRIVERS_CUDA_NCCL_SYMBOLS_H_

#include <nccl.h>

#include "base/status.h"

namespace iree_rt::drivers::cuda {

struct NcclSymbols {
  // Loaded once; later calls return the same table or the same failure.
  static base::StatusOr<const NcclSymbols*> Get();

#define RT_NCCL_SYM(name) decltype(&::name) name = nullptr;
#include "drivers/cuda/nccl_symbols.inc"
#undef RT_NCCL_SYM

  int version = 0;  // ncclGetVersion: 22809 for 2.28.9

 private:
  static base::StatusOr<NcclSymbols*> Load();
};

// OK for ncclSuccess; otherwise a status naming |what|, NCCL's error string and its last error.
base::Status NcclStatus(const NcclSymbols& nccl, ncclResult_t result, const char* what);

}  // namespace iree_rt::drivers::cuda

#define RT_NCCL_RETURN_IF_ERROR(nccl, call, what) \
  RT_RETURN_IF_ERROR(::iree_rt::drivers::cuda::NcclStatus((nccl), (nccl).call, (what)))

#endif  // IREE_RT_DRIVERS_CUDA_NCCL_SYMBOLS_H_
