// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.nio.ByteBuffer;

/**
 * A reusable call frame for repeated calls of one function, without boxing:
 * {@code inv.reset().arg(1).arg(2).invoke(); int r = inv.resultInt(0);}. Not thread-safe (one
 * per thread); the function itself may be shared.
 *
 * <p>Scalar-only calls cross into native code once (rt_call_scalars), with the arguments and
 * results in direct buffers whose addresses are taken once. A Tensor or Fence argument switches
 * the call to the value-list protocol. The invocation holds its function (and its own lists)
 * until closed, so closing the function does not stop it.
 */
public final class Invocation implements AutoCloseable {
  private static final int RESULT_CAPACITY = 8;
  private final Function function;
  private final ValueList arguments = new ValueList(8);
  private final ValueList results = new ValueList(8);
  private final long fn;
  private final long args;
  private final long res;
  private ByteBuffer argTypes;  // int32 value types
  private ByteBuffer argBits;   // int64 bit patterns
  private long argTypesAddress;
  private long argBitsAddress;
  private int argCapacity;
  private int argCount;
  private boolean listMode;  // a reference was pushed: the arguments live in the native list
  private final ByteBuffer resultTypes = Tensor.allocateDirect(4 * RESULT_CAPACITY);
  private final ByteBuffer resultBits = Tensor.allocateDirect(8 * RESULT_CAPACITY);
  private final long resultTypesAddress = IreeRtNative.rt_address_of(resultTypes);
  private final long resultBitsAddress = IreeRtNative.rt_address_of(resultBits);
  private int resultCount;
  private boolean fastResults;
  private boolean closed;

  Invocation(Function function) {
    this.function = function;
    growArguments(8);
    fn = function.acquireHandle();
    args = arguments.acquireHandle();
    res = results.acquireHandle();
  }

  private void growArguments(int capacity) {
    ByteBuffer types = Tensor.allocateDirect(4 * capacity);
    ByteBuffer bits = Tensor.allocateDirect(8 * capacity);
    for (int i = 0; i < argCount; ++i) {
      types.putInt(4 * i, argTypes.getInt(4 * i));
      bits.putLong(8 * i, argBits.getLong(8 * i));
    }
    argTypes = types;
    argBits = bits;
    argTypesAddress = IreeRtNative.rt_address_of(types);
    argBitsAddress = IreeRtNative.rt_address_of(bits);
    argCapacity = capacity;
  }

  private void check() {
    if (closed) {
      throw new IllegalStateException("Invocation is closed");
    }
  }

  /** Clears the arguments and results of the previous call. */
  public Invocation reset() {
    check();
    if (listMode) {
      IreeRtNative.value_list_clear(arguments);
    }
    listMode = false;
    argCount = 0;
    fastResults = false;
    return this;
  }

  private Invocation scalar(int type, long bits) {
    check();
    if (listMode) {
      switch (type) {
        case Kinds.VALUE_I32:
          IreeRtNative.value_list_push_i32(arguments, (int) bits);
          break;
        case Kinds.VALUE_I64:
          IreeRtNative.value_list_push_i64(arguments, bits);
          break;
        case Kinds.VALUE_F32:
          IreeRtNative.value_list_push_f32(arguments, Float.intBitsToFloat((int) bits));
          break;
        default:
          IreeRtNative.value_list_push_f64(arguments, Double.longBitsToDouble(bits));
          break;
      }
      return this;
    }
    if (argCount == argCapacity) {
      growArguments(2 * argCapacity);
    }
    argTypes.putInt(4 * argCount, type);
    argBits.putLong(8 * argCount, bits);
    ++argCount;
    return this;
  }

  // Moves the scalars collected so far into the native list, before a reference argument.
  private void enterListMode() {
    check();
    if (listMode) {
      return;
    }
    IreeRtNative.value_list_clear(arguments);
    listMode = true;
    for (int i = 0; i < argCount; ++i) {
      scalar(argTypes.getInt(4 * i), argBits.getLong(8 * i));
    }
    argCount = 0;
  }

  public Invocation arg(int value) {
    return scalar(Kinds.VALUE_I32, value);
  }

  public Invocation arg(long value) {
    return scalar(Kinds.VALUE_I64, value);
  }

  public Invocation arg(float value) {
    return scalar(Kinds.VALUE_F32, Float.floatToRawIntBits(value) & 0xFFFFFFFFL);
  }

  public Invocation arg(double value) {
    return scalar(Kinds.VALUE_F64, Double.doubleToRawLongBits(value));
  }

  public Invocation arg(Tensor value) {
    enterListMode();
    IreeRtNative.value_list_push_buffer_view(arguments, value);
    return this;
  }

  public Invocation arg(Fence value) {
    enterListMode();
    IreeRtNative.value_list_push_fence(arguments, value);
    return this;
  }

  /** Calls the function; results replace those of the previous call. */
  public Invocation invoke() {
    check();
    if (!listMode) {
      resultCount = (int) IreeRtNative.rt_call_scalars(fn, args, res, argTypesAddress,
          argBitsAddress, argCount, resultTypesAddress, resultBitsAddress, RESULT_CAPACITY);
      fastResults = true;
    } else {
      IreeRtNative.value_list_clear(results);
      IreeRtNative.function_call(function, arguments, results);
      fastResults = false;
    }
    return this;
  }

  private boolean fast(int index, int type) {
    return fastResults && index >= 0 && index < resultCount && index < RESULT_CAPACITY
        && resultTypes.getInt(4 * index) == type;
  }

  public int resultCount() {
    check();
    return fastResults ? resultCount : (int) IreeRtNative.value_list_size(results);
  }

  public int resultInt(int index) {
    check();
    return fast(index, Kinds.VALUE_I32) ? (int) resultBits.getLong(8 * index)
        : IreeRtNative.value_list_get_i32(results, index);
  }

  public long resultLong(int index) {
    check();
    return fast(index, Kinds.VALUE_I64) || fast(index, Kinds.VALUE_I32)
        ? resultBits.getLong(8 * index) : IreeRtNative.value_list_get_i64(results, index);
  }

  public float resultFloat(int index) {
    check();
    return fast(index, Kinds.VALUE_F32) ? Float.intBitsToFloat((int) resultBits.getLong(8 * index))
        : IreeRtNative.value_list_get_f32(results, index);
  }

  public double resultDouble(int index) {
    check();
    return fast(index, Kinds.VALUE_F64) ? Double.longBitsToDouble(resultBits.getLong(8 * index))
        : IreeRtNative.value_list_get_f64(results, index);
  }

  /** Result |index| as a new Tensor the caller closes. */
  public Tensor resultTensor(int index) {
    check();
    return results.getTensor(index);
  }

  /** The results as objects (see {@link Function#call}). */
  public Object[] results() {
    check();
    return results.toArray();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    function.releaseHandle();
    arguments.releaseHandle();
    results.releaseHandle();
    arguments.close();
    results.close();
  }
}
