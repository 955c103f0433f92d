// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What one rank computes in a group collective from every rank's send memory, for the channels
// that move host memory (hal::utils::HostChannel between threads, ShmChannel between processes).
// Reductions run in rank order, so every rank of an all_reduce gets the same bytes; 16-bit floats
// accumulate in f32 and round once.
#ifndef IREE_RT_HAL_UTILS_COLLECTIVE_COMPUTE_H_
#define IREE_RT_HAL_UTILS_COLLECTIVE_COMPUTE_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hal/channel.h"

namespace iree_rt::hal::utils {

// Whether |rank| writes a result (every rank but the non-roots of a reduce).
bool WritesResult(const CollectiveOp& op, uint32_t param, int32_t rank);

// |rank|'s result of a group collective (not send/recv): |inputs[r]| is rank r's send memory
// (bytes.send bytes), |out| receives bytes.recv bytes. Reads only |inputs|.
void ComputeGroupResult(const CollectiveOp& op, uint32_t param, std::span<const uint8_t* const> inputs,
                        uint64_t element_count, int32_t rank, const CollectiveBytes& bytes, uint8_t* out);

// "rank 1" or "ranks 1, 3", for the channels' messages.
std::string DescribeRanks(const std::vector<int32_t>& ranks);

// The peers of a send_recv's param: (send to, receive from), -1 for none (0xFFFF).
struct SendRecvPeers {
  int32_t to;
  int32_t from;
};
SendRecvPeers DecodeSendRecvPeers(uint32_t param);
// The peers of any point-to-point op: send's param is the peer it sends to, recv's the one it
// receives from, send_recv's both (DecodeSendRecvPeers); -1 where the op has none.
SendRecvPeers PointToPointPeers(const CollectiveOp& op, uint32_t param);

// Where |rank| lands in hal.channel.split: |colors_keys| holds every rank's (color, key) pair, as
// all-gathered; the members of |color| are ranked by (key, old rank). Call only with color >= 0.
struct SplitPlace {
  int32_t rank;
  int32_t count;
};
SplitPlace PlaceInSplit(std::span<const int32_t> colors_keys, int32_t color, int32_t rank);

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_COLLECTIVE_COMPUTE_H_
