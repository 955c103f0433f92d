// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

/// <summary>How an archive file's bytes are reached (iree_rt_parameter_mode_t).</summary>
public enum ParameterMode {
  /// <summary>Map the file; CPU devices use aligned parameters in place.</summary>
  Mmap = 0,
  /// <summary>Read the whole file into memory when it is added.</summary>
  Preload = 1,
  /// <summary>Read only the header; each load reads from the file.</summary>
  File = 2,
}

}  // namespace IreeRt
