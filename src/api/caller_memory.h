// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CallerMemory: the keep-alive of memory a caller lends without a copy (module bytes, parameter
// archives and parameters): its last reference calls the caller's release callback. A failed
// load or add disarms it, since the caller then keeps ownership.
#ifndef IREE_RT_API_CALLER_MEMORY_H_
#define IREE_RT_API_CALLER_MEMORY_H_

#include "base/ref_object.h"
#include "iree_rt.h"

namespace iree_rt::api {

class CallerMemory final : public base::RefObject {
 public:
  CallerMemory(iree_rt_module_release_callback_t callback, void* user_data)
      : callback_(callback), user_data_(user_data) {}
  ~CallerMemory() override {
    if (callback_) callback_(user_data_);
  }
  void Disarm() { callback_ = nullptr; }

 private:
  iree_rt_module_release_callback_t callback_;
  void* user_data_;
};

}  // namespace iree_rt::api

#endif  // IREE_RT_API_CALLER_MEMORY_H_
