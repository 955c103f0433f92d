// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "api/handles.h"

namespace iree_rt::api {

const char* HandleTypeName(HandleType type) {
  switch (type) {
    case HandleType::kInstanceOptions:
      return "iree_rt_instance_options_t";
    case HandleType::kInstance:
      return "iree_rt_instance_t";
    case HandleType::kDeviceInfoList:
      return "iree_rt_device_info_list_t";
    case HandleType::kDeviceOptions:
      return "iree_rt_device_options_t";
    case HandleType::kDevice:
      return "iree_rt_device_t";
    case HandleType::kBuffer:
      return "iree_rt_buffer_t";
    case HandleType::kBufferView:
      return "iree_rt_buffer_view_t";
    case HandleType::kSemaphore:
      return "iree_rt_semaphore_t";
    case HandleType::kFence:
      return "iree_rt_fence_t";
    case HandleType::kExecutable:
      return "iree_rt_executable_t";
    case HandleType::kCommandBuffer:
      return "iree_rt_command_buffer_t";
    case HandleType::kModule:
      return "iree_rt_module_t";
    case HandleType::kContext:
      return "iree_rt_context_t";
    case HandleType::kFunction:
      return "iree_rt_function_t";
    case HandleType::kValueList:
      return "iree_rt_value_list_t";
    case HandleType::kParameters:
      return "iree_rt_parameters_t";
  }
  return "unknown handle";
}

base::Status CheckHandle(const HandleObject* object, HandleType type, const char* name,
                         size_t index) {
  if (object->IsLive() && object->type() == type) return base::Status::Ok();
  std::string param = index == kNoIndex ? name : base::StrCat(name, "[", index, "]");
  if (!object->IsLive()) {
    return base::InvalidArgumentError("parameter '", param, "' is not a live ",
                                      HandleTypeName(type), " (released, or not a handle)");
  }
  return base::InvalidArgumentError("parameter '", param, "' is an ",
                                    HandleTypeName(object->type()), ", expected an ",
                                    HandleTypeName(type));
}

}  // namespace iree_rt::api
