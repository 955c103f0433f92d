// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hal::utils::MpiBroadcast: rank 0's bytes to every rank of MPI_COMM_WORLD through the MPI
// library the launcher provides, loaded at run time (never a link dependency): Open MPI's
// libmpi.so.40 or MPICH's libmpi.so.12 ($IREE_RT_MPI_LIBRARY first). MPI is initialized here when
// the process has not done it (and finalized at exit). The broadcast is non-blocking
// (MPI_Ibcast polled with MPI_Test), so a root that never comes is DEADLINE_EXCEEDED after
// |timeout|, not a hang. The two libraries' handles differ (Open MPI: pointers to globals; MPICH:
// integer constants); both are handled.
#ifndef IREE_RT_HAL_UTILS_MPI_LIBRARY_H_
#define IREE_RT_HAL_UTILS_MPI_LIBRARY_H_

#include <chrono>
#include <cstdint>
#include <vector>

#include "base/status.h"

namespace iree_rt::hal::utils {

// Broadcasts |bytes| (filled on rank 0, sized on every rank) from world rank 0.
base::Status MpiBroadcast(std::vector<uint8_t>* bytes, std::chrono::milliseconds timeout);

}  // namespace iree_rt::hal::utils

#endif  // IREE_RT_HAL_UTILS_MPI_LIBRARY_H_
