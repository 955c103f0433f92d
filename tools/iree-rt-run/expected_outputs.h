// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// --expected_output for iree-rt-run: compares a function's results with expected values and
// reports as iree-run-module (iree-base-runtime 3.13.0) does, line for line, so scripts written
// against either tool read the same text.
//
// Buffer views match when shape and element type agree and every element does: integers and
// other types exactly; f16/bf16/f32/f64 when |actual - expected| <= atol + rtol * |expected|
// (NaN equals NaN), iree-run-module's default "approximate" mode and tolerances.
#ifndef IREE_RT_TOOLS_IREE_RT_RUN_EXPECTED_OUTPUTS_H_
#define IREE_RT_TOOLS_IREE_RT_RUN_EXPECTED_OUTPUTS_H_

#include <span>
#include <string>

#include "base/status.h"
#include "vm/value.h"

namespace iree_rt::tools {

// Absolute tolerances per float type, and the relative one they share.
struct Tolerances {
  float f16 = 0.001f;
  float bf16 = 0.01f;
  float f32 = 0.0001f;
  double f64 = 0.0001;
  float rtol = 1e-5f;
};

// Appends a "[FAILED] ..." report for every result of |actual| that differs from |expected|
// (a null ref expects anything) to |out| and returns whether all matched. Errors only when a
// buffer cannot be read.
base::StatusOr<bool> CompareResults(std::span<const vm::Value> expected,
                                    std::span<const vm::Value> actual,
                                    const Tolerances& tolerances, std::string* out);

}  // namespace iree_rt::tools

#endif  // IREE_RT_TOOLS_IREE_RT_RUN_EXPECTED_OUTPUTS_H_
