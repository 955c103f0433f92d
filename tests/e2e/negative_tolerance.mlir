// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Negative control: a mismatch just beyond tolerance (|1.0 - 1.002| = 2e-3 > atol 1e-3 with
// rtol 0) must fail the case. Registered with WILL_FAIL.

func.func @tiny_mismatch_beyond_tolerance() {
  %a = util.unfoldable_constant dense<[0.5, 0.25]> : tensor<2xf32>
  %b = arith.addf %a, %a : tensor<2xf32>
  check.expect_almost_eq_const(%b, dense<[1.002, 0.5]> : tensor<2xf32>, atol 1.0e-3, rtol 0.0) : tensor<2xf32>
  return
}
