// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Weights in ggml types IREE's runtime refuses (BF16 = 30, IQ4_NL = 20, MXFP4 = 39: its gguf
// reader sizes types 0-18 only) from a .gguf the gguf package writes (program_checks.py gguf).
util.global private @g_bf16 = #flow.parameter.named<"model"::"bf16"> : tensor<32xbf16>
// 64 elements: 2 blocks of 32 in 18 bytes.
util.global private @g_iq4_nl = #flow.parameter.named<"model"::"iq4_nl"> : tensor<36xi8>
// 64 elements: 2 blocks of 32 in 17 bytes.
util.global private @g_mxfp4 = #flow.parameter.named<"model"::"mxfp4"> : tensor<34xi8>

// BF16 widens exactly to f32, so the result holds the stored values unchanged.
func.func @tensors() -> (tensor<32xf32>, tensor<36xi8>, tensor<34xi8>) {
  %bf16 = util.global.load @g_bf16 : tensor<32xbf16>
  %f32 = arith.extf %bf16 : tensor<32xbf16> to tensor<32xf32>
  %iq4_nl = util.global.load @g_iq4_nl : tensor<36xi8>
  %mxfp4 = util.global.load @g_mxfp4 : tensor<34xi8>
  return %f32, %iq4_nl, %mxfp4 : tensor<32xf32>, tensor<36xi8>, tensor<34xi8>
}
