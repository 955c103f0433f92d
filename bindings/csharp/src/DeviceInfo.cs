// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System.Collections.Generic;

namespace IreeRt {

/// <summary>A device a driver can create.</summary>
public sealed class DeviceInfo {
  public string Name { get; internal set; }
  public string Uri { get; internal set; }
  public IReadOnlyDictionary<string, string> Properties { get; internal set; }
  public override string ToString() { return Name + " (" + Uri + ")"; }
}

}  // namespace IreeRt
