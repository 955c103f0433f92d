// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/registration.h"

#include "drivers/cuda/driver.h"

namespace iree_rt::drivers::cuda {

base::Status RegisterCudaDriver(hal::DriverRegistry& registry) {
  return registry.Register({"cuda", "NVIDIA GPUs through the CUDA driver API (libcuda.so.1, loaded at run time)",
                            &Driver::Create});
}

}  // namespace iree_rt::drivers::cuda
