// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Collections.Generic;

namespace IreeRt {

/// <summary>
/// A module: a compiled program (.vmfb) or a native module (hal, io_parameters, check). Immutable and
/// thread-safe; link it into a Context to call its functions.
/// </summary>
public sealed class Module : NativeObject {
  internal Module(IntPtr handle) : base(HandleKind.RT_KIND_MODULE, handle) {}

  /// <summary>Loads the .vmfb at |path| (mapped read-only).</summary>
  public static Module Load(Instance instance, string path) {
    return new Module(IreeRtNative.module_load_file(instance, path));
  }

  /// <summary>Loads a module from |bytes| (copied).</summary>
  public static Module Load(Instance instance, byte[] bytes) {
    if (bytes == null) throw new ArgumentNullException("bytes");
    return new Module(IreeRtNative.module_load_memory(instance, bytes, bytes.Length,
                                                      0x1 /* COPY */, IntPtr.Zero));
  }

  /// <summary>The hal module over |devices|: link it before programs that use tensors.</summary>
  public static Module Hal(Instance instance, params Device[] devices) {
    return new Module(IreeRtNative.module_create_hal(instance, devices, devices.Length));
  }

  /// <summary>
  /// The io_parameters module over |parameters| (one set per scope; frozen by this call): link
  /// it after the hal module and before programs whose weights are external.
  /// </summary>
  public static Module IoParameters(Instance instance, params Parameters[] parameters) {
    return new Module(IreeRtNative.module_create_io_parameters(instance, parameters,
                                                               parameters.Length));
  }

  public static Module Check(Instance instance) {
    return new Module(IreeRtNative.module_create_check(instance));
  }

  public string Name { get { return IreeRtNative.module_name(this); } }

  public IReadOnlyList<string> FunctionNames {
    get {
      long n = IreeRtNative.module_function_count(this);
      var names = new List<string>();
      for (long i = 0; i < n; ++i) names.Add(IreeRtNative.module_function_name(this, i));
      return names;
    }
  }

  /// <summary>The calling convention of function |name| ("0ii_i"), or null.</summary>
  public string Signature(string name) {
    long n = IreeRtNative.module_function_count(this);
    for (long i = 0; i < n; ++i) {
      if (IreeRtNative.module_function_name(this, i) == name) {
        return IreeRtNative.module_function_signature(this, i);
      }
    }
    return null;
  }
}

}  // namespace IreeRt
