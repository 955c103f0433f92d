// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::Channel: a communicator of an SPMD program, this process's rank among |count| ranks, over
// which command buffers run collectives (hal.channel.*, hal.command_buffer.collective).
//
// A compiled program creates its default channel with rank and count -1 and no id: the runtime
// supplies them, from the device's ChannelConfig (the device parameters rank=, ranks= and
// rendezvous=, set by the caller) or from an MPI launcher's environment (OMPI_COMM_WORLD_RANK and
// _SIZE, PMI_RANK and PMI_SIZE). With neither, creating the channel fails: a program that needs
// peers never runs alone as rank 0 of 1.
//
// CollectiveOp is the compiler's 32-bit encoding of one collective: kind (byte 0), reduction
// (byte 1), element type (byte 2), a zero byte. Its values are the compiler's; see
// docs/facts_corrections.md for how the compiler fills the other operands of each kind.
//
// Thread-safety: rank/count are immutable; Split may be called from any thread.
#ifndef IREE_RT_HAL_CHANNEL_H_
#define IREE_RT_HAL_CHANNEL_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"

namespace iree_rt::hal {

enum class CollectiveKind : uint8_t {
  kAllGather = 0,
  kAllReduce = 1,
  kAllToAll = 2,
  kBroadcast = 3,
  kReduce = 4,
  kReduceScatter = 5,
  kSend = 6,
  kRecv = 7,
  kSendRecv = 8,  // param: peer to send to (low 16 bits) and to receive from (high); 0xFFFF: none
};

enum class CollectiveReduction : uint8_t { kNone = 0, kSum, kProduct, kMinimum, kMaximum, kAverage };

enum class CollectiveElementType : uint8_t {
  kSint8 = 0, kUint8, kSint16, kUint16, kSint32, kUint32, kSint64, kUint64,
  kFloat16, kFloat32, kFloat64, kBFloat16,
};

struct CollectiveOp {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  CollectiveReduction reduction = CollectiveReduction::kNone;
  CollectiveElementType element_type = CollectiveElementType::kFloat32;

  // Decodes and checks a packed op: known kind, reduction and type, a reduction exactly on the
  // reducing kinds, the reserved byte zero. INVALID_ARGUMENT naming the bad field otherwise.
  static base::StatusOr<CollectiveOp> Unpack(uint32_t packed);
  uint32_t Pack() const;
  // "all_reduce sum f32".
  std::string ToString() const;
  uint32_t element_size() const;
  bool is_reduction() const;
};

// The runtime's side of a default channel, per device.
struct ChannelConfig {
  int32_t rank = -1;   // -1: from the environment
  int32_t count = -1;
  // Where the ranks meet (hal/utils/rendezvous.h): "local:<name>" (ranks are threads of this
  // process), "file:<path>" or "mpi". Empty: the environment's IREE_RT_RENDEZVOUS, else "mpi"
  // when the ranks came from an MPI launcher, else "local:default".
  std::string rendezvous;
  // How long a rank waits for its peers before the channel fails.
  std::chrono::milliseconds timeout{60000};
};

// hal.channel.create's operands.
struct ChannelParams {
  uint64_t flags = 0;
  std::vector<uint8_t> id;  // empty: the default channel's (from the rendezvous)
  std::string group;
  int32_t rank = -1;
  int32_t count = -1;
};

// |params| with rank, count and rendezvous filled from |config| and the environment. What is
// still missing or inconsistent is FAILED_PRECONDITION / INVALID_ARGUMENT with what to pass.
struct ResolvedChannel {
  int32_t rank = 0;
  int32_t count = 1;
  std::string rendezvous;
  std::vector<uint8_t> id;
  std::chrono::milliseconds timeout{60000};
};
base::StatusOr<ResolvedChannel> ResolveChannel(const ChannelParams& params, const ChannelConfig& config,
                                               const std::string& device_id);

// The bytes a collective reads from |send| and writes to |recv| on one rank of |count|, for the
// operands as the compiler fills them (element_count: the elements each rank receives for
// all_gather and reduce_scatter, the whole buffer for all_to_all). INVALID_ARGUMENT when
// element_count does not divide as the kind needs.
struct CollectiveBytes {
  uint64_t send = 0;  // 0: the kind reads no send buffer
  uint64_t recv = 0;  // 0: the kind writes no recv buffer
};
base::StatusOr<CollectiveBytes> CollectiveByteCounts(const CollectiveOp& op, int32_t count,
                                                     uint64_t element_count);

class Channel : public base::RefObject {
 public:
  int32_t rank() const { return rank_; }
  int32_t count() const { return count_; }
  // Identifies the concrete class for down-casts by the drivers that run its collectives.
  virtual const void* type_tag() const { return nullptr; }

  // hal.channel.split: the ranks with the same |color| form a new channel, ranked by |key| (then
  // by this rank). Every rank of this channel must call it. A negative color leaves the rank out:
  // the result is null.
  base::StatusOr<base::Ref<Channel>> Split(int32_t color, int32_t key, uint64_t flags) {
    return SplitImpl(color, key, flags);
  }

 protected:
  Channel(int32_t rank, int32_t count) : rank_(rank), count_(count) {}

 private:
  virtual base::StatusOr<base::Ref<Channel>> SplitImpl(int32_t color, int32_t key, uint64_t flags) = 0;

  const int32_t rank_;
  const int32_t count_;
};

}  // namespace iree_rt::hal

#endif  // IREE_RT_HAL_CHANNEL_H_
