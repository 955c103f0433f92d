// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/** Native constants the classes share (values from iree_rt.h). */
final class Kinds {
  private Kinds() {}

  static final int ABI_VERSION = 0x00010000;
  static final int MEMORY_TYPE_DEVICE_LOCAL = 0x0030;
  static final int MEMORY_TYPE_HOST_LOCAL = 0x0046;
  static final int BUFFER_USAGE_DEFAULT = 0xC03;
  static final int MEMORY_ACCESS_ALL = 0x7;
  static final int ENCODING_DENSE_ROW_MAJOR = 1;
  static final long INFINITE_TIMEOUT = Long.MAX_VALUE;

  static final int VALUE_NONE = 0;
  static final int VALUE_I8 = 1;
  static final int VALUE_I16 = 2;
  static final int VALUE_I32 = 3;
  static final int VALUE_I64 = 4;
  static final int VALUE_F32 = 5;
  static final int VALUE_F64 = 6;
  static final int VALUE_REF = 7;
}
