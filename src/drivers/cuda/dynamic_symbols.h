// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::DynamicSymbols: the CUDA driver API, loaded at run time from libcuda.so.1.
//
// Nothing links against libcuda: Load() dlopens it, finds cuGetProcAddress by name and resolves
// every entry of cuda_symbols.inc through it. Without a driver, Load() returns UNAVAILABLE with
// the reason, so the rest of the runtime keeps working. Only cuda.h's declarations are used, at
// build time. Thread-safety: immutable after Load(); the process-wide instance is made once.
#ifndef IREE_RT_DRIVERS_CUDA_DYNAMIC_SYMBOLS_H_
#define IREE_RT_DRIVERS_CUDA_DYNAMIC_SYMBOLS_H_

#include <cuda.h>

#include "base/status.h"

namespace iree_rt::drivers::cuda {

struct DynamicSymbols {
  // Loads the library and every symbol, then calls cuInit(0). The result is cached: later calls
  // return the same table or the same failure.
  static base::StatusOr<const DynamicSymbols*> Get();

#define RT_CU_SYM(name) decltype(&::name) name = nullptr;
#include "drivers/cuda/cuda_symbols.inc"
#undef RT_CU_SYM

  int driver_version = 0;  // cuDriverGetVersion, e.g. 13000

 private:
  void* library_ = nullptr;
  static base::StatusOr<DynamicSymbols*> Load();
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_DYNAMIC_SYMBOLS_H_
