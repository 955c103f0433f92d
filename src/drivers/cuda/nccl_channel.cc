// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cuda/nccl_channel.h"

#include <nccl.h>

#include <cstring>
#include <atomic>
#include <condition_variable>
#include <thread>
#include <vector>

#include "drivers/cuda/buffer.h"
#include "drivers/cuda/nccl_symbols.h"
#include "drivers/cuda/status_util.h"
#include "hal/utils/collective_compute.h"
#include "hal/utils/rendezvous.h"

namespace iree_rt::drivers::cuda {

using base::Status;
using hal::CollectiveElementType;
using hal::CollectiveKind;
using hal::CollectiveReduction;

struct NcclChannel::State {
  base::Ref<Context> context;
  const NcclSymbols* nccl = nullptr;
  std::mutex mutex;  // serializes calls on |comm|
  ncclComm_t comm = nullptr;
  std::chrono::milliseconds timeout{0};
  base::Status broken;  // set once: the communicator was aborted (guarded by |mutex|)
  std::atomic<bool> failed{false};  // broken is set: health() reads it without the lock
  int32_t rank = 0, count = 0;

  // The watchdog: one event, re-recorded after every launch of collectives on this channel, and
  // the deadline by which the latest launch must have finished.
  std::mutex watch_mutex;
  std::condition_variable watch_cv;
  CUevent watch_event = nullptr;
  std::chrono::steady_clock::time_point deadline;
  bool watching = false;
  bool stopping = false;
  std::thread watchdog;

  ~State();
  void WatchdogLoop();
  // Aborts the communicator with |status| (holding |mutex|).
  void AbortLocked(Status status);

  // Polls until the communicator is idle; on failure or timeout aborts it. Holds mutex.
  Status WaitIdle(const char* what, int32_t rank, int32_t count);
  Status EnqueueOne(const hal::CollectiveOp& op, uint32_t param, CUdeviceptr send, CUdeviceptr recv,
                    uint64_t element_count, int32_t count, CUstream stream);
};

namespace {

base::StatusOr<ncclDataType_t> DataType(CollectiveElementType type) {
  switch (type) {
    case CollectiveElementType::kSint8: return ncclInt8;
    case CollectiveElementType::kUint8: return ncclUint8;
    case CollectiveElementType::kSint32: return ncclInt32;
    case CollectiveElementType::kUint32: return ncclUint32;
    case CollectiveElementType::kSint64: return ncclInt64;
    case CollectiveElementType::kUint64: return ncclUint64;
    case CollectiveElementType::kFloat16: return ncclFloat16;
    case CollectiveElementType::kFloat32: return ncclFloat32;
    case CollectiveElementType::kFloat64: return ncclFloat64;
    case CollectiveElementType::kBFloat16: return ncclBfloat16;
    default: return base::UnimplementedError("NCCL has no 16-bit integer type");
  }
}

ncclRedOp_t Reduction(CollectiveReduction reduction) {
  switch (reduction) {
    case CollectiveReduction::kProduct: return ncclProd;
    case CollectiveReduction::kMinimum: return ncclMin;
    case CollectiveReduction::kMaximum: return ncclMax;
    case CollectiveReduction::kAverage: return ncclAvg;
    default: return ncclSum;
  }
}

ncclConfig_t NonBlockingConfig() {
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  return config;
}

}  // namespace

namespace {

// Polls |comm| until NCCL has finished what it was asked (non-blocking communicators) or the
// timeout passes; on failure or timeout the communicator is aborted and *comm cleared.
Status PollIdle(const NcclSymbols& nccl, ncclComm_t* comm, std::chrono::milliseconds timeout, const char* what,
                int32_t rank, int32_t count) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    ncclResult_t state = ncclSuccess;
    ncclResult_t result = nccl.ncclCommGetAsyncError(*comm, &state);
    if (result != ncclSuccess) state = result;
    if (state == ncclSuccess) return Status::Ok();
    Status failure;
    if (state != ncclInProgress) {
      failure = NcclStatus(nccl, state, what);
    } else if (std::chrono::steady_clock::now() > deadline) {
      failure = base::DeadlineExceededError("NCCL ", what, " of rank ", rank, " of ", count, " did not finish in ",
                                            timeout.count(), " ms: a peer never joined or stopped responding");
    } else {
      std::this_thread::yield();
      continue;
    }
    nccl.ncclCommAbort(*comm);
    *comm = nullptr;
    return failure;
  }
}

}  // namespace

Status NcclChannel::State::WaitIdle(const char* what, int32_t rank, int32_t count) {
  if (!broken.ok()) return broken;
  Status status = PollIdle(*nccl, &comm, timeout, what, rank, count);
  if (!status.ok()) {
    broken = status;
    failed.store(true, std::memory_order_release);
  }
  return status;
}

void NcclChannel::State::AbortLocked(Status status) {
  if (!broken.ok()) return;
  broken = std::move(status);
  failed.store(true, std::memory_order_release);
  if (comm) {
    context->Activate().IgnoreError();
    nccl->ncclCommAbort(comm);  // NCCL's kernels see the abort flag and return
    comm = nullptr;
  }
}

NcclChannel::State::~State() {
  {
    std::lock_guard<std::mutex> lock(watch_mutex);
    stopping = true;
  }
  watch_cv.notify_all();
  if (watchdog.joinable()) watchdog.join();
}

void NcclChannel::State::WatchdogLoop() {
  context->Activate().IgnoreError();
  const DynamicSymbols& syms = context->syms();
  std::unique_lock<std::mutex> lock(watch_mutex);
  while (true) {
    watch_cv.wait_for(lock, std::chrono::milliseconds(20), [&] { return stopping || watching; });
    if (stopping) return;
    if (!watching) continue;
    // Finished: nothing to watch until the next launch. Past the deadline, or an error NCCL reports
    // while work is pending: abort the communicator (the kernels then return and the events fire).
    if (syms.cuEventQuery(watch_event) != CUDA_ERROR_NOT_READY) {
      watching = false;
      continue;
    }
    const bool late = std::chrono::steady_clock::now() > deadline;
    lock.unlock();
    {
      std::lock_guard<std::mutex> comm_lock(mutex);
      if (broken.ok() && comm) {
        ncclResult_t state = ncclSuccess;
        nccl->ncclCommGetAsyncError(comm, &state);
        if (state != ncclSuccess && state != ncclInProgress) {
          AbortLocked(NcclStatus(*nccl, state, "a collective in flight").Annotate(
              base::StrCat("rank ", rank, " of ", count, ": the communicator was aborted")));
        } else if (late) {
          AbortLocked(base::DeadlineExceededError(
              "NCCL collectives of rank ", rank, " of ", count, " did not finish within ", timeout.count(),
              " ms: a peer stopped, left, or runs another collective; the communicator was aborted"));
        }
      }
    }
    lock.lock();
  }
}

Status NcclChannel::CheckSupported(const hal::CollectiveOp& op) {
  base::StatusOr<ncclDataType_t> type = DataType(op.element_type);
  if (!type.ok()) return base::UnimplementedError(op.ToString(), ": ", type.status().message());
  return Status::Ok();
}

NcclChannel::NcclChannel(int32_t rank, int32_t count, std::unique_ptr<State> state)
    : hal::Channel(rank, count), state_(std::move(state)) {}

base::StatusOr<base::Ref<NcclChannel>> NcclChannel::Create(base::Ref<Context> context,
                                                           const hal::ResolvedChannel& channel) {
  RT_ASSIGN_OR_RETURN(const NcclSymbols* nccl, NcclSymbols::Get());
  std::vector<uint8_t> id = channel.id;
  if (id.empty()) {
    auto make = [&]() -> base::StatusOr<std::vector<uint8_t>> {
      ncclUniqueId unique;
      RT_NCCL_RETURN_IF_ERROR(*nccl, ncclGetUniqueId(&unique), "ncclGetUniqueId");
      return std::vector<uint8_t>(unique.internal, unique.internal + sizeof(unique.internal));
    };
    RT_ASSIGN_OR_RETURN(id, hal::utils::ShareFromRoot(channel.rendezvous, channel.rank, channel.count,
                                                      sizeof(ncclUniqueId), make, channel.timeout));
  }
  if (id.size() != sizeof(ncclUniqueId)) {
    return base::InvalidArgumentError("hal.channel.create: an NCCL channel id is ", sizeof(ncclUniqueId),
                                      " bytes, not ", id.size());
  }
  ncclUniqueId unique;
  std::memcpy(unique.internal, id.data(), sizeof(unique.internal));
  RT_RETURN_IF_ERROR(context->Activate());
  auto state = std::make_unique<State>();
  state->context = std::move(context);
  state->nccl = nccl;
  state->timeout = channel.timeout;
  state->rank = channel.rank;
  state->count = channel.count;
  ncclConfig_t config = NonBlockingConfig();
  ncclResult_t result = nccl->ncclCommInitRankConfig(&state->comm, channel.count, unique, channel.rank, &config);
  if (result != ncclSuccess && result != ncclInProgress) {
    return NcclStatus(*nccl, result, "ncclCommInitRankConfig");
  }
  // Initialization finishes in the background; the first use waits for it (with the timeout).
  return base::MakeRef<NcclChannel>(channel.rank, channel.count, std::move(state));
}

NcclChannel::~NcclChannel() {
  if (!state_) return;
  {
    std::lock_guard<std::mutex> lock(state_->watch_mutex);
    state_->stopping = true;
  }
  state_->watch_cv.notify_all();
  if (state_->watchdog.joinable()) state_->watchdog.join();
  if (state_->watch_event) state_->context->syms().cuEventDestroy(state_->watch_event);
  if (!state_->comm) return;
  state_->context->Activate().IgnoreError();
  // A communicator with peers gone cannot be destroyed cleanly: abort never waits.
  if (state_->broken.ok()) {
    state_->nccl->ncclCommDestroy(state_->comm);
  } else {
    state_->nccl->ncclCommAbort(state_->comm);
  }
}

Status NcclChannel::Enqueue(const hal::CollectiveOp& op, uint32_t param, CUdeviceptr send, CUdeviceptr recv,
                            uint64_t element_count, CUstream stream) {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mutex);
  RT_RETURN_IF_ERROR(s.WaitIdle("initialization", rank(), count()));
  RT_RETURN_IF_ERROR(s.context->Activate());
  RT_NCCL_RETURN_IF_ERROR(*s.nccl, ncclGroupStart(), "ncclGroupStart");
  Status status = s.EnqueueOne(op, param, send, recv, element_count, count(), stream);
  ncclResult_t end = s.nccl->ncclGroupEnd();
  if (status.ok() && end != ncclSuccess && end != ncclInProgress) status = NcclStatus(*s.nccl, end, "ncclGroupEnd");
  if (!status.ok()) return status.Annotate(op.ToString());
  const std::string what = op.ToString();
  return s.WaitIdle(what.c_str(), rank(), count());
}

Status NcclChannel::State::EnqueueOne(const hal::CollectiveOp& op, uint32_t param, CUdeviceptr send,
                                      CUdeviceptr recv, uint64_t element_count, int32_t count, CUstream stream) {
  RT_ASSIGN_OR_RETURN(ncclDataType_t type, DataType(op.element_type));
  const ncclRedOp_t reduction = Reduction(op.reduction);
  void* recv_ptr = reinterpret_cast<void*>(recv);
  const void* send_ptr = reinterpret_cast<const void*>(send);
  const uint64_t ranks = static_cast<uint64_t>(count);
  auto check = [&](ncclResult_t result, const char* what) { return NcclStatus(*nccl, result, what); };
  switch (op.kind) {
    case CollectiveKind::kAllReduce:
      return check(nccl->ncclAllReduce(send_ptr, recv_ptr, element_count, type, reduction, comm, stream),
                   "ncclAllReduce");
    case CollectiveKind::kAllGather:  // element_count: everything gathered
      return check(nccl->ncclAllGather(send_ptr, recv_ptr, element_count / ranks, type, comm, stream),
                   "ncclAllGather");
    case CollectiveKind::kReduceScatter:  // element_count: what each rank receives
      return check(nccl->ncclReduceScatter(send_ptr, recv_ptr, element_count, type, reduction, comm, stream),
                   "ncclReduceScatter");
    case CollectiveKind::kReduce:
      return check(nccl->ncclReduce(send_ptr, recv_ptr, element_count, type, reduction, static_cast<int>(param),
                                    comm, stream),
                   "ncclReduce");
    case CollectiveKind::kBroadcast:
      return check(nccl->ncclBroadcast(send_ptr, recv_ptr, element_count, type, static_cast<int>(param), comm,
                                       stream),
                   "ncclBroadcast");
    case CollectiveKind::kAllToAll: {
      const uint64_t part = element_count / ranks;
      const uint64_t part_bytes = part * op.element_size();
      for (uint64_t peer = 0; peer < ranks; ++peer) {
        RT_RETURN_IF_ERROR(check(nccl->ncclSend(reinterpret_cast<const void*>(send + peer * part_bytes), part, type,
                                                static_cast<int>(peer), comm, stream),
                                 "ncclSend"));
        RT_RETURN_IF_ERROR(check(nccl->ncclRecv(reinterpret_cast<void*>(recv + peer * part_bytes), part, type,
                                                static_cast<int>(peer), comm, stream),
                                 "ncclRecv"));
      }
      return Status::Ok();
    }
    case CollectiveKind::kSend:
      return check(nccl->ncclSend(send_ptr, element_count, type, static_cast<int>(param), comm, stream), "ncclSend");
    case CollectiveKind::kRecv:
      return check(nccl->ncclRecv(recv_ptr, element_count, type, static_cast<int>(param), comm, stream), "ncclRecv");
    case CollectiveKind::kSendRecv: {
      const auto [to, from] = hal::utils::DecodeSendRecvPeers(param);
      if (to >= 0) {
        RT_RETURN_IF_ERROR(
            check(nccl->ncclSend(send_ptr, element_count, type, static_cast<int>(to), comm, stream), "ncclSend"));
      }
      if (from >= 0) {
        return check(nccl->ncclRecv(recv_ptr, element_count, type, static_cast<int>(from), comm, stream),
                     "ncclRecv");
      }
      // A rank nobody sends to receives zeros.
      const DynamicSymbols& syms = context->syms();
      return ToStatus(syms, syms.cuMemsetD8Async(recv, 0, element_count * op.element_size(), stream),
                      "cuMemsetD8Async (send_recv without a source)");
    }
  }
  return base::InvalidArgumentError("unknown collective ", op.ToString());
}

base::StatusOr<base::Ref<hal::Channel>> NcclChannel::SplitImpl(int32_t color, int32_t key, uint64_t flags) {
  if (flags != 0) return base::InvalidArgumentError("hal.channel.split: unknown flags 0x", std::hex, flags);
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mutex);
  RT_RETURN_IF_ERROR(s.WaitIdle("initialization", rank(), count()));
  RT_RETURN_IF_ERROR(s.context->Activate());
  ncclConfig_t config = NonBlockingConfig();
  auto split = std::make_unique<State>();
  split->context = s.context;
  split->nccl = s.nccl;
  split->timeout = s.timeout;
  ncclResult_t result =
      s.nccl->ncclCommSplit(s.comm, color < 0 ? NCCL_SPLIT_NOCOLOR : color, key, &split->comm, &config);
  if (result != ncclSuccess && result != ncclInProgress) return NcclStatus(*s.nccl, result, "ncclCommSplit");
  RT_RETURN_IF_ERROR(s.WaitIdle("ncclCommSplit", rank(), count()));
  if (color < 0 || !split->comm) return base::Ref<hal::Channel>();
  RT_RETURN_IF_ERROR(split->WaitIdle("ncclCommSplit (new communicator)", rank(), count()));
  int split_rank = 0, split_count = 0;
  Status status = NcclStatus(*s.nccl, s.nccl->ncclCommUserRank(split->comm, &split_rank), "ncclCommUserRank");
  if (status.ok()) status = NcclStatus(*s.nccl, s.nccl->ncclCommCount(split->comm, &split_count), "ncclCommCount");
  if (!status.ok()) {
    s.nccl->ncclCommAbort(split->comm);
    return status;
  }
  split->rank = split_rank;
  split->count = split_count;
  return base::Ref<hal::Channel>(base::MakeRef<NcclChannel>(split_rank, split_count, std::move(split)));
}

Status NcclChannel::Watch(CUstream stream) {
  State& s = *state_;
  const DynamicSymbols& syms = s.context->syms();
  std::lock_guard<std::mutex> lock(s.watch_mutex);
  if (!s.watch_event) {
    RT_CUDA_RETURN_IF_ERROR(syms, cuEventCreate(&s.watch_event, CU_EVENT_DISABLE_TIMING), "cuEventCreate (watchdog)");
  }
  // Re-recording moves the event to this launch: the latest launch is the one that must finish.
  RT_CUDA_RETURN_IF_ERROR(syms, cuEventRecord(s.watch_event, stream), "cuEventRecord (watchdog)");
  s.deadline = std::chrono::steady_clock::now() + s.timeout;
  s.watching = true;
  if (!s.watchdog.joinable()) s.watchdog = std::thread([&s] { s.WatchdogLoop(); });
  s.watch_cv.notify_all();
  return Status::Ok();
}

Status NcclChannel::health() const {
  if (!state_->failed.load(std::memory_order_acquire)) return Status::Ok();
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->broken;
}

Status EnqueueCollective(hal::Channel& channel, const hal::CollectiveOp& op, uint32_t param,
                         const hal::utils::ResolvedRef* send, const hal::utils::ResolvedRef* recv,
                         uint64_t element_count, CUstream stream) {
  NcclChannel* nccl = NcclChannel::Cast(&channel);
  if (!nccl) return base::InvalidArgumentError(op.ToString(), ": the channel was not created by a CUDA device");
  CUdeviceptr send_ptr = 0, recv_ptr = 0;
  if (send) {
    RT_ASSIGN_OR_RETURN(send_ptr, Buffer::ResolveDevicePointer(send->buffer, send->offset));
  }
  if (recv) {
    RT_ASSIGN_OR_RETURN(recv_ptr, Buffer::ResolveDevicePointer(recv->buffer, recv->offset));
  }
  return nccl->Enqueue(op, param, send_ptr, recv_ptr, element_count, stream);
}

}  // namespace iree_rt::drivers::cuda
