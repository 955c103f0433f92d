// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// SPMD programs: one module run by every rank of a channel, each rank with its own inputs.
// Replica groups name every rank (use_global_device_ids), so one module serves 2 and 4 ranks:
// the test compiles it once per rank count (RANKS is substituted by CMake).
func.func public @all_reduce_sum(%x : tensor<8xf32>) -> tensor<8xf32> {
  %out = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[@GROUP@]> : tensor<1x@RANKS@xi64>, use_global_device_ids} : (tensor<8xf32>) -> tensor<8xf32>
  return %out : tensor<8xf32>
}

func.func public @all_reduce_max(%x : tensor<6xi32>) -> tensor<6xi32> {
  %out = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %m = stablehlo.maximum %a, %b : tensor<i32>
      stablehlo.return %m : tensor<i32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[@GROUP@]> : tensor<1x@RANKS@xi64>, use_global_device_ids} : (tensor<6xi32>) -> tensor<6xi32>
  return %out : tensor<6xi32>
}

func.func public @all_gather(%x : tensor<3xf32>) -> tensor<@GATHERED@xf32> {
  %out = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
      replica_groups = dense<[@GROUP@]> : tensor<1x@RANKS@xi64>, use_global_device_ids} : (tensor<3xf32>) -> tensor<@GATHERED@xf32>
  return %out : tensor<@GATHERED@xf32>
}

func.func public @reduce_scatter(%x : tensor<@SCATTERED@xf32>) -> tensor<2xf32> {
  %out = "stablehlo.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {scatter_dimension = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[@GROUP@]> : tensor<1x@RANKS@xi64>, use_global_device_ids} : (tensor<@SCATTERED@xf32>) -> tensor<2xf32>
  return %out : tensor<2xf32>
}

func.func public @all_to_all(%x : tensor<@SCATTERED@xf32>) -> tensor<@SCATTERED@xf32> {
  %out = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = @RANKS@ : i64,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
      replica_groups = dense<[@GROUP@]> : tensor<1x@RANKS@xi64>} : (tensor<@SCATTERED@xf32>) -> tensor<@SCATTERED@xf32>
  return %out : tensor<@SCATTERED@xf32>
}

// Send/recv around a ring with one link missing: rank r sends to r+1, the last rank sends to no
// one and rank 0 receives nothing (zeros).
func.func public @ring_shift(%x : tensor<4xf32>) -> tensor<4xf32> {
  %out = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<@PAIRS@> : tensor<@NPAIRS@x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<4xf32>) -> tensor<4xf32>
  return %out : tensor<4xf32>
}

// A matmul with the contraction dimension sharded over the ranks: each rank multiplies its
// column block of A by its row block of B, and an all-reduce sums the partial products.
func.func public @sharded_matmul(%a : tensor<16x@KSHARD@xf32>, %b : tensor<@KSHARD@x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x8xf32>) -> tensor<16x8xf32>
  %partial = linalg.matmul ins(%a, %b : tensor<16x@KSHARD@xf32>, tensor<@KSHARD@x8xf32>)
                           outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %sum = "stablehlo.all_reduce"(%partial) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[@GROUP@]> : tensor<1x@RANKS@xi64>, use_global_device_ids} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %sum : tensor<16x8xf32>
}
