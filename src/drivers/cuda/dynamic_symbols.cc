// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/dynamic_symbols.h"

#include <dlfcn.h>

#include <memory>

#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

namespace {

// cuGetProcAddress as of CUDA 12 (with the symbol-status out parameter); the unversioned export
// keeps the CUDA 11 signature, so the _v2 name is looked up explicitly.
using GetProcAddressFn = CUresult (*)(const char*, void**, int, cuuint64_t,
                                      CUdriverProcAddressQueryResult*);

}  // namespace

base::StatusOr<DynamicSymbols*> DynamicSymbols::Load() {
  auto symbols = std::make_unique<DynamicSymbols>();
  symbols->library_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!symbols->library_) {
    const char* error = dlerror();
    return base::UnavailableError("CUDA driver library libcuda.so.1 not loadable (",
                                  error ? error : "unknown dlopen error",
                                  "); is an NVIDIA driver installed?");
  }
  auto get_proc = reinterpret_cast<GetProcAddressFn>(dlsym(symbols->library_, "cuGetProcAddress_v2"));
  if (!get_proc) {
    dlclose(symbols->library_);
    return base::UnavailableError(
        "libcuda.so.1 has no cuGetProcAddress_v2: the NVIDIA driver is older than CUDA 12");
  }
  base::Status missing;
#define RT_CU_SYM(name)                                                                      \
  if (missing.ok()) {                                                                        \
    void* fn = nullptr;                                                                      \
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;             \
    CUresult result = get_proc(#name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &found); \
    if (result != CUDA_SUCCESS || !fn || found != CU_GET_PROC_ADDRESS_SUCCESS) {             \
      missing = base::UnavailableError("CUDA driver lacks ", #name, " at API version ",      \
                                       CUDA_VERSION, " (query result ", int(found), ")");    \
    } else {                                                                                 \
      symbols->name = reinterpret_cast<decltype(symbols->name)>(fn);                         \
    }                                                                                        \
  }
#include "drivers/cuda/cuda_symbols.inc"
#undef RT_CU_SYM
  if (!missing.ok()) {
    dlclose(symbols->library_);
    return missing;
  }
  CUresult init = symbols->cuInit(0);
  if (init != CUDA_SUCCESS) {
    base::Status status = ToStatus(*symbols, init, "cuInit");
    dlclose(symbols->library_);
    return base::UnavailableError("CUDA driver present but cuInit failed: ", status.message());
  }
  symbols->cuDriverGetVersion(&symbols->driver_version);
  return symbols.release();
}

base::StatusOr<const DynamicSymbols*> DynamicSymbols::Get() {
  // Loaded once per process and never unloaded: CUDA objects may outlive any one driver.
  static const base::StatusOr<DynamicSymbols*> loaded = Load();
  if (!loaded.ok()) return loaded.status();
  return static_cast<const DynamicSymbols*>(loaded.value());
}

}  // namespace iree_rt::drivers::cuda
