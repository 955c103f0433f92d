// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

/// <summary>Native constants the classes share (values from iree_rt.h).</summary>
internal static class Kinds {
  internal const int AbiVersion = 0x00010000;
  internal const int MemoryTypeDeviceLocal = 0x0030;
  internal const int MemoryTypeHostLocal = 0x0046;
  internal const int BufferUsageDefault = 0xC03;
  internal const int MemoryAccessAll = 0x7;
  internal const int EncodingDenseRowMajor = 1;
  internal const long InfiniteTimeout = long.MaxValue;
  internal const int ValueI8 = 1, ValueI16 = 2, ValueI32 = 3, ValueI64 = 4, ValueF32 = 5,
                     ValueF64 = 6, ValueRef = 7;
}

}  // namespace IreeRt
