// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/** Tensor element types, with IREE's numbering (iree_rt_element_type_t). */
public enum ElementType {
  INT_8(0x10000008), SINT_8(0x11000008), UINT_8(0x12000008), BOOL_8(0x13000008),
  INT_16(0x10000010), SINT_16(0x11000010), UINT_16(0x12000010),
  INT_32(0x10000020), SINT_32(0x11000020), UINT_32(0x12000020),
  INT_64(0x10000040), SINT_64(0x11000040), UINT_64(0x12000040),
  FLOAT_16(0x21000010), BFLOAT_16(0x22000010), FLOAT_32(0x21000020), FLOAT_64(0x21000040);

  private final int value;

  ElementType(int value) {
    this.value = value;
  }

  /** The native value. */
  public int value() {
    return value;
  }

  /** Bytes per element. */
  public int byteSize() {
    return (value & 0xFF) / 8;
  }

  /** The type with native |value|; IllegalArgumentException for one this enum lacks. */
  public static ElementType fromValue(int value) {
    for (ElementType t : values()) {
      if (t.value == value) {
        return t;
      }
    }
    throw new IllegalArgumentException(String.format("unsupported element type 0x%08x", value));
  }
}
