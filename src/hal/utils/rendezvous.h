// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::utils::ShareFromRoot: rank 0 of a channel makes some bytes (an NCCL unique id) and every
// rank returns with them, through the channel's rendezvous:
//   local:<name>  ranks are threads of this process: an in-process board, cleared once every
//                 rank has read it;
//   file:<path>   ranks are processes sharing a file system: rank 0 writes <path> atomically
//                 (write, then rename), the others poll for it. Use a fresh path per job: a
//                 stale file from an earlier job would be read as this job's;
//   mpi           ranks are the processes of an MPI job: an MPI broadcast from world rank 0
//                 (mpi_library.h; the channel's rank must be the world rank).
// Waiting ranks give up after |timeout| with DEADLINE_EXCEEDED naming the rendezvous and rank.
#ifndef IREE_RT_HAL_UTILS_RENDEZVOUS_H_
#define IREE_RT_HAL_UTILS_RENDEZVOUS_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"

namespace iree_rt::hal::utils {

base::StatusOr<std::vector<uint8_t>> ShareFromRoot(
    const std::string& rendezvous, int32_t rank, int32_t count, size_t size,
    const std::function<base::StatusOr<std::vector<uint8_t>>()>& make, std::chrono::milliseconds timeout);

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_RENDEZVOUS_H_
