// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

/**
 * A list of values of any type: call arguments and results, and the lists programs use
 * (vm.list). Not thread-safe (externally synchronized).
 */
public final class ValueList extends NativeObject {
  private ValueList(long handle) {
    super(HandleKind.RT_KIND_VALUE_LIST, handle);
  }

  /** An empty list with room for |capacity| values. */
  public ValueList(int capacity) {
    this(IreeRtNative.value_list_create(capacity));
  }

  public int size() {
    return (int) IreeRtNative.value_list_size(this);
  }

  /** Appends |value| (see {@link Function#call} for the types accepted). */
  public ValueList add(Object value) {
    if (value == null) {
      IreeRtNative.value_list_push_buffer_view(this, null);
    } else if (value instanceof Integer) {
      IreeRtNative.value_list_push_i32(this, (Integer) value);
    } else if (value instanceof Long) {
      IreeRtNative.value_list_push_i64(this, (Long) value);
    } else if (value instanceof Float) {
      IreeRtNative.value_list_push_f32(this, (Float) value);
    } else if (value instanceof Double) {
      IreeRtNative.value_list_push_f64(this, (Double) value);
    } else if (value instanceof Tensor) {
      IreeRtNative.value_list_push_buffer_view(this, (Tensor) value);
    } else if (value instanceof Fence) {
      IreeRtNative.value_list_push_fence(this, (Fence) value);
    } else if (value instanceof ValueList) {
      IreeRtNative.value_list_push_list(this, (ValueList) value);
    } else {
      throw new IllegalArgumentException(
          "unsupported argument type " + value.getClass().getName());
    }
    return this;
  }

  /** Element |index| as Integer, Long, Float, Double, Tensor, ValueList or null. */
  public Object get(int index) {
    switch (IreeRtNative.value_list_get_type(this, index)) {
      case Kinds.VALUE_I8:
      case Kinds.VALUE_I16:
      case Kinds.VALUE_I32:
        return IreeRtNative.value_list_get_i32(this, index);
      case Kinds.VALUE_I64:
        return IreeRtNative.value_list_get_i64(this, index);
      case Kinds.VALUE_F32:
        return IreeRtNative.value_list_get_f32(this, index);
      case Kinds.VALUE_F64:
        return IreeRtNative.value_list_get_f64(this, index);
      case Kinds.VALUE_REF: {
        String type = IreeRtNative.value_list_get_ref_type(this, index);
        if (type == null || type.isEmpty()) {
          return null;
        } else if (type.equals("hal.buffer_view")) {
          return getTensor(index);
        } else if (type.equals("vm.list")) {
          return new ValueList(IreeRtNative.value_list_get_list(this, index));
        }
        throw new UnsupportedOperationException("result of type " + type);
      }
      default:
        return null;
    }
  }

  Tensor getTensor(int index) {
    long h = IreeRtNative.value_list_get_buffer_view(this, index);
    return h == 0 ? null : new Tensor(h, null);
  }

  public Object[] toArray() {
    Object[] out = new Object[size()];
    for (int i = 0; i < out.length; ++i) {
      out[i] = get(i);
    }
    return out;
  }
}
