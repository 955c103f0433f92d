// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
namespace IreeRt {

/// <summary>The configurable limits, with the values of iree_rt_limit_t.</summary>
public enum Limit {
  MaxCallDepth = 1, MaxListLength = 2, MaxAllocationSize = 3, MaxContextMemory = 4,
  MaxModuleSize = 5, MaxCallSteps = 6
}

}  // namespace IreeRt
