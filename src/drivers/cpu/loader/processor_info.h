// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Host CPU feature words for EnvironmentV0::processor (the executable library ABI's
// "processor data"). Generated code and microkernels test these bits to pick code paths,
// so a bit may only be set when the CPU *and* the OS support the feature; all zeros is
// always safe and means "unknown".
#ifndef IREE_RT_DRIVERS_CPU_LOADER_PROCESSOR_INFO_H_
#define IREE_RT_DRIVERS_CPU_LOADER_PROCESSOR_INFO_H_

#include <optional>
#include <string_view>

#include "drivers/cpu/loader/library_abi.h"

namespace iree_rt::drivers::cpu {

// Returns the host's processor data: word 0 holds the architecture's feature bits
// (x86-64 from CPUID/XGETBV, AArch64 from AT_HWCAP/AT_HWCAP2); other words are zero.
// Computed once and cached; thread-safe.
const ProcessorV0& HostProcessorData();

// Whether the host has the CPU feature with LLVM name |name| ("avx2", "sve"), from the word-0
// bits above; nullopt for a name that is not a feature of the host's architecture (device
// queries then answer "no value").
std::optional<bool> HostHasCpuFeature(std::string_view name);

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_LOADER_PROCESSOR_INFO_H_
