// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/context.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <set>

#include "drivers/cuda/status_util.h"

namespace iree_rt::drivers::cuda {

namespace {
// Bumped whenever a context is released: invalidates every thread's cached binding.
std::atomic<uint64_t> activation_generation{1};

// Holds one extra reference on each primary context used by this process, so destroying the
// last device does not tear the context down (re-creating it costs ~100 ms per device).
base::Status PinPrimaryContext(const DynamicSymbols& syms, CUdevice device) {
  static std::mutex mutex;
  static std::set<CUdevice> pinned;
  std::lock_guard<std::mutex> lock(mutex);
  if (pinned.count(device)) return base::Status::Ok();
  CUcontext context = nullptr;
  RT_CUDA_RETURN_IF_ERROR(syms, cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  pinned.insert(device);
  return base::Status::Ok();
}

// Every live context, for peer access between the GPUs a process uses.
std::mutex live_mutex;
std::set<Context*>& LiveContexts() {
  static auto* live = new std::set<Context*>();
  return *live;
}

// Lets |from|'s kernels and pool allocations reach |to|'s memory (and |to|'s pool be read from
// |from|) when the GPUs can, e.g. over NVLink. Programs compiled for several devices rely on it:
// a transfer between devices may leave a buffer that a kernel on the other device reads in place.
// Leaves |from|'s context current.
void ConnectPeer(const DynamicSymbols& syms, CUcontext from, CUdevice from_device, CUmemoryPool from_pool,
                 CUcontext to, CUdevice to_device) {
  int can = 0;
  if (syms.cuDeviceCanAccessPeer(&can, from_device, to_device) != CUDA_SUCCESS || !can) return;
  syms.cuCtxSetCurrent(from);
  syms.cuCtxEnablePeerAccess(to, 0);  // CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED is fine
  (void)to;
  if (from_pool) {
    // The pool of |from| readable and writable by |to|'s kernels and copies.
    CUmemAccessDesc access = {};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = to_device;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    syms.cuMemPoolSetAccess(from_pool, &access, 1);
  }
}

}  // namespace

void Context::ConnectPeers() {
  std::lock_guard<std::mutex> lock(live_mutex);
  for (Context* other : LiveContexts()) {
    if (other->device_ == device_) continue;
    ConnectPeer(syms_, context_, device_, memory_pool_, other->context_, other->device_);
    ConnectPeer(syms_, other->context_, other->device_, other->memory_pool_, context_, device_);
  }
  LiveContexts().insert(this);
  // Activate's per-thread record may now name the wrong context: bind ours explicitly.
  syms_.cuCtxSetCurrent(context_);
  activation_generation.fetch_add(1, std::memory_order_relaxed);
}

base::StatusOr<base::Ref<Context>> Context::Create(const DynamicSymbols& syms, CUdevice device,
                                                   const ContextOptions& options) {
  RT_RETURN_IF_ERROR(PinPrimaryContext(syms, device));
  base::Ref<Context> context = base::MakeRef<Context>(syms, device);
  context->trace_timer_ = std::make_unique<TraceTimer>(*context);
  RT_CUDA_RETURN_IF_ERROR(syms, cuDevicePrimaryCtxRetain(&context->context_, device),
                          "cuDevicePrimaryCtxRetain");
  RT_RETURN_IF_ERROR(context->Activate());
  // Nsight tools inject themselves through CUDA_INJECTION64_PATH; compute-sanitizer (CUDA 13)
  // sets NV_SANITIZER_INJECTION_PORT_BASE for the processes it launches.
  context->tool_injected_ = std::getenv("CUDA_INJECTION64_PATH") != nullptr ||
                            std::getenv("NV_SANITIZER_INJECTION_PORT_BASE") != nullptr;
  RT_CUDA_RETURN_IF_ERROR(syms, cuStreamCreate(&context->dispatch_stream_, CU_STREAM_NON_BLOCKING),
                          "cuStreamCreate (dispatch)");
  int concurrent_managed = 0;
  RT_CUDA_RETURN_IF_ERROR(
      syms, cuDeviceGetAttribute(&concurrent_managed, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, device),
      "cuDeviceGetAttribute(CONCURRENT_MANAGED_ACCESS)");
  context->concurrent_managed_access_ = concurrent_managed != 0;
  int pools_supported = 0;
  RT_CUDA_RETURN_IF_ERROR(
      syms, cuDeviceGetAttribute(&pools_supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, device),
      "cuDeviceGetAttribute(MEMORY_POOLS_SUPPORTED)");
  if (options.async_allocations && pools_supported) {
    CUmemPoolProps props = {};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = device;
    RT_CUDA_RETURN_IF_ERROR(syms, cuMemPoolCreate(&context->memory_pool_, &props), "cuMemPoolCreate");
    // Keep freed blocks cached: steady-state allocas then cost no driver allocation.
    cuuint64_t threshold = UINT64_MAX;
    RT_CUDA_RETURN_IF_ERROR(
        syms, cuMemPoolSetAttribute(context->memory_pool_, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold),
        "cuMemPoolSetAttribute(RELEASE_THRESHOLD)");
  }
  context->ConnectPeers();
  return context;
}

Context::~Context() {
  {
    std::lock_guard<std::mutex> lock(live_mutex);
    LiveContexts().erase(this);
  }
  if (!context_) return;
  // Every owner of device work has released us, but frees may still be queued.
  syms_.cuCtxSetCurrent(context_);
  trace_timer_.reset();
  // The primary context may go away with us: no thread may skip binding it again.
  activation_generation.fetch_add(1, std::memory_order_relaxed);
  if (dispatch_stream_) syms_.cuStreamSynchronize(dispatch_stream_);
  if (memory_pool_) syms_.cuMemPoolDestroy(memory_pool_);
  if (dispatch_stream_) syms_.cuStreamDestroy(dispatch_stream_);
  syms_.cuDevicePrimaryCtxRelease(device_);
}

void Context::BeforeManagedHostAccess() const {
  if (concurrent_managed_access_) return;
  Activate().IgnoreError();
  syms_.cuCtxSynchronize();
}

base::Status Context::Activate() const {
  // cuCtxSetCurrent costs a driver call on every queue operation; each thread remembers what it
  // bound last (only Activate binds contexts here), until any Context is destroyed.
  thread_local CUcontext bound = nullptr;
  thread_local uint64_t bound_generation = 0;
  const uint64_t generation = activation_generation.load(std::memory_order_relaxed);
  if (bound == context_ && bound_generation == generation && !tool_injected_) return base::Status::Ok();
  CUresult result = syms_.cuCtxSetCurrent(context_);
  if (result != CUDA_SUCCESS) {
    bound = nullptr;
    return ToStatus(syms_, result, "cuCtxSetCurrent");
  }
  bound = context_;
  bound_generation = generation;
  return base::Status::Ok();
}

}  // namespace iree_rt::drivers::cuda
