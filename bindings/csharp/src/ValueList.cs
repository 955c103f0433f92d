// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;

namespace IreeRt {

/// <summary>
/// A list of values of any type: call arguments and results, and vm.list values. Not
/// thread-safe.
/// </summary>
public sealed class ValueList : NativeObject {
  internal ValueList(IntPtr handle) : base(HandleKind.RT_KIND_VALUE_LIST, handle) {}

  public ValueList(int capacity)
      : base(HandleKind.RT_KIND_VALUE_LIST, IreeRtNative.value_list_create(capacity)) {}

  public int Count { get { return (int)IreeRtNative.value_list_size(this); } }

  public ValueList Add(object value) {
    if (value == null) IreeRtNative.value_list_push_buffer_view(this, null);
    else if (value is int) IreeRtNative.value_list_push_i32(this, (int)value);
    else if (value is long) IreeRtNative.value_list_push_i64(this, (long)value);
    else if (value is float) IreeRtNative.value_list_push_f32(this, (float)value);
    else if (value is double) IreeRtNative.value_list_push_f64(this, (double)value);
    else if (value is Tensor) IreeRtNative.value_list_push_buffer_view(this, (Tensor)value);
    else if (value is Fence) IreeRtNative.value_list_push_fence(this, (Fence)value);
    else if (value is ValueList) IreeRtNative.value_list_push_list(this, (ValueList)value);
    else throw new ArgumentException("unsupported argument type " + value.GetType().FullName);
    return this;
  }

  /// <summary>Element |index| as int, long, float, double, Tensor, ValueList or null.</summary>
  public object this[int index] {
    get {
      switch (IreeRtNative.value_list_get_type(this, index)) {
        case Kinds.ValueI8:
        case Kinds.ValueI16:
        case Kinds.ValueI32: return IreeRtNative.value_list_get_i32(this, index);
        case Kinds.ValueI64: return IreeRtNative.value_list_get_i64(this, index);
        case Kinds.ValueF32: return IreeRtNative.value_list_get_f32(this, index);
        case Kinds.ValueF64: return IreeRtNative.value_list_get_f64(this, index);
        case Kinds.ValueRef: {
          string type = IreeRtNative.value_list_get_ref_type(this, index);
          if (string.IsNullOrEmpty(type)) return null;
          if (type == "hal.buffer_view") return GetTensor(index);
          if (type == "vm.list") {
            return new ValueList(IreeRtNative.value_list_get_list(this, index));
          }
          throw new NotSupportedException("result of type " + type);
        }
        default: return null;
      }
    }
  }

  internal Tensor GetTensor(int index) {
    IntPtr h = IreeRtNative.value_list_get_buffer_view(this, index);
    return h == IntPtr.Zero ? null : new Tensor(h);
  }

  public object[] ToArray() {
    var result = new object[Count];
    for (int i = 0; i < result.Length; ++i) result[i] = this[i];
    return result;
  }
}

}  // namespace IreeRt
