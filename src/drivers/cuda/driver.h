// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuda::Driver: enumerates NVIDIA GPUs and creates cuda::Devices.
//
// Device URIs: "cuda" or "cuda://" (device 0), "cuda://<ordinal>", "cuda://GPU-<uuid>" (as
// nvidia-smi prints it). Parameters: command_buffer_mode=graph|stream (default stream),
// async_allocations=true|false (default true), event_pool_capacity=<n> (default 32).
#ifndef IREE_RT_DRIVERS_CUDA_DRIVER_H_
#define IREE_RT_DRIVERS_CUDA_DRIVER_H_

#include "drivers/cuda/dynamic_symbols.h"
#include "hal/driver.h"

namespace iree_rt::drivers::cuda {

class Driver final : public hal::Driver {
 public:
  // UNAVAILABLE with the reason when libcuda cannot be loaded or initialized.
  static base::StatusOr<base::Ref<hal::Driver>> Create();

 private:
  explicit Driver(const DynamicSymbols& syms) : hal::Driver("cuda"), syms_(syms) {}
  template <typename T, typename... Args>
  friend base::Ref<T> base::MakeRef(Args&&... args);

  base::StatusOr<std::vector<hal::DeviceInfo>> EnumerateDevicesImpl() override;
  base::StatusOr<base::Ref<hal::Device>> CreateDeviceImpl(const hal::DeviceUri& uri) override;
  // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" for |device|.
  base::StatusOr<std::string> DevicePath(CUdevice device) const;

  const DynamicSymbols& syms_;
};

}  // namespace iree_rt::drivers::cuda

#endif  // IREE_RT_DRIVERS_CUDA_DRIVER_H_
