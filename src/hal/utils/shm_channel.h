// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::utils::ShmChannel: collectives over host memory between ranks that are processes of one
// host (the CPU drivers' channel for the rendezvous file:<path> and mpi).
//
// Rank 0 creates a POSIX shared-memory segment and shares its name through the rendezvous; the
// others attach, and the last to attach unlinks the name (nothing is left in /dev/shm). The segment
// holds a process-shared robust mutex and condition variable, the same round state as
// HostChannel's, one mailbox per (sender, receiver) pair, and one data slot per rank: a rank
// copies what it sends into its slot, and every rank computes its result from the slots
// (collective_compute.h). A slot holds $IREE_RT_SHM_SLOT_BYTES (default 64 MiB; the pages are
// touched only as far as used); a larger collective runs as the same collective over pieces that
// fit, cut alike on every rank.
//
// Failure is bounded as for HostChannel: a peer that never arrives (timeout), a peer process that
// exits (its pid is checked while waiting; a peer that dies holding the lock is seen through the
// robust mutex), ranks that disagree: every rank fails with a status naming them.
#ifndef IREE_RT_HAL_UTILS_SHM_CHANNEL_H_
#define IREE_RT_HAL_UTILS_SHM_CHANNEL_H_

#include <chrono>
#include <string>

#include "hal/channel.h"

namespace iree_rt::hal::utils {

class ShmChannel final : public Channel {
 public:
  // Joins |count| ranks meeting through |rendezvous| ("file:<path>" or "mpi").
  static base::StatusOr<base::Ref<ShmChannel>> Join(const std::string& rendezvous, int32_t rank, int32_t count,
                                                    std::chrono::milliseconds timeout);
  ~ShmChannel() override;

  const void* type_tag() const override { return &kTypeTag; }
  static ShmChannel* Cast(Channel* channel) {
    return channel && channel->type_tag() == &kTypeTag ? static_cast<ShmChannel*>(channel) : nullptr;
  }

  // As HostChannel::Run.
  base::Status Run(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                   uint64_t element_count);

  struct Segment;

 private:
  static constexpr char kTypeTag = 0;
  ShmChannel(int32_t rank, int32_t count, Segment* segment, size_t mapped_bytes, std::string name,
             std::chrono::milliseconds timeout);
  template <typename T, typename... Args>
  friend base::Ref<T> base::MakeRef(Args&&... args);
  static base::StatusOr<base::Ref<ShmChannel>> Attach(const std::string& name, bool create, int32_t rank,
                                                      int32_t count, std::chrono::milliseconds timeout);

  base::StatusOr<base::Ref<Channel>> SplitImpl(int32_t color, int32_t key, uint64_t flags) override;
  base::Status RunGroup(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                        uint64_t element_count);
  base::Status RunPointToPoint(const CollectiveOp& op, uint32_t param, const uint8_t* send, uint8_t* recv,
                               uint64_t element_count);
  uint8_t* slot(int32_t rank) const;

  Segment* const segment_;
  const size_t mapped_bytes_;
  const std::string name_;
  const std::chrono::milliseconds timeout_;
  uint32_t splits_ = 0;
};

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_SHM_CHANNEL_H_
