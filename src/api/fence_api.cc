// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_fence_*.
#include <string>
#include <vector>

#include "api/handles.h"
#include "api/status_bridge.h"
#include "iree_rt.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace hal = iree_rt::hal;
using api::CheckNotNull;
using api::FenceHandle;
using api::FromHandle;
using api::Guard;

iree_rt_status_t iree_rt_fence_create(iree_rt_fence_t* out_fence) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(CheckNotNull(out_fence, "out_fence"));
    *out_fence = api::ToHandle(MakeRef<FenceHandle>(hal::Fence::Create()));
    return Status::Ok();
  });
}

void iree_rt_fence_retain(iree_rt_fence_t fence) { api::RetainHandle(fence); }

void iree_rt_fence_release(iree_rt_fence_t fence) { api::ReleaseHandle(fence); }

iree_rt_status_t iree_rt_fence_insert(iree_rt_fence_t fence, iree_rt_semaphore_t semaphore,
                                      uint64_t value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FenceHandle * f, FromHandle(fence, "fence"));
    RT_ASSIGN_OR_RETURN(api::SemaphoreHandle * s, FromHandle(semaphore, "semaphore"));
    return f->Insert(s->semaphore, value);
  });
}

iree_rt_status_t iree_rt_fence_join(const iree_rt_fence_t* fences, size_t count,
                                    iree_rt_fence_t* out_fence) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(api::CheckArray(fences, count, "fences"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_fence, "out_fence"));
    std::vector<Ref<hal::Fence>> held(count);  // keeps each snapshot alive during the join
    std::vector<hal::Fence*> parts(count);
    for (size_t i = 0; i < count; ++i) {
      RT_ASSIGN_OR_RETURN(FenceHandle * f, api::FromNullableHandle(fences[i], "fences", i));
      if (f) held[i] = f->current();
      parts[i] = held[i].get();
    }
    *out_fence = api::ToHandle(MakeRef<FenceHandle>(hal::Fence::Join(parts)));
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_fence_size(iree_rt_fence_t fence, size_t* out_size) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FenceHandle * f, FromHandle(fence, "fence"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_size, "out_size"));
    *out_size = f->current()->size();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_fence_query(iree_rt_fence_t fence) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FenceHandle * f, FromHandle(fence, "fence"));
    return f->current()->Query();
  });
}

iree_rt_status_t iree_rt_fence_signal(iree_rt_fence_t fence) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FenceHandle * f, FromHandle(fence, "fence"));
    return f->current()->Signal();
  });
}

iree_rt_status_t iree_rt_fence_fail(iree_rt_fence_t fence, iree_rt_status_code_t code,
                                    const char* message) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FenceHandle * f, FromHandle(fence, "fence"));
    RT_RETURN_IF_ERROR(api::CheckErrorCode(code, "code"));
    f->current()->Fail(api::MakeFailure(code, message));
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_fence_wait(iree_rt_fence_t fence, int64_t timeout_ns) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FenceHandle * f, FromHandle(fence, "fence"));
    return f->current()->Wait(hal::WaitMode::kAll, timeout_ns);
  });
}

iree_rt_status_t iree_rt_fence_wait_any(iree_rt_fence_t fence, int64_t timeout_ns) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FenceHandle * f, FromHandle(fence, "fence"));
    return f->current()->Wait(hal::WaitMode::kAny, timeout_ns);
  });
}

iree_rt_status_t iree_rt_fence_notify(iree_rt_fence_t fence, iree_rt_fence_callback_t callback,
                                      void* user_data) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(FenceHandle * f, FromHandle(fence, "fence"));
    RT_RETURN_IF_ERROR(CheckNotNull(reinterpret_cast<const void*>(callback), "callback"));
    // May run on a queue thread: nothing may throw out of it, and the callback runs even when
    // the message cannot be copied (NUL-terminated for C).
    f->current()->Notify([callback, user_data](Status status) noexcept {
      std::string message;
      try {
        message = status.message();
      } catch (...) {
      }
      callback(user_data, static_cast<iree_rt_status_code_t>(status.code()), message.c_str());
    });
    return Status::Ok();
  });
}
