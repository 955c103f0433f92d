// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The text of the tools' --print_statistics and --dispatch_statistics.
//
// --print_statistics: per device, the allocator's live and peak bytes and its allocation count
// (hal::AllocatorStatistics), all memory together and then split into DEVICE_LOCAL and
// HOST_LOCAL, as IREE's tools print them.
// --dispatch_statistics: per dispatched export, from base::trace's "dispatch" events: count, total,
// mean, min and max time (only drivers that record dispatches on a device track: the CPU drivers).
#ifndef IREE_RT_TOOLING_STATISTICS_H_
#define IREE_RT_TOOLING_STATISTICS_H_

#include <span>
#include <string>

#include "base/ref_object.h"
#include "hal/device.h"

namespace iree_rt::tooling {

// "[statistics] device local-task: live 0 B, peak 1024 B, allocations 3\n" per device, followed
// by "[statistics]   DEVICE_LOCAL: ..." and "[statistics]   HOST_LOCAL: ..." lines.
std::string FormatAllocatorStatistics(std::span<const base::Ref<hal::Device>> devices);

// A header line and one line per export, by total time (largest first):
// "[dispatch] NAME count=N total_us=T mean_us=M min_us=A max_us=B\n". Empty-bodied (the header
// only) when tracing recorded no dispatch.
std::string FormatDispatchStatistics();

}  // namespace iree_rt::tooling

#endif  // IREE_RT_TOOLING_STATISTICS_H_
