// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree-rt-tp-mlp: a tensor-parallel MLP (bench/collectives/tp_mlp.mlir) on N GPUs against the
// whole MLP on one GPU, through the C ABI as an application runs it: one thread per rank with its
// own cuda://<rank> device (rank/ranks/rendezvous parameters), context and inputs. Prints ms per
// call (median of --runs timed calls, rank 0, all ranks released together) and the speed-up, and
// checks that every rank's output equals the one-GPU output.
//
//   iree-rt-tp-mlp --whole=tp_mlp1.vmfb --sharded=tp_mlp2.vmfb --ranks=2 [--runs=5] [--b=2048 --d=4096 --f=16384]
#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "iree_rt.h"

namespace {

using Clock = std::chrono::steady_clock;

void Check(iree_rt_status_t status, const char* what) {
  if (!status) return;
  std::fprintf(stderr, "%s: %s: %s\n", what, iree_rt_status_code_name(iree_rt_status_code(status)),
               iree_rt_status_message(status));
  std::exit(1);
}

struct Shape {
  int64_t b, d, f;
};

// A host-visible device buffer of |count| f32 all equal to |value|, viewed as |dims|.
iree_rt_buffer_view_t Filled(iree_rt_device_t device, std::vector<int64_t> dims, float value) {
  uint64_t count = 1;
  for (int64_t dim : dims) count *= static_cast<uint64_t>(dim);
  iree_rt_buffer_t buffer = nullptr;
  Check(iree_rt_buffer_allocate(device, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL | IREE_RT_MEMORY_TYPE_HOST_VISIBLE,
                                IREE_RT_BUFFER_USAGE_DEFAULT, count * 4, &buffer),
        "allocate");
  Check(iree_rt_buffer_fill(buffer, 0, count * 4, &value, 4), "fill");
  iree_rt_buffer_view_t view = nullptr;
  Check(iree_rt_buffer_view_create(buffer, dims.data(), dims.size(), IREE_RT_ELEMENT_TYPE_FLOAT_32,
                                   IREE_RT_ENCODING_TYPE_DENSE_ROW_MAJOR, &view),
        "view");
  iree_rt_buffer_release(buffer);
  return view;
}

// First element of the result, read back through a host-visible copy.
float FirstElement(iree_rt_device_t device, iree_rt_buffer_view_t view) {
  iree_rt_buffer_t buffer = nullptr, staging = nullptr;
  Check(iree_rt_buffer_view_buffer(view, &buffer), "result buffer");
  Check(iree_rt_buffer_allocate(device, IREE_RT_MEMORY_TYPE_HOST_LOCAL, IREE_RT_BUFFER_USAGE_DEFAULT, 4, &staging),
        "staging");
  iree_rt_semaphore_t semaphore = nullptr;
  iree_rt_fence_t done = nullptr;
  Check(iree_rt_semaphore_create(device, 0, &semaphore), "semaphore");
  Check(iree_rt_fence_create(&done), "fence");
  Check(iree_rt_fence_insert(done, semaphore, 1), "fence insert");
  Check(iree_rt_device_queue_copy(device, nullptr, done, buffer, 0, staging, 0, 4), "copy");
  Check(iree_rt_fence_wait(done, IREE_RT_INFINITE_TIMEOUT), "wait");
  float value = 0;
  Check(iree_rt_buffer_read(staging, 0, &value, 4), "read");
  iree_rt_fence_release(done);
  iree_rt_semaphore_release(semaphore);
  iree_rt_buffer_release(staging);
  return value;
}

// Runs |module| on |ranks| GPUs; returns rank 0's median ms per call and every rank's y[0].
double Run(const std::string& module, int ranks, const Shape& shape, int runs, std::vector<float>* firsts) {
  static int round = 0;
  const std::string rendezvous = "local:tp" + std::to_string(round++);
  iree_rt_instance_t instance = nullptr;
  Check(iree_rt_instance_create(IREE_RT_ABI_VERSION, nullptr, &instance), "instance");
  std::vector<double> times(runs);
  firsts->assign(ranks, 0.0f);
  std::barrier sync(ranks);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < ranks; ++rank) {
    threads.emplace_back([&, rank] {
      iree_rt_device_options_t options = nullptr;
      Check(iree_rt_device_options_create(&options), "options");
      Check(iree_rt_device_options_set_string(options, "rank", std::to_string(rank).c_str()), "rank");
      Check(iree_rt_device_options_set_string(options, "ranks", std::to_string(ranks).c_str()), "ranks");
      Check(iree_rt_device_options_set_string(options, "rendezvous", rendezvous.c_str()), "rendezvous");
      iree_rt_device_t device = nullptr;
      Check(iree_rt_device_create(instance, ("cuda://" + std::to_string(rank)).c_str(), options, &device), "device");
      iree_rt_device_options_release(options);
      iree_rt_module_t hal = nullptr, program = nullptr;
      Check(iree_rt_module_create_hal(instance, &device, 1, &hal), "hal module");
      Check(iree_rt_module_load_file(instance, module.c_str(), &program), "load");
      iree_rt_module_t modules[2] = {hal, program};
      iree_rt_context_t context = nullptr;
      Check(iree_rt_context_create(instance, modules, 2, &context), "context");
      iree_rt_function_t function = nullptr;
      Check(iree_rt_context_lookup_function(context, "mlp", &function), "lookup");
      const int64_t shard = shape.f / ranks;
      iree_rt_value_list_t args = nullptr, results = nullptr;
      Check(iree_rt_value_list_create(3, &args), "args");
      Check(iree_rt_value_list_create(1, &results), "results");
      for (iree_rt_buffer_view_t view : {Filled(device, {shape.b, shape.d}, 0.01f),
                                         Filled(device, {shape.d, shard}, 0.01f),
                                         Filled(device, {shard, shape.d}, 0.01f)}) {
        Check(iree_rt_value_list_push_buffer_view(args, view), "push");
        iree_rt_buffer_view_release(view);
      }
      auto call = [&] {
        Check(iree_rt_value_list_clear(results), "clear");
        Check(iree_rt_function_call(function, args, results), "call");
      };
      call();  // warm-up: NCCL, kernels, managed memory on the GPU
      call();
      for (int run = 0; run < runs; ++run) {
        sync.arrive_and_wait();
        const Clock::time_point start = Clock::now();
        call();
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        if (rank == 0) times[run] = ms;
      }
      iree_rt_buffer_view_t y = nullptr;
      Check(iree_rt_value_list_get_buffer_view(results, 0, &y), "result");
      (*firsts)[rank] = FirstElement(device, y);
      iree_rt_buffer_view_release(y);
      sync.arrive_and_wait();
      iree_rt_value_list_release(results);
      iree_rt_value_list_release(args);
      iree_rt_function_release(function);
      iree_rt_context_release(context);
      iree_rt_module_release(program);
      iree_rt_module_release(hal);
      iree_rt_device_release(device);
    });
  }
  for (std::thread& thread : threads) thread.join();
  iree_rt_instance_release(instance);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string whole, sharded;
  int ranks = 2, runs = 5;
  Shape shape{2048, 4096, 16384};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag) { return arg.substr(std::strlen(flag)); };
    if (arg.rfind("--whole=", 0) == 0) whole = value("--whole=");
    else if (arg.rfind("--sharded=", 0) == 0) sharded = value("--sharded=");
    else if (arg.rfind("--ranks=", 0) == 0) ranks = std::stoi(value("--ranks="));
    else if (arg.rfind("--runs=", 0) == 0) runs = std::stoi(value("--runs="));
    else if (arg.rfind("--b=", 0) == 0) shape.b = std::stoll(value("--b="));
    else if (arg.rfind("--d=", 0) == 0) shape.d = std::stoll(value("--d="));
    else if (arg.rfind("--f=", 0) == 0) shape.f = std::stoll(value("--f="));
    else { std::fprintf(stderr, "unknown flag %s\n", argv[i]); return 2; }
  }
  if (whole.empty() || sharded.empty()) {
    std::fprintf(stderr, "usage: iree-rt-tp-mlp --whole=M1.vmfb --sharded=MN.vmfb --ranks=N\n");
    return 2;
  }
  std::vector<float> whole_first, sharded_first;
  const double one = Run(whole, 1, shape, runs, &whole_first);
  const double many = Run(sharded, ranks, shape, runs, &sharded_first);
  const double flops = 4.0 * shape.b * shape.d * shape.f;
  std::printf("tensor-parallel MLP %lldx%lld, hidden %lld (f32), median of %d calls\n", (long long)shape.b,
              (long long)shape.d, (long long)shape.f, runs);
  std::printf("  1 GPU:  %8.2f ms per call (%.1f TFLOP/s)\n", one, flops / one / 1e9);
  std::printf("  %d GPUs: %8.2f ms per call (%.1f TFLOP/s)\n", ranks, many, flops / many / 1e9);
  std::printf("  speed-up %.2fx (goal >= 1.7x on 2 GPUs)\n", one / many);
  bool same = true;
  for (float value : sharded_first) same = same && std::fabs(value - whole_first[0]) <= 1e-3f * std::fabs(whole_first[0]);
  std::printf("  y[0]: 1 GPU %.4f, ranks", whole_first[0]);
  for (float value : sharded_first) std::printf(" %.4f", value);
  std::printf(" -> %s\n", same ? "equal" : "DIFFERENT");
  return same ? 0 : 1;
}
