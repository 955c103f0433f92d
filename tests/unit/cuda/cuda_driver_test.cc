// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CUDA-specific driver tests the shared conformance suite cannot express: URI forms and
// parameters, the memory-pool queue alloca path (device-local, not mappable), device-pointer
// imports, long semaphore chains issued through device timepoints, and a multi-threaded
// semaphore stress. Every case is skipped, with the reason, where no CUDA GPU is usable.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "drivers/cuda/allocator.h"
#include "drivers/cuda/buffer.h"
#include "drivers/cuda/registration.h"
#include "hal/device_uri.h"
#include "hal/driver_registry.h"
#include "status_matchers.h"

namespace iree_rt::drivers::cuda {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using base::StatusOr;
using iree_rt::testing::IsError;
using iree_rt::testing::IsOk;

constexpr int64_t kTimeoutNs = 60'000'000'000;

class CudaDriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hal::DriverRegistry registry;
    ASSERT_TRUE(IsOk(RegisterCudaDriver(registry)));
    StatusOr<Ref<hal::Driver>> driver = registry.CreateDriver("cuda");
    if (driver.status().code() == StatusCode::kUnavailable) {
      GTEST_SKIP() << "cuda unavailable: " << driver.status().ToString();
    }
    ASSERT_TRUE(IsOk(driver));
    driver_ = *driver;
  }

  StatusOr<Ref<hal::Device>> Create(std::string_view text) {
    RT_ASSIGN_OR_RETURN(hal::DeviceUri uri, hal::DeviceUri::Parse(text));
    return driver_->CreateDevice(uri);
  }

  Ref<hal::Device> CreateOrFail(std::string_view text) {
    StatusOr<Ref<hal::Device>> device = Create(text);
    EXPECT_TRUE(IsOk(device)) << text;
    return device.ok() ? *device : nullptr;
  }

  static Ref<hal::Buffer> HostVisible(hal::Device& device, uint64_t size) {
    hal::BufferParams params;
    params.type = hal::MemoryType::kDeviceLocal | hal::MemoryType::kHostVisible;
    StatusOr<Ref<hal::Buffer>> buffer = device.allocator().AllocateBuffer(params, size);
    EXPECT_TRUE(IsOk(buffer));
    return buffer.ok() ? *buffer : nullptr;
  }

  Ref<hal::Driver> driver_;
};

TEST_F(CudaDriverTest, UriFormsAndParameters) {
  StatusOr<std::vector<hal::DeviceInfo>> devices = driver_->EnumerateDevices();
  ASSERT_TRUE(IsOk(devices));
  ASSERT_FALSE(devices->empty());
  const std::string& uri = (*devices)[0].uri;  // cuda://GPU-<uuid>
  std::string upper = uri;
  for (size_t i = 7; i < upper.size(); ++i) upper[i] = static_cast<char>(std::toupper(upper[i]));
  EXPECT_TRUE(IsOk(Create(uri)));
  EXPECT_TRUE(IsOk(Create(upper)));
  EXPECT_TRUE(IsError(Create("cuda://GPU-00000000-0000-0000-0000-000000000000").status(), StatusCode::kNotFound));
  EXPECT_TRUE(IsOk(Create("cuda://0?command_buffer_mode=graph&async_allocations=false&event_pool_capacity=4")));
  EXPECT_TRUE(IsError(Create("cuda://0?command_buffer_mode=fast").status(), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Create("cuda://0?async_allocations=maybe").status(), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Create("cuda://zero").status(), StatusCode::kInvalidArgument));
  Ref<hal::Device> device = CreateOrFail("cuda");
  ASSERT_TRUE(device);
  StatusOr<int64_t> major = device->QueryI64("cuda.device", "compute_capability_major");
  ASSERT_TRUE(IsOk(major));
  EXPECT_GE(*major, 5);
  StatusOr<int64_t> concurrent = device->QueryI64("cuda.device", "concurrent_managed_access");
  ASSERT_TRUE(IsOk(concurrent));
  std::printf("[ INFO     ] concurrent managed access: %lld\n", static_cast<long long>(*concurrent));
}

// Device-local queue allocas come from the memory pool; they are not mappable, so the data is
// checked through a copy, and a dealloca returns the bytes.
TEST_F(CudaDriverTest, PoolQueueAllocaFillCopyDealloca) {
  for (const char* uri : {"cuda://0?async_allocations=true", "cuda://0?async_allocations=false"}) {
    SCOPED_TRACE(uri);
    Ref<hal::Device> device = CreateOrFail(uri);
    ASSERT_TRUE(device);
    StatusOr<Ref<hal::Semaphore>> semaphore = device->CreateSemaphore(0);
    ASSERT_TRUE(IsOk(semaphore));
    hal::Semaphore& timeline = **semaphore;
    const uint64_t before = device->allocator().statistics().bytes_allocated;
    constexpr uint64_t kSize = 1 << 20;
    hal::BufferParams params;
    params.type = hal::MemoryType::kDeviceLocal;
    hal::SemaphorePoint s1{&timeline, 1}, s2{&timeline, 2}, s3{&timeline, 3}, s4{&timeline, 4};
    StatusOr<Ref<hal::Buffer>> transient =
        device->QueueAlloca(hal::kQueueAffinityAny, {}, {&s1, 1}, params, kSize, 0);
    ASSERT_TRUE(IsOk(transient));
    EXPECT_FALSE((*transient)->memory_type() & hal::MemoryType::kHostVisible);
    Ref<hal::Buffer> readback = HostVisible(*device, kSize);
    ASSERT_TRUE(readback);
    ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1}, *transient, 0, kSize,
                                       0x5A5A5A5Au, 4)));
    ASSERT_TRUE(IsOk(device->QueueCopy(hal::kQueueAffinityAny, {&s2, 1}, {&s3, 1}, *transient, 0, readback, 0,
                                       kSize)));
    ASSERT_TRUE(IsOk(device->QueueDealloca(hal::kQueueAffinityAny, {&s3, 1}, {&s4, 1}, *transient, 0)));
    ASSERT_TRUE(IsOk(timeline.Wait(4, kTimeoutNs)));
    std::vector<uint8_t> bytes(kSize);
    ASSERT_TRUE(IsOk(readback->Read(0, bytes.data(), kSize)));
    EXPECT_EQ(bytes, std::vector<uint8_t>(kSize, 0x5A));
    readback = nullptr;
    EXPECT_EQ(device->allocator().statistics().bytes_allocated, before);
  }
}

TEST_F(CudaDriverTest, ImportDevicePointer) {
  Ref<hal::Device> device = CreateOrFail("cuda");
  ASSERT_TRUE(device);
  hal::BufferParams params;
  params.type = hal::MemoryType::kDeviceLocal;
  StatusOr<Ref<hal::Buffer>> owner = device->allocator().AllocateBuffer(params, 256);
  ASSERT_TRUE(IsOk(owner));
  StatusOr<CUdeviceptr> address = Buffer::ResolveDevicePointer(owner->get(), 0);
  ASSERT_TRUE(IsOk(address));
  std::atomic<int> released{0};
  auto& allocator = static_cast<Allocator&>(device->allocator());
  StatusOr<Ref<hal::Buffer>> imported =
      allocator.ImportDevicePointer(params, *address + 128, 128, [&released] { released.fetch_add(1); });
  ASSERT_TRUE(IsOk(imported));
  StatusOr<Ref<hal::Semaphore>> semaphore = device->CreateSemaphore(0);
  ASSERT_TRUE(IsOk(semaphore));
  Ref<hal::Buffer> readback = HostVisible(*device, 256);
  ASSERT_TRUE(readback);
  hal::SemaphorePoint s1{semaphore->get(), 1}, s2{semaphore->get(), 2};
  ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {}, {&s1, 1}, *imported, 0, 128, 0x77, 1)));
  ASSERT_TRUE(IsOk(device->QueueCopy(hal::kQueueAffinityAny, {&s1, 1}, {&s2, 1}, *owner, 0, readback, 0, 256)));
  ASSERT_TRUE(IsOk((*semaphore)->Wait(2, kTimeoutNs)));
  std::vector<uint8_t> expected(256, 0);
  std::fill(expected.begin() + 128, expected.end(), 0x77);
  std::vector<uint8_t> bytes(256);
  ASSERT_TRUE(IsOk(readback->Read(0, bytes.data(), 256)));
  EXPECT_EQ(bytes, expected);
  EXPECT_EQ(released.load(), 0);
  *imported = nullptr;
  EXPECT_EQ(released.load(), 1);
}

// A long chain on one timeline, submitted before any of it runs: each link waits for the
// previous value, which is covered by the previous link's device timepoint once issued.
TEST_F(CudaDriverTest, LongChainThroughDeviceTimepoints) {
  for (const char* uri : {"cuda://0?command_buffer_mode=stream", "cuda://0?command_buffer_mode=graph"}) {
    SCOPED_TRACE(uri);
    Ref<hal::Device> device = CreateOrFail(uri);
    ASSERT_TRUE(device);
    StatusOr<Ref<hal::Semaphore>> gate = device->CreateSemaphore(0);
    StatusOr<Ref<hal::Semaphore>> chain = device->CreateSemaphore(0);
    ASSERT_TRUE(IsOk(gate) && IsOk(chain));
    Ref<hal::Buffer> buffer = HostVisible(*device, 4);
    ASSERT_TRUE(buffer);
    constexpr int kLinks = 2000;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kLinks; ++i) {
      hal::SemaphorePoint wait = i == 0 ? hal::SemaphorePoint{gate->get(), 1} : hal::SemaphorePoint{chain->get(), uint64_t(i)};
      hal::SemaphorePoint signal{chain->get(), uint64_t(i + 1)};
      ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, buffer, 0, 4,
                                         static_cast<uint32_t>(i + 1), 4)));
    }
    ASSERT_TRUE(IsOk((*gate)->Signal(1)));
    ASSERT_TRUE(IsOk((*chain)->Wait(kLinks, kTimeoutNs)));
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    std::printf("[ INFO     ] %s: %d chained fills, %.2f us per link (submit to last signal)\n", uri, kLinks,
                us / kLinks);
    uint32_t value = 0;
    ASSERT_TRUE(IsOk(buffer->Read(0, &value, 4)));
    EXPECT_EQ(value, uint32_t(kLinks));
  }
}

// The synchronous-call pattern of compiled programs: alloca, work waiting on it, dealloca, and a
// host wait without a deadline. Every operation is ready (on the host or through a timepoint of
// the same stream) when submitted, so it is issued on the submitting thread, and the wait ends by
// synchronising on the last event: no issue-thread hop and no host callback.
TEST_F(CudaDriverTest, SyncCallPatternIssuesInlineAndWaitsOnEvents) {
  for (const char* uri : {"cuda://0?async_allocations=true", "cuda://0?async_allocations=false"}) {
    SCOPED_TRACE(uri);
    Ref<hal::Device> device = CreateOrFail(uri);
    ASSERT_TRUE(device);
    Ref<hal::Buffer> readback = HostVisible(*device, 64);
    ASSERT_TRUE(readback);
    hal::BufferParams params;
    params.type = hal::MemoryType::kDeviceLocal;
    constexpr int kCalls = 500;
    const auto start = std::chrono::steady_clock::now();
    for (int call = 0; call < kCalls; ++call) {
      StatusOr<Ref<hal::Semaphore>> f0 = device->CreateSemaphore(0), f1 = device->CreateSemaphore(0),
                                    f2 = device->CreateSemaphore(0), f3 = device->CreateSemaphore(0);
      ASSERT_TRUE(IsOk(f0) && IsOk(f1) && IsOk(f2) && IsOk(f3));
      hal::SemaphorePoint p0{f0->get(), 1}, p1{f1->get(), 1}, p2{f2->get(), 1}, p3{f3->get(), 1};
      StatusOr<Ref<hal::Buffer>> t = device->QueueAlloca(hal::kQueueAffinityAny, {}, {&p0, 1}, params, 64, 0);
      ASSERT_TRUE(IsOk(t));
      ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {&p0, 1}, {&p1, 1}, *t, 0, 64,
                                         static_cast<uint32_t>(call), 4)));
      ASSERT_TRUE(IsOk(device->QueueCopy(hal::kQueueAffinityAny, {&p1, 1}, {&p2, 1}, *t, 0, readback, 0, 64)));
      ASSERT_TRUE(IsOk(device->QueueDealloca(hal::kQueueAffinityAny, {&p2, 1}, {&p3, 1}, *t, 0)));
      ASSERT_TRUE(IsOk((*f2)->Wait(1, hal::kInfiniteTimeout)));
      uint32_t word = 0;
      ASSERT_TRUE(IsOk(readback->Read(60, &word, 4)));
      ASSERT_EQ(word, uint32_t(call));
      // The wait retired everything before it; the dealloca completes on its own.
      StatusOr<uint64_t> v1 = (*f1)->Query();
      ASSERT_TRUE(IsOk(v1));
      EXPECT_EQ(*v1, 1u);
      ASSERT_TRUE(IsOk((*f3)->Wait(1, kTimeoutNs)));
    }
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    std::printf("[ INFO     ] %s: %.2f us per alloca/fill/copy/dealloca call\n", uri, us / kCalls);
  }
}

// A timeline nobody waits on still advances: Query alone sees it reach its value (the completion
// thread retires work whose signals no host wait asked for).
TEST_F(CudaDriverTest, QueryAdvancesWithoutWaiters) {
  Ref<hal::Device> device = CreateOrFail("cuda");
  ASSERT_TRUE(device);
  StatusOr<Ref<hal::Semaphore>> semaphore = device->CreateSemaphore(0);
  ASSERT_TRUE(IsOk(semaphore));
  Ref<hal::Buffer> buffer = HostVisible(*device, 4);
  ASSERT_TRUE(buffer);
  hal::SemaphorePoint s1{semaphore->get(), 1};
  ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {}, {&s1, 1}, buffer, 0, 4, 7, 4)));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  uint64_t value = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    StatusOr<uint64_t> current = (*semaphore)->Query();
    ASSERT_TRUE(IsOk(current));
    value = *current;
    if (value == 1) break;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  EXPECT_EQ(value, 1u);
}

// Work that fails to enqueue (here: a queue-allocated buffer used after its dealloca) fails its
// signals, and the failure reaches an operation parked on them and a host wait without deadline.
TEST_F(CudaDriverTest, EnqueueFailureReachesDependentsAndWaiters) {
  for (const char* uri : {"cuda://0?command_buffer_mode=stream", "cuda://0?command_buffer_mode=graph"}) {
    SCOPED_TRACE(uri);
    Ref<hal::Device> device = CreateOrFail(uri);
    ASSERT_TRUE(device);
    StatusOr<Ref<hal::Semaphore>> life = device->CreateSemaphore(0), a = device->CreateSemaphore(0),
                                  b = device->CreateSemaphore(0);
    ASSERT_TRUE(IsOk(life) && IsOk(a) && IsOk(b));
    hal::BufferParams params;
    params.type = hal::MemoryType::kDeviceLocal;
    hal::SemaphorePoint l1{life->get(), 1}, l2{life->get(), 2}, a1{a->get(), 1}, b1{b->get(), 1};
    StatusOr<Ref<hal::Buffer>> t = device->QueueAlloca(hal::kQueueAffinityAny, {}, {&l1, 1}, params, 64, 0);
    ASSERT_TRUE(IsOk(t));
    ASSERT_TRUE(IsOk(device->QueueDealloca(hal::kQueueAffinityAny, {&l1, 1}, {&l2, 1}, *t, 0)));
    ASSERT_TRUE(IsOk((*life)->Wait(2, hal::kInfiniteTimeout)));
    ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {}, {&a1, 1}, *t, 0, 64, 1, 4)));
    Ref<hal::Buffer> other = HostVisible(*device, 64);
    ASSERT_TRUE(other);
    ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {&a1, 1}, {&b1, 1}, other, 0, 64, 2, 4)));
    EXPECT_TRUE(IsError((*b)->Wait(1, hal::kInfiniteTimeout), StatusCode::kFailedPrecondition));
    EXPECT_TRUE(IsError((*a)->Wait(1, hal::kInfiniteTimeout), StatusCode::kFailedPrecondition));
  }
}

// A wait honoured on the device (same stream: by stream order) does not see its timeline fail;
// the dependent must still fail when it completes. The stream is kept busy with large fills so
// the host failure lands while both operations are in flight.
TEST_F(CudaDriverTest, HostFailureReachesDeviceWaitDependents) {
  Ref<hal::Device> device = CreateOrFail("cuda");
  ASSERT_TRUE(device);
  hal::BufferParams params;
  params.type = hal::MemoryType::kDeviceLocal;
  constexpr uint64_t kBig = 256ull << 20;
  StatusOr<Ref<hal::Buffer>> big = device->allocator().AllocateBuffer(params, kBig);
  ASSERT_TRUE(IsOk(big));
  StatusOr<Ref<hal::Semaphore>> busy = device->CreateSemaphore(0), s = device->CreateSemaphore(0),
                                t = device->CreateSemaphore(0);
  ASSERT_TRUE(IsOk(busy) && IsOk(s) && IsOk(t));
  constexpr int kFills = 16;
  for (int i = 0; i < kFills; ++i) {
    hal::SemaphorePoint signal{busy->get(), uint64_t(i + 1)};
    ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {}, {&signal, 1}, *big, 0, kBig, uint32_t(i), 4)));
  }
  Ref<hal::Buffer> small = HostVisible(*device, 4);
  ASSERT_TRUE(small);
  hal::SemaphorePoint s1{s->get(), 1}, t1{t->get(), 1};
  ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {}, {&s1, 1}, small, 0, 4, 1, 4)));
  ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {&s1, 1}, {&t1, 1}, small, 0, 4, 2, 4)));
  StatusOr<uint64_t> busy_now = (*busy)->Query();
  ASSERT_TRUE(IsOk(busy_now));
  if (*busy_now == uint64_t(kFills)) GTEST_SKIP() << "the GPU finished the fills before the host failure";
  (*s)->Fail(Status(StatusCode::kAborted, "failed while in flight"));
  EXPECT_TRUE(IsError((*t)->Wait(1, hal::kInfiniteTimeout), StatusCode::kAborted));
  EXPECT_TRUE(IsOk((*busy)->Wait(kFills, hal::kInfiniteTimeout)));
}

// A wait on another device's timeline becomes a stream wait on its event (cuStreamWaitEvent):
// the copy on the second device must see the first device's fill.
TEST_F(CudaDriverTest, CrossDeviceDeviceWait) {
  Ref<hal::Device> producer = CreateOrFail("cuda");
  Ref<hal::Device> consumer = CreateOrFail("cuda");
  ASSERT_TRUE(producer && consumer);
  constexpr uint64_t kSize = 64ull << 20;
  hal::BufferParams params;
  params.type = hal::MemoryType::kDeviceLocal;
  StatusOr<Ref<hal::Buffer>> source = producer->allocator().AllocateBuffer(params, kSize);
  ASSERT_TRUE(IsOk(source));
  Ref<hal::Buffer> readback = HostVisible(*consumer, 4);
  ASSERT_TRUE(readback);
  StatusOr<Ref<hal::Semaphore>> filled = producer->CreateSemaphore(0), copied = consumer->CreateSemaphore(0);
  ASSERT_TRUE(IsOk(filled) && IsOk(copied));
  for (uint32_t round = 1; round <= 20; ++round) {
    hal::SemaphorePoint f{filled->get(), round}, c{copied->get(), round};
    ASSERT_TRUE(IsOk(producer->QueueFill(hal::kQueueAffinityAny, {}, {&f, 1}, *source, 0, kSize, round, 4)));
    ASSERT_TRUE(IsOk(consumer->QueueCopy(hal::kQueueAffinityAny, {&f, 1}, {&c, 1}, *source, kSize - 4, readback,
                                         0, 4)));
    ASSERT_TRUE(IsOk((*copied)->Wait(round, hal::kInfiniteTimeout)));
    uint32_t word = 0;
    ASSERT_TRUE(IsOk(readback->Read(0, &word, 4)));
    ASSERT_EQ(word, round);
  }
}

// Two GPUs: device 1's queue copies out of a queue alloca of device 0 (pool memory), as programs
// compiled for two devices do for flow.tensor.transfer. Pool memory is reachable from another
// GPU only once the pool grants it access: without that the copy fails with INVALID_VALUE.
TEST_F(CudaDriverTest, PeerCopyFromAnotherGpusPool) {
  Ref<hal::Device> first = CreateOrFail("cuda://0");
  ASSERT_TRUE(first);
  StatusOr<Ref<hal::Device>> second = Create("cuda://1");
  if (second.status().code() == StatusCode::kNotFound) GTEST_SKIP() << "one GPU: " << second.status().ToString();
  ASSERT_TRUE(IsOk(second));
  constexpr uint64_t kSize = 1 << 20;
  hal::BufferParams params;
  params.type = hal::MemoryType::kDeviceLocal;
  StatusOr<Ref<hal::Semaphore>> on_first = first->CreateSemaphore(0), on_second = (*second)->CreateSemaphore(0);
  ASSERT_TRUE(IsOk(on_first) && IsOk(on_second));
  hal::SemaphorePoint allocated{on_first->get(), 1}, filled{on_first->get(), 2}, copied{on_second->get(), 1};
  StatusOr<Ref<hal::Buffer>> source =
      first->QueueAlloca(hal::kQueueAffinityAny, {}, {&allocated, 1}, params, kSize, 0);
  ASSERT_TRUE(IsOk(source));
  ASSERT_TRUE(IsOk(first->QueueFill(hal::kQueueAffinityAny, {&allocated, 1}, {&filled, 1}, *source, 0, kSize,
                                    0xC0FFEE11u, 4)));
  Ref<hal::Buffer> readback = HostVisible(**second, kSize);
  ASSERT_TRUE(readback);
  ASSERT_TRUE(IsOk((*second)->QueueCopy(hal::kQueueAffinityAny, {&filled, 1}, {&copied, 1}, *source, 0, readback, 0,
                                        kSize)));
  ASSERT_TRUE(IsOk((*on_second)->Wait(1, kTimeoutNs)));
  std::vector<uint32_t> words(kSize / 4);
  ASSERT_TRUE(IsOk(readback->Read(0, words.data(), kSize)));
  EXPECT_EQ(words, std::vector<uint32_t>(kSize / 4, 0xC0FFEE11u));
}

// Several threads submit chains that also wait on a shared timeline advanced by the host; one
// timeline is failed midway and the failure must reach exactly its dependents.
TEST_F(CudaDriverTest, SemaphoreStress) {
  Ref<hal::Device> device = CreateOrFail("cuda");
  ASSERT_TRUE(device);
  StatusOr<Ref<hal::Semaphore>> shared = device->CreateSemaphore(0);
  ASSERT_TRUE(IsOk(shared));
  constexpr int kThreads = 8;
  constexpr int kSteps = 300;
  std::vector<Ref<hal::Semaphore>> timelines;
  std::vector<Ref<hal::Buffer>> buffers;
  for (int t = 0; t < kThreads; ++t) {
    StatusOr<Ref<hal::Semaphore>> timeline = device->CreateSemaphore(0);
    ASSERT_TRUE(IsOk(timeline));
    timelines.push_back(*timeline);
    buffers.push_back(HostVisible(*device, 64));
    ASSERT_TRUE(buffers.back());
  }
  std::atomic<int> submit_errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int step = 0; step < kSteps; ++step) {
        hal::SemaphorePoint waits[2] = {{timelines[t].get(), uint64_t(step)}, {shared->get(), uint64_t(step / 10)}};
        hal::SemaphorePoint signal{timelines[t].get(), uint64_t(step + 1)};
        Status status = device->QueueFill(hal::kQueueAffinityAny, waits, {&signal, 1}, buffers[t], (step % 16) * 4,
                                          4, static_cast<uint32_t>(step), 4);
        if (!status.ok()) submit_errors.fetch_add(1);
      }
    });
  }
  std::thread host_signaler([&] {
    for (uint64_t v = 1; v <= kSteps / 10; ++v) {
      (*shared)->Signal(v).IgnoreError();
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  for (std::thread& thread : threads) thread.join();
  host_signaler.join();
  EXPECT_EQ(submit_errors.load(), 0);
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(IsOk(timelines[t]->Wait(kSteps, kTimeoutNs))) << "thread " << t;
    std::vector<uint32_t> words(16);
    ASSERT_TRUE(IsOk(buffers[t]->Read(0, words.data(), 64)));
    for (int slot = 0; slot < 16; ++slot) {
      // The last step that wrote slot |slot|.
      int last = kSteps - 1 - ((kSteps - 1 - slot) % 16);
      EXPECT_EQ(words[slot], uint32_t(last)) << "thread " << t << " slot " << slot;
    }
  }
  // Failure: a chain gated on a timeline that fails never runs and reports the failure.
  StatusOr<Ref<hal::Semaphore>> gate = device->CreateSemaphore(0);
  StatusOr<Ref<hal::Semaphore>> out = device->CreateSemaphore(0);
  ASSERT_TRUE(IsOk(gate) && IsOk(out));
  for (int i = 0; i < 50; ++i) {
    hal::SemaphorePoint wait = i == 0 ? hal::SemaphorePoint{gate->get(), 1} : hal::SemaphorePoint{out->get(), uint64_t(i)};
    hal::SemaphorePoint signal{out->get(), uint64_t(i + 1)};
    ASSERT_TRUE(IsOk(device->QueueFill(hal::kQueueAffinityAny, {&wait, 1}, {&signal, 1}, buffers[0], 0, 4, 1, 4)));
  }
  (*gate)->Fail(Status(StatusCode::kAborted, "stress gate failed"));
  EXPECT_TRUE(IsError((*out)->Wait(50, kTimeoutNs), StatusCode::kAborted));
}

}  // namespace
}  // namespace iree_rt::drivers::cuda
