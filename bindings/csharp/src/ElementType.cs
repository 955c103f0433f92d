// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

/// <summary>Tensor element types, with IREE's numbering (iree_rt_element_type_t).</summary>
public enum ElementType : uint {
  Int8 = 0x10000008, SInt8 = 0x11000008, UInt8 = 0x12000008, Bool8 = 0x13000008,
  Int16 = 0x10000010, SInt16 = 0x11000010, UInt16 = 0x12000010,
  Int32 = 0x10000020, SInt32 = 0x11000020, UInt32 = 0x12000020,
  Int64 = 0x10000040, SInt64 = 0x11000040, UInt64 = 0x12000040,
  Float16 = 0x21000010, BFloat16 = 0x22000010, Float32 = 0x21000020, Float64 = 0x21000040,
}

}  // namespace IreeRt
