// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "io/ggml_types.h"

namespace iree_rt::io {
namespace {

// The K-quants and most IQ types use super-blocks of 256 elements.
constexpr uint32_t kQK = 256;

// Block sizes and bytes per block as the gguf format specification and its reference writer
// (the gguf package's quantization size table) define them; each byte count is the sum of the
// block's fields (scales, mins, packed quants).
constexpr GgmlType kTypes[] = {
    {0, "F32", 1, 4},
    {1, "F16", 1, 2},
    {2, "Q4_0", 32, 2 + 16},
    {3, "Q4_1", 32, 2 + 2 + 16},
    {6, "Q5_0", 32, 2 + 4 + 16},
    {7, "Q5_1", 32, 2 + 2 + 4 + 16},
    {8, "Q8_0", 32, 2 + 32},
    {9, "Q8_1", 32, 4 + 4 + 32},
    {10, "Q2_K", kQK, 2 + 2 + kQK / 16 + kQK / 4},
    {11, "Q3_K", kQK, 2 + kQK / 4 + kQK / 8 + 12},
    {12, "Q4_K", kQK, 2 + 2 + kQK / 2 + 12},
    {13, "Q5_K", kQK, 2 + 2 + kQK / 2 + kQK / 8 + 12},
    {14, "Q6_K", kQK, 2 + kQK / 2 + kQK / 4 + kQK / 16},
    {15, "Q8_K", kQK, 4 + kQK + kQK / 8},
    {16, "IQ2_XXS", kQK, 2 + kQK / 4},
    {17, "IQ2_XS", kQK, 2 + kQK / 4 + kQK / 32},
    {18, "IQ3_XXS", kQK, 2 + kQK / 4 + kQK / 8},
    {19, "IQ1_S", kQK, 2 + kQK / 8 + kQK / 16},
    {20, "IQ4_NL", 32, 2 + 16},
    {21, "IQ3_S", kQK, 2 + kQK / 4 + kQK / 8 + kQK / 32 + 4},
    {22, "IQ2_S", kQK, 2 + kQK / 4 + kQK / 16},
    {23, "IQ4_XS", kQK, 2 + 2 + kQK / 2 + kQK / 64},
    {24, "I8", 1, 1},
    {25, "I16", 1, 2},
    {26, "I32", 1, 4},
    {27, "I64", 1, 8},
    {28, "F64", 1, 8},
    {29, "IQ1_M", kQK, kQK / 8 + kQK / 16 + kQK / 32},
    {30, "BF16", 1, 2},
    {34, "TQ1_0", kQK, 2 + 4 * 13},
    {35, "TQ2_0", kQK, 2 + 64},
    {39, "MXFP4", 32, 1 + 16},
    {40, "NVFP4", 64, 4 + 32},
    {41, "Q1_0", 128, 2 + 16},
};

}  // namespace

const GgmlType* FindGgmlType(uint32_t id) {
  for (const GgmlType& type : kTypes) {
    if (type.id == id) return &type;
  }
  return nullptr;
}

std::span<const GgmlType> GgmlTypes() { return kTypes; }

}  // namespace iree_rt::io
