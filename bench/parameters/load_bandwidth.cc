// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Load bandwidth of parameter bytes into device memory: Device::QueueReadMany (what io_parameters
// runs) against the raw limit measured in the same run.
//
//   iree-rt-load-bandwidth [--device=cuda] [--mib=1024] [--runs=5] [--file=PATH]
//
// The file (PATH, or a new one under /tmp filled with a pattern and left in the page cache) is
// read into |mib| MiB of device-local buffers (8 equal reads), both as a mapping (--parameter_mode
// mmap) and with pread (file). The raw limit on cuda is a cuMemcpyHtoDAsync loop from pinned memory
// (64 MiB copies) into a device allocation of the same size; on a CPU device it is one memcpy of
// the mapped file. Prints the median GB/s of |runs| runs (after one warm-up run) and ours/raw.
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/mapped_file.h"
#include "hal/device.h"
#include "hal/device_uri.h"
#include "session/driver_set.h"
#include "hal/utils/fd_file.h"
#include "hal/utils/memory_file.h"

#if __has_include(<cuda.h>)
#include <cuda.h>
#define HAVE_CUDA_H 1
#endif

namespace rt = iree_rt;
using rt::base::Ref;
using rt::base::Status;
using Clock = std::chrono::steady_clock;

namespace {

double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

[[noreturn]] void Die(const std::string& what, const Status& status) {
  std::fprintf(stderr, "load_bandwidth: %s: %s\n", what.c_str(), status.ToString().c_str());
  std::exit(1);
}

// GB/s of reading |file| into |targets| (one read per target, back to back in the file).
double TimeOurs(rt::hal::Device& device, const Ref<rt::hal::File>& file, const std::vector<Ref<rt::hal::Buffer>>& targets) {
  std::vector<rt::hal::FileRead> reads;
  uint64_t offset = 0, total = 0;
  for (const Ref<rt::hal::Buffer>& target : targets) {
    reads.push_back({file, offset, target, 0, target->byte_length()});
    offset += target->byte_length();
    total += target->byte_length();
  }
  auto semaphore = device.CreateSemaphore(0);
  if (!semaphore.ok()) Die("semaphore", semaphore.status());
  const rt::hal::SemaphorePoint signal{semaphore->get(), 1};
  const Clock::time_point start = Clock::now();
  Status status = device.QueueReadMany(rt::hal::kQueueAffinityAny, {}, {&signal, 1}, reads);
  if (status.ok()) status = (*semaphore)->Wait(1, rt::hal::kInfiniteTimeout);
  if (!status.ok()) Die("QueueReadMany", status);
  return total / Seconds(start) / 1e9;
}

#ifdef HAVE_CUDA_H
// The raw limit: cuMemcpyHtoDAsync from pinned memory, 64 MiB at a time, on one stream.
double TimeRawCuda(uint64_t total, int runs) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) return 0;
#define SYM(name) auto p_##name = reinterpret_cast<decltype(&name)>(dlsym(lib, #name))
  SYM(cuInit); SYM(cuDeviceGet); SYM(cuDevicePrimaryCtxRetain); SYM(cuCtxSetCurrent);
  SYM(cuMemHostAlloc); SYM(cuMemAlloc_v2); SYM(cuMemcpyHtoDAsync_v2); SYM(cuStreamCreate);
  SYM(cuStreamSynchronize); SYM(cuMemFree_v2); SYM(cuMemFreeHost);
#undef SYM
  CUdevice device;
  CUcontext context;
  CUstream stream;
  constexpr size_t kChunk = 64u << 20;
  void* pinned = nullptr;
  CUdeviceptr target = 0;
  if (p_cuInit(0) || p_cuDeviceGet(&device, 0) || p_cuDevicePrimaryCtxRetain(&context, device) ||
      p_cuCtxSetCurrent(context) || p_cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) ||
      p_cuMemHostAlloc(&pinned, kChunk, 0) || p_cuMemAlloc_v2(&target, total)) {
    return 0;
  }
  std::memset(pinned, 0x3C, kChunk);
  std::vector<double> rates;
  for (int run = 0; run <= runs; ++run) {
    const Clock::time_point start = Clock::now();
    for (uint64_t done = 0; done < total; done += kChunk) {
      p_cuMemcpyHtoDAsync_v2(target + done, pinned, std::min<uint64_t>(kChunk, total - done), stream);
    }
    p_cuStreamSynchronize(stream);
    if (run > 0) rates.push_back(total / Seconds(start) / 1e9);
  }
  p_cuMemFree_v2(target);
  p_cuMemFreeHost(pinned);
  return Median(rates);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  std::string device_name = "cuda", path;
  uint64_t mib = 1024;
  int runs = 5;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--device=", 0) == 0) device_name = arg.substr(9);
    else if (arg.rfind("--mib=", 0) == 0) mib = std::stoull(arg.substr(6));
    else if (arg.rfind("--runs=", 0) == 0) runs = std::max(1, std::stoi(arg.substr(7)));
    else if (arg.rfind("--file=", 0) == 0) path = arg.substr(7);
    else { std::fprintf(stderr, "unknown flag %s\n", argv[i]); return 2; }
  }
  const uint64_t total = mib << 20;
  if (path.empty()) {
    path = "/tmp/iree_rt_load_bandwidth.bin";
    const int fd = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
    std::vector<uint8_t> block(8 << 20);
    for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<uint8_t>(i * 7 + 3);
    for (uint64_t done = 0; done < total; done += block.size()) {
      if (fd < 0 || write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) {
        std::perror("write");
        return 1;
      }
    }
    close(fd);
  }

  auto uri = rt::hal::DeviceUri::Parse(device_name);
  if (!uri.ok()) Die("device", uri.status());
  auto drivers = rt::session::DriverSet::Create();
  if (!drivers.ok()) Die("drivers", drivers.status());
  auto device = (*drivers)->CreateDevice(device_name);
  if (!device.ok()) Die("device", device.status());

  auto mapping = rt::base::MappedFile::Open(path);
  if (!mapping.ok()) Die("map", mapping.status());
  if ((*mapping)->span().size() < total) {
    std::fprintf(stderr, "%s has fewer than %llu MiB\n", path.c_str(), (unsigned long long)mib);
    return 1;
  }
  Ref<rt::base::MappedFile> keep = *mapping;
  Ref<rt::hal::File> mapped = rt::base::MakeRef<rt::hal::utils::MemoryFile>(
      const_cast<uint8_t*>(keep->span().data()), keep->span().size(), false, [keep]() mutable { keep = nullptr; });
  auto fd_file = rt::hal::utils::FdFile::Open(path);
  if (!fd_file.ok()) Die("open", fd_file.status());

  rt::hal::BufferParams params;
  params.type = rt::hal::MemoryType::kDeviceLocal;
  std::vector<Ref<rt::hal::Buffer>> targets;
  for (int i = 0; i < 8; ++i) {
    auto buffer = (*device)->allocator().AllocateBuffer(params, total / 8);
    if (!buffer.ok()) Die("allocate", buffer.status());
    targets.push_back(*buffer);
  }
  std::printf("load_bandwidth: %llu MiB into 8 %s buffers (%s), %d runs after a warm-up, median\n",
              (unsigned long long)mib, device_name.c_str(),
              (targets[0]->memory_type() & rt::hal::MemoryType::kHostVisible) ? "host-visible" : "device-only",
              runs);
  double best = 0;
  for (const auto& [mode, file] : {std::pair<const char*, Ref<rt::hal::File>>{"mmap", mapped},
                                   std::pair<const char*, Ref<rt::hal::File>>{"file", *fd_file}}) {
    const Clock::time_point first = Clock::now();
    TimeOurs(**device, file, targets);
    const double first_s = Seconds(first);
    std::vector<double> rates;
    for (int run = 0; run < runs; ++run) rates.push_back(TimeOurs(**device, file, targets));
    const double rate = Median(rates);
    best = std::max(best, rate);
    std::printf("  ours %-4s  %7.2f GB/s   (first run, with staging set-up: %.3f s)\n", mode, rate, first_s);
  }
  double raw = 0;
  const char* raw_name = "memcpy of the mapped file";
#ifdef HAVE_CUDA_H
  if (uri->driver == "cuda") {
    raw = TimeRawCuda(total, runs);
    raw_name = "cuMemcpyHtoDAsync from pinned memory";
  }
#endif
  if (raw == 0) {
    std::vector<uint8_t> sink(total);
    std::vector<double> rates;
    for (int run = 0; run <= runs; ++run) {
      const Clock::time_point start = Clock::now();
      std::memcpy(sink.data(), keep->span().data(), total);
      if (run > 0) rates.push_back(total / Seconds(start) / 1e9);
    }
    raw = Median(rates);
  }
  std::printf("  raw        %7.2f GB/s   (%s)\n", raw, raw_name);
  std::printf("  ours/raw   %7.3f   (best mode; goal on cuda >= 0.80)\n", best / raw);
  return 0;
}
