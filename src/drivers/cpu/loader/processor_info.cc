// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/loader/processor_info.h"

#include <cstdint>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace iree_rt::drivers::cpu {

namespace {

#if defined(__x86_64__)

struct CpuidRegs {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

CpuidRegs Cpuid(uint32_t leaf, uint32_t subleaf) {
  CpuidRegs r;
  if (!__get_cpuid_count(leaf, subleaf, &r.eax, &r.ebx, &r.ecx, &r.edx)) return CpuidRegs{};
  return r;
}

uint64_t XCr0() {
  uint32_t eax, edx;
  __asm__("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (uint64_t{edx} << 32) | eax;
}

bool Bit(uint32_t word, int bit) { return (word >> bit) & 1; }

uint64_t QueryWord0() {
  const CpuidRegs l1 = Cpuid(1, 0);
  const CpuidRegs l7 = Cpuid(7, 0);
  const CpuidRegs l7s1 = Cpuid(7, 1);
  const CpuidRegs ext = Cpuid(0x80000001, 0);
  // AVX state must be enabled by the OS (XCR0 SSE+YMM), AVX-512 also needs opmask/ZMM.
  const uint64_t xcr0 = Bit(l1.ecx, 27) ? XCr0() : 0;  // OSXSAVE
  const bool ymm = (xcr0 & 0x6) == 0x6;
  const bool zmm = ymm && (xcr0 & 0xE0) == 0xE0;
  uint64_t bits = 0;
  auto set = [&bits](int position, bool present) {
    if (present) bits |= uint64_t{1} << position;
  };
  set(0, Bit(l1.ecx, 0));     // sse3
  set(1, Bit(l1.ecx, 9));     // ssse3
  set(2, Bit(l1.ecx, 19));    // sse4.1
  set(3, Bit(l1.ecx, 20));    // sse4.2
  set(4, Bit(ext.ecx, 6));    // sse4a
  set(10, ymm && Bit(l1.ecx, 28));   // avx
  set(11, ymm && Bit(l1.ecx, 12));   // fma
  set(12, ymm && Bit(ext.ecx, 16));  // fma4
  set(13, ymm && Bit(ext.ecx, 11));  // xop
  set(14, ymm && Bit(l1.ecx, 29));   // f16c
  set(15, ymm && Bit(l7.ebx, 5));    // avx2
  set(20, zmm && Bit(l7.ebx, 16));   // avx512f
  set(21, zmm && Bit(l7.ebx, 28));   // avx512cd
  set(22, zmm && Bit(l7.ebx, 31));   // avx512vl
  set(23, zmm && Bit(l7.ebx, 17));   // avx512dq
  set(24, zmm && Bit(l7.ebx, 30));   // avx512bw
  set(25, zmm && Bit(l7.ebx, 21));   // avx512ifma
  set(26, zmm && Bit(l7.ecx, 1));    // avx512vbmi
  set(27, zmm && Bit(l7.ecx, 14));   // avx512vpopcntdq
  set(28, zmm && Bit(l7.ecx, 11));   // avx512vnni
  set(29, zmm && Bit(l7.ecx, 6));    // avx512vbmi2
  set(30, zmm && Bit(l7.ecx, 12));   // avx512bitalg
  set(31, zmm && Bit(l7s1.eax, 5));  // avx512bf16
  set(32, zmm && Bit(l7.edx, 23));   // avx512fp16
  // AMX (bits 50-52) is never reported: Linux requires each process to request tile state
  // (arch_prctl ARCH_REQ_XCOMP_PERM) before use, which we do not do.
  return bits;
}

#elif defined(__aarch64__) && defined(__linux__)

uint64_t QueryWord0() {
  const uint64_t hwcap = getauxval(AT_HWCAP);
  const uint64_t hwcap2 = getauxval(AT_HWCAP2);
  uint64_t bits = 0;
  auto set = [&bits](int position, bool present) {
    if (present) bits |= uint64_t{1} << position;
  };
  // Bit numbers from the kernel's uapi asm/hwcap.h. Newer features (lse128, sve2p1,
  // sme2, sme2p1, sme-f16f16) are left unreported: zero is always safe.
  set(0, hwcap & (1u << 0));                                    // fp-armv8 (HWCAP_FP)
  set(1, hwcap & (1u << 8));                                    // lse (HWCAP_ATOMICS)
  set(10, (hwcap & (1u << 9)) && (hwcap & (1u << 10)));         // fullfp16 (FPHP+ASIMDHP)
  set(11, hwcap & (1u << 23));                                  // fp16fml (ASIMDFHM)
  set(12, hwcap & (1u << 20));                                  // dotprod (ASIMDDP)
  set(13, hwcap2 & (1u << 13));                                 // i8mm
  set(14, hwcap2 & (1u << 14));                                 // bf16
  set(20, hwcap & (1u << 22));                                  // sve
  set(21, hwcap2 & (1u << 1));                                  // sve2
  set(23, hwcap2 & (1u << 4));                                  // sve2-bitperm
  set(24, hwcap2 & (1u << 10));                                 // f32mm (SVEF32MM)
  set(25, hwcap2 & (1u << 11));                                 // f64mm (SVEF64MM)
  set(30, hwcap2 & (1u << 23));                                 // sme
  set(34, hwcap2 & (1u << 25));                                 // sme-f64f64
  set(35, hwcap2 & (1u << 24));                                 // sme-i16i64
  return bits;
}

#else

uint64_t QueryWord0() { return 0; }

#endif

struct FeatureBit {
  std::string_view name;
  int bit;
};

// The word-0 bit of each feature, per architecture (hal_abi_facts.md §3a.6).
#if defined(__x86_64__)
constexpr FeatureBit kFeatureBits[] = {
    {"sse3", 0},          {"ssse3", 1},         {"sse4.1", 2},        {"sse4.2", 3},
    {"sse4a", 4},         {"avx", 10},          {"fma", 11},          {"fma4", 12},
    {"xop", 13},          {"f16c", 14},         {"avx2", 15},         {"avx512f", 20},
    {"avx512cd", 21},     {"avx512vl", 22},     {"avx512dq", 23},     {"avx512bw", 24},
    {"avx512ifma", 25},   {"avx512vbmi", 26},   {"avx512vpopcntdq", 27},
    {"avx512vnni", 28},   {"avx512vbmi2", 29},  {"avx512bitalg", 30}, {"avx512bf16", 31},
    {"avx512fp16", 32},   {"amx-tile", 50},     {"amx-int8", 51},     {"amx-bf16", 52},
};
#elif defined(__aarch64__)
constexpr FeatureBit kFeatureBits[] = {
    {"fp-armv8", 0},   {"lse", 1},         {"lse128", 2},        {"fullfp16", 10},
    {"fp16fml", 11},   {"dotprod", 12},    {"i8mm", 13},         {"bf16", 14},
    {"sve", 20},       {"sve2", 21},       {"sve2p1", 22},       {"sve2-bitperm", 23},
    {"f32mm", 24},     {"f64mm", 25},      {"sme", 30},          {"sme2", 31},
    {"sme2p1", 32},    {"sme-f16f16", 33}, {"sme-f64f64", 34},   {"sme-i16i64", 35},
};
#else
constexpr FeatureBit kFeatureBits[] = {{"", -1}};
#endif

}  // namespace

std::optional<bool> HostHasCpuFeature(std::string_view name) {
  for (const FeatureBit& feature : kFeatureBits) {
    if (feature.bit >= 0 && feature.name == name) {
      return ((HostProcessorData().data[0] >> feature.bit) & 1) != 0;
    }
  }
  return std::nullopt;
}

const ProcessorV0& HostProcessorData() {
  static const ProcessorV0 data = [] {
    ProcessorV0 result{};
    result.data[0] = QueryWord0();
    return result;
  }();
  return data;
}

}  // namespace iree_rt::drivers::cpu
