// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The cuda backends: the same driver in both command buffer modes (stream replay and CUDA
// graphs), plus stream mode with synchronous allocations (no memory pool). Devices are made
// the way applications make them: DriverRegistry + RegisterCudaDriver + a URI. On machines
// without an NVIDIA driver or GPU the factory returns UNAVAILABLE and every case is skipped
// with the reason.
//
// Test kernels are rt_exe_<name>_cuda.bin (cuda-nvptx-fb, sm_80 PTX) from the build tree, or
// from $RT_CTS_CUDA_EXECUTABLES_DIR when the binary runs elsewhere (a GPU machine).
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "drivers/cuda/registration.h"
#include "hal/device_uri.h"
#include "hal/driver_registry.h"
#include "registry.h"

namespace iree_rt::cts {

namespace {

using base::Ref;
using base::StatusOr;

StatusOr<Ref<hal::Driver>> CreateCudaDriver() {
  hal::DriverRegistry registry;
  RT_RETURN_IF_ERROR(drivers::cuda::RegisterCudaDriver(registry));
  return registry.CreateDriver("cuda");
}

StatusOr<Ref<hal::Device>> CreateCudaDevice(std::string_view uri_text) {
  RT_ASSIGN_OR_RETURN(hal::DeviceUri uri, hal::DeviceUri::Parse(uri_text));
  RT_ASSIGN_OR_RETURN(Ref<hal::Driver> driver, CreateCudaDriver());
  return driver->CreateDevice(uri);
}

StatusOr<std::vector<uint8_t>> ReadTestKernel(std::string_view name) {
  std::string dir;
  if (const char* env = std::getenv("RT_CTS_CUDA_EXECUTABLES_DIR")) dir = env;
#ifdef RT_CTS_CUDA_EXECUTABLES_DIR
  if (dir.empty()) dir = RT_CTS_CUDA_EXECUTABLES_DIR;
#endif
  if (dir.empty()) {
    return base::UnavailableError("this build has no CUDA test kernels (iree-compile not found)");
  }
  const std::string path = dir + "/rt_exe_" + std::string(name) + "_cuda.bin";
  std::ifstream file(path, std::ios::binary);
  if (!file) return base::NotFoundError("cannot open test kernel ", path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

Backend MakeCudaBackend(std::string name, std::string uri) {
  Backend backend;
  backend.name = std::move(name);
  backend.driver = "cuda";
  backend.create_device = [uri]() { return CreateCudaDevice(uri); };
  backend.create_driver = CreateCudaDriver;
  backend.executable_format = "cuda-nvptx-fb";
  backend.executable_data = ReadTestKernel;
  const std::string no_indirect =
      "workgroup counts read from a buffer at execution time: CUDA needs the grid on the host at "
      "launch (would need device-side launch or conditional graph nodes)";
  backend.unsupported = {
      {"DispatchIndirectParametersTest.StaticParameters*", no_indirect},
      {"DispatchIndirectParametersTest.WholeBufferParameterRef", no_indirect},
      {"DispatchIndirectParametersTest.DynamicParameters*", no_indirect},
      {"DispatchIndirectParametersTest.SubAllocatedParameterBuffer", no_indirect},
      // Refused when recorded (UNIMPLEMENTED), before the parameter range could be checked at
      // submission; the range check itself is the HAL's and runs on every CPU backend.
      {"DispatchIndirectParametersTest.ParameterRefTooSmallIsRejected", no_indirect},
      {"DispatchTest.DispatchAbs",
       "binds at offset 4, but CUDA kernels from iree-compile declare 16-byte aligned binding "
       "pointers (PTX .align 16, vector loads); the driver refuses the dispatch instead of "
       "faulting the GPU"},
      {"FailureTest.UnsupportedFormatIsIncompatible",
       "the case lists cuda-nvptx-fb among the foreign formats; it is this backend's own format"},
  };
  backend.xfail = {};
  return backend;
}

}  // namespace

void RegisterBackends(Registry& registry) {
  registry.Register(MakeCudaBackend("cuda-stream", "cuda://0?command_buffer_mode=stream"));
  registry.Register(MakeCudaBackend("cuda-graph", "cuda://0?command_buffer_mode=graph"));
  registry.Register(
      MakeCudaBackend("cuda-stream-sync-alloc", "cuda://0?command_buffer_mode=stream&async_allocations=false"));
}

}  // namespace iree_rt::cts
