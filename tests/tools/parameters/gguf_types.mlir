// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Weights in the ggml types IREE's runtime also reads (F32, F16, Q8_0, Q4_0, Q6_K), from a .gguf
// the gguf package writes (program_checks.py gguf). A quantized tensor is declared as its raw
// bytes, whole ggml blocks, and returned as they are.
util.global private @g_f32 = #flow.parameter.named<"model"::"f32"> : tensor<32xf32>
util.global private @g_f16 = #flow.parameter.named<"model"::"f16"> : tensor<32xf16>
// 2x64 elements: 4 blocks of 32 elements in 34 bytes.
util.global private @g_q8_0 = #flow.parameter.named<"model"::"q8_0"> : tensor<136xi8>
// 64 elements: 2 blocks of 32 in 18 bytes.
util.global private @g_q4_0 = #flow.parameter.named<"model"::"q4_0"> : tensor<36xi8>
// 512 elements: 2 super-blocks of 256 in 210 bytes.
util.global private @g_q6_k = #flow.parameter.named<"model"::"q6_k"> : tensor<420xi8>

func.func @tensors() -> (tensor<32xf32>, tensor<32xf16>, tensor<136xi8>, tensor<36xi8>,
                         tensor<420xi8>) {
  %f32 = util.global.load @g_f32 : tensor<32xf32>
  %f16 = util.global.load @g_f16 : tensor<32xf16>
  %q8_0 = util.global.load @g_q8_0 : tensor<136xi8>
  %q4_0 = util.global.load @g_q4_0 : tensor<36xi8>
  %q6_k = util.global.load @g_q6_k : tensor<420xi8>
  return %f32, %f16, %q8_0, %q4_0, %q6_k
      : tensor<32xf32>, tensor<32xf16>, tensor<136xi8>, tensor<36xi8>, tensor<420xi8>
}
