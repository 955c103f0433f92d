// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;

namespace IreeRt {

/// <summary>The exception a failed native status becomes: its code and message.</summary>
public class IreeRtException : Exception {
  public StatusCode Code { get; private set; }

  public IreeRtException(StatusCode code, string message) : base(code + ": " + message) {
    Code = code;
  }
}

}  // namespace IreeRt
