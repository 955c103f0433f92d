// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// NcclChannel where the build found no nccl.h: every channel is UNAVAILABLE, saying why.
#include "drivers/cuda/nccl_channel.h"

namespace iree_rt::drivers::cuda {

struct NcclChannel::State {};

namespace {

base::Status Unavailable() {
  return base::UnavailableError("collectives on CUDA need NCCL, and this build found no nccl.h");
}

}  // namespace

NcclChannel::NcclChannel(int32_t rank, int32_t count, std::unique_ptr<State> state)
    : hal::Channel(rank, count), state_(std::move(state)) {}
NcclChannel::~NcclChannel() = default;

base::StatusOr<base::Ref<NcclChannel>> NcclChannel::Create(base::Ref<Context>, const hal::ResolvedChannel&) {
  return Unavailable();
}
base::Status NcclChannel::CheckSupported(const hal::CollectiveOp&) { return Unavailable(); }
base::Status NcclChannel::Enqueue(const hal::CollectiveOp&, uint32_t, CUdeviceptr, CUdeviceptr, uint64_t, CUstream) {
  return Unavailable();
}
base::Status NcclChannel::Watch(CUstream) { return Unavailable(); }
base::Status NcclChannel::health() const { return Unavailable(); }
base::StatusOr<base::Ref<hal::Channel>> NcclChannel::SplitImpl(int32_t, int32_t, uint64_t) { return Unavailable(); }

base::Status EnqueueCollective(hal::Channel&, const hal::CollectiveOp&, uint32_t, const hal::utils::ResolvedRef*,
                               const hal::utils::ResolvedRef*, uint64_t, CUstream) {
  return Unavailable();
}

}  // namespace iree_rt::drivers::cuda
