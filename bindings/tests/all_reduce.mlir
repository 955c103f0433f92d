// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The bindings' collective: an all-reduce (sum) over 2 ranks, each rank a thread with its own
// device whose rank, ranks and rendezvous are device parameters.
func.func public @all_reduce(%x : tensor<4xf32>) -> tensor<4xf32> {
  %out = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
  return %out : tensor<4xf32>
}
