// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

public enum MemoryStatistic { BytesAllocated = 1, PeakBytesAllocated = 2, AllocationCount = 3 }

}  // namespace IreeRt
