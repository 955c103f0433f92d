// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Registers the cuda driver. Registration always succeeds; creating the driver reports
// UNAVAILABLE (with the reason) on machines without a usable NVIDIA driver or GPU.
#ifndef IREE_RT_DRIVERS_CUDA_REGISTRATION_H_
#define IREE_RT_DRIVERS_CUDA_REGISTRATION_H_

#include "hal/driver_registry.h"

namespace iree_rt::drivers::cuda {

base::Status RegisterCudaDriver(hal::DriverRegistry& registry);

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_REGISTRATION_H_
