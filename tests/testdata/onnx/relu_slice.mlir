// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A program as iree-import-onnx writes it (torch dialect, ONNX operators): the ONNX front end
// names the public function main_graph and IREE's torch input pipeline wraps its body in
// "main_graph$async", so every dispatch is named "main_graph$async_dispatch_<n>_...". PTX
// kernel names cannot hold '$': the CUDA executable carries both spellings.
module {
  func.func @main_graph(%arg0: !torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,4],f32>
      attributes {torch.onnx_meta.ir_version = 8 : si64, torch.onnx_meta.opset_version = 17 : si64,
                  torch.onnx_meta.producer_name = "iree_rt", torch.onnx_meta.producer_version = "1"} {
    %starts = torch.operator "onnx.Constant"() {torch.onnx.value = dense<[2]> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
    %ends = torch.operator "onnx.Constant"() {torch.onnx.value = dense<[6]> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
    %axes = torch.operator "onnx.Constant"() {torch.onnx.value = dense<[1]> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
    %0 = torch.operator "onnx.Relu"(%arg0) : (!torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],f32>
    %1 = torch.operator "onnx.Slice"(%0, %starts, %ends, %axes) : (!torch.vtensor<[2,8],f32>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[2,4],f32>
    return %1 : !torch.vtensor<[2,4],f32>
  }
}
