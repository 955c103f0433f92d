// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// raw_graph: the dispatch-bound module's kernels launched straight through the CUDA driver API,
// the floor that our runtime's per-dispatch time is compared against (bench/cuda/run_bench.sh).
//
// Loads the PTX that iree-compile produced for chain.mlir (one elementwise kernel, dumped with
// --iree-hal-dump-executable-binaries-to), and launches it N times in a dependent chain with the
// grid, block and parameters the compiled program uses: two binding pointers, then two 32-bit
// constants (the byte offsets of the input and output inside the bindings). The chain is one
// CUDA graph (N kernel nodes, each depending on the previous) and, for reference, N stream
// launches. Reports per launch of the whole chain:
//   device: event time of back-to-back launches (GPU busy time only), divided by N;
//   wall:   host time of launch + synchronize, one chain at a time, as a benchmark tool sees a
//           call (median of the repetitions).
// Bench-only: links libcuda directly (libiree_rt never does).
//
//   usage: raw_graph PTX KERNEL [N=100] [GRID_X=32] [BLOCK_X=32] [REPS=2000]
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void Check(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "raw_graph: %s failed: %s\n", what, name ? name : "?");
  std::exit(1);
}

struct Launch {
  CUdeviceptr in, out;
  uint32_t in_offset, out_offset;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: raw_graph PTX KERNEL [N=100] [GRID_X=32] [BLOCK_X=32] [REPS=2000]\n");
    return 2;
  }
  const int n = argc > 3 ? std::atoi(argv[3]) : 100;
  const unsigned grid_x = argc > 4 ? std::atoi(argv[4]) : 32;
  const unsigned block_x = argc > 5 ? std::atoi(argv[5]) : 32;
  const int reps = argc > 6 ? std::atoi(argv[6]) : 2000;
  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  const std::string ptx = text.str();
  if (ptx.empty()) {
    std::fprintf(stderr, "raw_graph: cannot read %s\n", argv[1]);
    return 1;
  }

  Check(cuInit(0), "cuInit");
  CUdevice device;
  Check(cuDeviceGet(&device, 0), "cuDeviceGet");
  CUcontext context;
  Check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  Check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  CUmodule module;
  Check(cuModuleLoadDataEx(&module, ptx.c_str(), 0, nullptr, nullptr), "cuModuleLoadDataEx");
  CUfunction function;
  Check(cuModuleGetFunction(&function, module, argv[2]), "cuModuleGetFunction");
  CUstream stream;
  Check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");

  // The compiled program's buffers: a 16 KiB input, a 32 KiB transient that the middle
  // dispatches ping-pong inside, a 16 KiB output.
  const size_t bytes = size_t{grid_x} * block_x * 16;
  CUdeviceptr input, transient, output;
  Check(cuMemAlloc(&input, bytes), "cuMemAlloc");
  Check(cuMemAlloc(&transient, 2 * bytes), "cuMemAlloc");
  Check(cuMemAlloc(&output, bytes), "cuMemAlloc");
  Check(cuMemsetD32(input, 0x3F800000, bytes / 4), "cuMemsetD32");
  std::vector<Launch> launches(n);
  for (int i = 0; i < n; ++i) {
    const uint32_t in_offset = (i % 2 == 1) ? 0 : bytes, out_offset = (i % 2 == 0) ? 0 : bytes;
    launches[i] = {i == 0 ? input : transient, i == n - 1 ? output : transient,
                   i == 0 ? 0 : in_offset, i == n - 1 ? 0 : out_offset};
  }
  std::vector<std::vector<void*>> params(n);
  for (int i = 0; i < n; ++i) {
    params[i] = {&launches[i].in, &launches[i].out, &launches[i].in_offset, &launches[i].out_offset};
  }

  CUgraph graph;
  Check(cuGraphCreate(&graph, 0), "cuGraphCreate");
  CUgraphNode previous = nullptr;
  for (int i = 0; i < n; ++i) {
    CUDA_KERNEL_NODE_PARAMS node_params = {};
    node_params.func = function;
    node_params.gridDimX = grid_x;
    node_params.gridDimY = node_params.gridDimZ = 1;
    node_params.blockDimX = block_x;
    node_params.blockDimY = node_params.blockDimZ = 1;
    node_params.kernelParams = params[i].data();
    CUgraphNode node;
    Check(cuGraphAddKernelNode(&node, graph, previous ? &previous : nullptr, previous ? 1 : 0,
                               &node_params),
          "cuGraphAddKernelNode");
    previous = node;
  }
  CUgraphExec exec;
  Check(cuGraphInstantiateWithFlags(&exec, graph, 0), "cuGraphInstantiateWithFlags");
  auto launch_stream = [&] {
    for (int i = 0; i < n; ++i) {
      Check(cuLaunchKernel(function, grid_x, 1, 1, block_x, 1, 1, 0, stream, params[i].data(), nullptr),
            "cuLaunchKernel");
    }
  };
  auto launch_graph = [&] { Check(cuGraphLaunch(exec, stream), "cuGraphLaunch"); };

  CUevent start, stop;
  Check(cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
  Check(cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  auto measure = [&](const char* name, auto&& launch) {
    for (int i = 0; i < 50; ++i) launch();
    Check(cuStreamSynchronize(stream), "cuStreamSynchronize");
    Check(cuEventRecord(start, stream), "cuEventRecord");
    for (int i = 0; i < reps; ++i) launch();
    Check(cuEventRecord(stop, stream), "cuEventRecord");
    Check(cuEventSynchronize(stop), "cuEventSynchronize");
    float device_ms = 0;
    Check(cuEventElapsedTime(&device_ms, start, stop), "cuEventElapsedTime");
    std::vector<double> wall;
    for (int i = 0; i < reps; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      launch();
      Check(cuStreamSynchronize(stream), "cuStreamSynchronize");
      wall.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    const double device_us = device_ms * 1000.0 / reps;
    const double wall_us = Median(wall);
    std::printf("%s n=%d grid=%u block=%u device_us_per_call=%.2f device_us_per_dispatch=%.3f "
                "wall_us_per_call=%.2f wall_us_per_dispatch=%.3f\n",
                name, n, grid_x, block_x, device_us, device_us / n, wall_us, wall_us / n);
  };
  measure("raw_graph", launch_graph);
  measure("raw_stream", launch_stream);

  // Sanity: the output is input * 1.0001^n for the chain.mlir kernel (1.0 in, so ~1.0001^n).
  float first = 0;
  Check(cuMemcpyDtoH(&first, output, sizeof(first)), "cuMemcpyDtoH");
  std::printf("raw_graph output[0]=%.6f\n", first);
  return 0;
}
