// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree-rt-allreduce-bandwidth: all-reduce bus bandwidth through our CUDA channel against NCCL
// called directly, on the same GPUs in the same run, 1 MiB to 1 GiB (f32 sum).
//
// Ours: one thread per rank creates cuda://<rank> with rank/ranks/rendezvous parameters, the
// channel (hal::Device::CreateChannel, as hal.channel.create does), a reusable command buffer
// holding one collective, and submits it |iters| times in a semaphore chain; the time is from the
// first submission to the last signal. Raw: the same ranks and buffer sizes with ncclAllReduce on
// a stream, |iters| launches, then a stream synchronize. Bus bandwidth is NCCL's definition:
// bytes * 2 * (n - 1) / n / time. Each figure is the median of --runs runs.
//
// Each size runs at least --iters operations and enough for --min_mib of traffic per run (as
// nccl-tests' -n): at 1 MiB twenty operations take ~0.3 ms, so the fixed costs of a run (the
// first submission before the GPU starts, the wake-up after the last) would weigh as much as the
// bandwidth being measured, and differently on each side. --min_mib=0 gives the old counts.
//
// --explain adds, per size, the time per operation of NCCL captured into a CUDA graph and
// launched each time, bare and followed by two event records, to show where a gap comes from.
//
//   iree-rt-allreduce-bandwidth [--ranks=2] [--iters=20] [--min_mib=1280] [--runs=5] [--mode=graph|stream]
//                               [--explain]
#include <cuda.h>
#include <nccl.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "drivers/cuda/dynamic_symbols.h"
#include "drivers/cuda/nccl_symbols.h"
#include "hal/device.h"
#include "session/driver_set.h"

namespace rt = iree_rt;
using rt::base::Ref;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void Die(const char* what, const rt::base::Status& status) {
  std::fprintf(stderr, "%s: %s\n", what, status.ToString().c_str());
  std::exit(1);
}

void Check(const char* what, const rt::base::Status& status) {
  if (!status.ok()) Die(what, status);
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Seconds per all-reduce through our channel, for every run (rank 0's view); |submit_seconds|
// gets rank 0's host time per submission (first submission to the last one's return).
std::vector<double> TimeOurs(int ranks, uint64_t bytes, int iters, int runs, const std::string& mode,
                             std::vector<double>* submit_seconds) {
  static int round = 0;
  const std::string rendezvous = "local:bench" + std::to_string(round++);
  std::vector<double> seconds(runs);
  submit_seconds->assign(runs, 0.0);
  std::barrier sync(ranks);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < ranks; ++rank) {
    threads.emplace_back([&, rank] {
      auto drivers = rt::session::DriverSet::Create();
      if (!drivers.ok()) Die("drivers", drivers.status());
      const std::string uri = "cuda://" + std::to_string(rank) + "?command_buffer_mode=" + mode + "&rank=" +
                              std::to_string(rank) + "&ranks=" + std::to_string(ranks) + "&rendezvous=" + rendezvous;
      auto device = (*drivers)->CreateDevice(uri);
      if (!device.ok()) Die("device", device.status());
      auto channel = (*device)->CreateChannel(rt::hal::kQueueAffinityAny, rt::hal::ChannelParams{});
      if (!channel.ok()) Die("channel", channel.status());
      rt::hal::BufferParams params;
      params.type = rt::hal::MemoryType::kDeviceLocal;
      params.usage = rt::hal::BufferUsage::kDefault;
      auto send = (*device)->allocator().AllocateBuffer(params, bytes);
      auto recv = (*device)->allocator().AllocateBuffer(params, bytes);
      if (!send.ok() || !recv.ok()) Die("allocate", send.ok() ? recv.status() : send.status());
      auto cb = (*device)->CreateCommandBuffer(rt::hal::CommandBufferMode::kDefault, rt::hal::CommandCategory::kAny,
                                               rt::hal::kQueueAffinityAny, 0);
      if (!cb.ok()) Die("command buffer", cb.status());
      rt::hal::CollectiveOp op{rt::hal::CollectiveKind::kAllReduce, rt::hal::CollectiveReduction::kSum,
                               rt::hal::CollectiveElementType::kFloat32};
      rt::hal::BufferRef send_ref{*send, 0, 0, bytes}, recv_ref{*recv, 0, 0, bytes};
      Check("collective", (*cb)->Collective(*channel, op, 0, send_ref, recv_ref, bytes / 4));
      Check("finalize", (*cb)->Finalize());
      auto semaphore = (*device)->CreateSemaphore(0);
      if (!semaphore.ok()) Die("semaphore", semaphore.status());
      uint64_t value = 0;
      double submitted = 0;
      auto submit_all = [&](int count) {
        const Clock::time_point start = Clock::now();
        for (int i = 0; i < count; ++i) {
          rt::hal::SemaphorePoint wait{semaphore->get(), value}, signal{semaphore->get(), value + 1};
          Check("execute", (*device)->QueueExecute(rt::hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, *cb, {}));
          ++value;
        }
        submitted = std::chrono::duration<double>(Clock::now() - start).count();
        Check("wait", (*semaphore)->Wait(value, rt::hal::kInfiniteTimeout));
      };
      submit_all(2);  // warm-up: channel initialization, graph build
      for (int run = 0; run < runs; ++run) {
        sync.arrive_and_wait();
        const Clock::time_point start = Clock::now();
        submit_all(iters);
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (rank == 0) {
          seconds[run] = elapsed / iters;
          (*submit_seconds)[run] = submitted / iters;
        }
      }
      sync.arrive_and_wait();
    });
  }
  for (std::thread& thread : threads) thread.join();
  return seconds;
}

// How the raw side launches: ncclAllReduce on the stream each time (the anchor), or captured
// once into a CUDA graph that is launched each time, bare or followed by two event records (what
// our graph submissions add: the completion event and the watchdog's). The graph variants only
// explain where a gap comes from (--explain).
enum class Raw { kStream, kGraph, kGraphEvents };

// Seconds per ncclAllReduce called directly, for every run (rank 0's view).
std::vector<double> TimeRaw(const rt::drivers::cuda::DynamicSymbols& cu, const rt::drivers::cuda::NcclSymbols& nccl,
                            int ranks, uint64_t bytes, int iters, int runs, Raw raw = Raw::kStream) {
  ncclUniqueId id;
  nccl.ncclGetUniqueId(&id);
  std::vector<double> seconds(runs);
  std::barrier sync(ranks);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < ranks; ++rank) {
    threads.emplace_back([&, rank] {
      CUdevice device;
      CUcontext context;
      cu.cuDeviceGet(&device, rank);
      cu.cuDevicePrimaryCtxRetain(&context, device);
      cu.cuCtxSetCurrent(context);
      CUdeviceptr send = 0, recv = 0;
      cu.cuMemAlloc(&send, bytes);
      cu.cuMemAlloc(&recv, bytes);
      CUstream stream;
      cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
      ncclComm_t comm;
      if (nccl.ncclCommInitRank(&comm, ranks, id, rank) != ncclSuccess) {
        std::fprintf(stderr, "ncclCommInitRank failed\n");
        std::exit(1);
      }
      CUgraphExec exec = nullptr;
      CUevent events[2] = {};
      if (raw != Raw::kStream) {
        CUgraph graph = nullptr;
        cu.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_RELAXED);
        nccl.ncclAllReduce(reinterpret_cast<void*>(send), reinterpret_cast<void*>(recv), bytes / 4, ncclFloat32,
                           ncclSum, comm, stream);
        cu.cuStreamEndCapture(stream, &graph);
        cu.cuGraphInstantiateWithFlags(&exec, graph, 0);
        cu.cuGraphDestroy(graph);
        for (CUevent& event : events) cu.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING);
      }
      auto launch_all = [&](int count) {
        for (int i = 0; i < count; ++i) {
          if (raw == Raw::kStream) {
            nccl.ncclAllReduce(reinterpret_cast<void*>(send), reinterpret_cast<void*>(recv), bytes / 4, ncclFloat32,
                               ncclSum, comm, stream);
            continue;
          }
          cu.cuGraphLaunch(exec, stream);
          if (raw == Raw::kGraphEvents) {
            for (CUevent event : events) cu.cuEventRecord(event, stream);
          }
        }
        cu.cuStreamSynchronize(stream);
      };
      launch_all(2);
      for (int run = 0; run < runs; ++run) {
        sync.arrive_and_wait();
        const Clock::time_point start = Clock::now();
        launch_all(iters);
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (rank == 0) seconds[run] = elapsed / iters;
      }
      sync.arrive_and_wait();
      if (exec) cu.cuGraphExecDestroy(exec);
      for (CUevent event : events) {
        if (event) cu.cuEventDestroy(event);
      }
      nccl.ncclCommDestroy(comm);
      cu.cuStreamDestroy(stream);
      cu.cuMemFree(send);
      cu.cuMemFree(recv);
      cu.cuDevicePrimaryCtxRelease(device);
    });
  }
  for (std::thread& thread : threads) thread.join();
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  int ranks = 2, iters = 20, runs = 5;
  uint64_t min_mib = 1280;
  bool explain = false;
  std::string mode = "graph";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--ranks=", 0) == 0) ranks = std::stoi(arg.substr(8));
    else if (arg.rfind("--iters=", 0) == 0) iters = std::stoi(arg.substr(8));
    else if (arg.rfind("--runs=", 0) == 0) runs = std::stoi(arg.substr(7));
    else if (arg.rfind("--mode=", 0) == 0) mode = arg.substr(7);
    else if (arg.rfind("--min_mib=", 0) == 0) min_mib = std::stoull(arg.substr(10));
    else if (arg == "--explain") explain = true;
    else { std::fprintf(stderr, "unknown flag %s\n", argv[i]); return 2; }
  }
  auto cu = rt::drivers::cuda::DynamicSymbols::Get();
  if (!cu.ok()) Die("cuda", cu.status());
  auto nccl = rt::drivers::cuda::NcclSymbols::Get();
  if (!nccl.ok()) Die("nccl", nccl.status());
  std::printf("all-reduce f32 sum, %d ranks, NCCL %d, %s command buffers, median of %d runs of >= %d ops and "
              ">= %llu MiB; bus GB/s\n",
              ranks, (*nccl)->version, mode.c_str(), runs, iters, (unsigned long long)min_mib);
  std::printf("%10s %6s %12s %12s %8s %16s\n", "size", "ops", "ours", "nccl", "ratio", "ours host us/op");
  const double factor = 2.0 * (ranks - 1) / ranks;
  for (uint64_t bytes = 1ull << 20; bytes <= (1ull << 30); bytes <<= 2) {
    const int n = std::max<int>(bytes >= (256ull << 20) ? std::max(4, iters / 4) : iters,
                                static_cast<int>((min_mib << 20) / bytes));
    std::vector<double> submit;
    const double ours = Median(TimeOurs(ranks, bytes, n, runs, mode, &submit));
    const double raw = Median(TimeRaw(**cu, **nccl, ranks, bytes, n, runs));
    const double ours_bw = bytes * factor / ours / 1e9, raw_bw = bytes * factor / raw / 1e9;
    std::printf("%7llu MiB %6d %12.2f %12.2f %8.3f %16.1f", (unsigned long long)(bytes >> 20), n, ours_bw, raw_bw,
                ours_bw / raw_bw, Median(submit) * 1e6);
    if (explain) {
      // Per-operation microseconds of each way to launch, against the stream anchor's.
      const double graph = Median(TimeRaw(**cu, **nccl, ranks, bytes, n, runs, Raw::kGraph));
      const double events = Median(TimeRaw(**cu, **nccl, ranks, bytes, n, runs, Raw::kGraphEvents));
      std::printf("   us/op: nccl %.2f, nccl graph %.2f, + 2 events %.2f, ours %.2f", raw * 1e6, graph * 1e6,
                  events * 1e6, ours * 1e6);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
