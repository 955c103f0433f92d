// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/nccl_symbols.h"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace iree_rt::drivers::cuda {

base::StatusOr<NcclSymbols*> NcclSymbols::Load() {
  const char* env = std::getenv("IREE_RT_NCCL_LIBRARY");
  const std::string name = env && *env ? env : "libnccl.so.2";
  void* library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* error = dlerror();
    return base::UnavailableError("NCCL (", name, ") is not loadable: ", error ? error : "unknown dlopen error",
                                  "; collectives on CUDA need it (put its folder on LD_LIBRARY_PATH or set "
                                  "IREE_RT_NCCL_LIBRARY)");
  }
  auto symbols = std::make_unique<NcclSymbols>();
#define RT_NCCL_SYM(symbol)                                                                      \
  symbols->symbol = reinterpret_cast<decltype(symbols->symbol)>(dlsym(library, #symbol));         \
  if (!symbols->symbol) {                                                                        \
    dlclose(library);                                                                            \
    return base::UnavailableError("NCCL (", name, ") lacks ", #symbol, ": it is older than 2.18"); \
  }
#include "drivers/cuda/nccl_symbols.inc"
#undef RT_NCCL_SYM
  symbols->ncclGetVersion(&symbols->version);
  // Codes since 2.9 are major*10000 + minor*100 + patch.
  const int major = symbols->version / 10000, minor = symbols->version / 100 % 100;
  if (major != NCCL_MAJOR || minor < 18) {
    dlclose(library);
    return base::UnavailableError("NCCL (", name, ") is version ", major, ".", minor, "; this runtime needs ",
                                  NCCL_MAJOR, ".18 or newer of major version ", NCCL_MAJOR);
  }
  return symbols.release();
}

base::StatusOr<const NcclSymbols*> NcclSymbols::Get() {
  static const base::StatusOr<NcclSymbols*> loaded = Load();
  if (!loaded.ok()) return loaded.status();
  return static_cast<const NcclSymbols*>(loaded.value());
}

base::Status NcclStatus(const NcclSymbols& nccl, ncclResult_t result, const char* what) {
  if (result == ncclSuccess) return base::Status::Ok();
  const char* last = nccl.ncclGetLastError(nullptr);
  const std::string detail = base::StrCat(what, ": ", nccl.ncclGetErrorString(result),
                                          last && *last ? base::StrCat(" (", last, ")") : std::string());
  switch (result) {
    case ncclInvalidArgument:
    case ncclInvalidUsage:
      return base::InvalidArgumentError(detail);
    case ncclRemoteError:
    case ncclSystemError:
      return base::UnavailableError(detail);
    default:
      return base::InternalError(detail);
  }
}

}  // namespace iree_rt::drivers::cuda
