// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_semaphore_*.
#include <vector>

#include "api/handles.h"
#include "api/status_bridge.h"
#include "iree_rt.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
namespace api = iree_rt::api;
namespace base = iree_rt::base;
namespace hal = iree_rt::hal;
using api::CheckNotNull;
using api::FromHandle;
using api::Guard;
using api::SemaphoreHandle;

static_assert(IREE_RT_INFINITE_TIMEOUT == hal::kInfiniteTimeout);

iree_rt_status_t iree_rt_semaphore_create(iree_rt_device_t device, uint64_t initial_value,
                                          iree_rt_semaphore_t* out_semaphore) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::DeviceHandle * d, FromHandle(device, "device"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_semaphore, "out_semaphore"));
    RT_ASSIGN_OR_RETURN(Ref<hal::Semaphore> semaphore, d->device->CreateSemaphore(initial_value));
    *out_semaphore = api::ToHandle(MakeRef<SemaphoreHandle>(std::move(semaphore)));
    return Status::Ok();
  });
}

void iree_rt_semaphore_retain(iree_rt_semaphore_t semaphore) { api::RetainHandle(semaphore); }

void iree_rt_semaphore_release(iree_rt_semaphore_t semaphore) { api::ReleaseHandle(semaphore); }

iree_rt_status_t iree_rt_semaphore_query(iree_rt_semaphore_t semaphore, uint64_t* out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(SemaphoreHandle * s, FromHandle(semaphore, "semaphore"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    RT_ASSIGN_OR_RETURN(uint64_t value, s->semaphore->Query());
    *out_value = value;
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_semaphore_signal(iree_rt_semaphore_t semaphore, uint64_t value) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(SemaphoreHandle * s, FromHandle(semaphore, "semaphore"));
    return s->semaphore->Signal(value);
  });
}

iree_rt_status_t iree_rt_semaphore_fail(iree_rt_semaphore_t semaphore, iree_rt_status_code_t code,
                                        const char* message) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(SemaphoreHandle * s, FromHandle(semaphore, "semaphore"));
    RT_RETURN_IF_ERROR(api::CheckErrorCode(code, "code"));
    s->semaphore->Fail(api::MakeFailure(code, message));
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_semaphore_wait(iree_rt_semaphore_t semaphore, uint64_t value,
                                        int64_t timeout_ns) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(SemaphoreHandle * s, FromHandle(semaphore, "semaphore"));
    return s->semaphore->Wait(value, timeout_ns);
  });
}

iree_rt_status_t iree_rt_semaphore_wait_many(const iree_rt_semaphore_t* semaphores,
                                             const uint64_t* values, size_t count,
                                             iree_rt_wait_mode_t mode, int64_t timeout_ns) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(api::CheckArray(semaphores, count, "semaphores"));
    RT_RETURN_IF_ERROR(api::CheckArray(values, count, "values"));
    if (mode != IREE_RT_WAIT_MODE_ALL && mode != IREE_RT_WAIT_MODE_ANY) {
      return base::InvalidArgumentError("parameter 'mode' has unknown value ",
                                        static_cast<int64_t>(mode));
    }
    std::vector<hal::SemaphorePoint> points(count);
    for (size_t i = 0; i < count; ++i) {
      RT_ASSIGN_OR_RETURN(SemaphoreHandle * s, FromHandle(semaphores[i], "semaphores", i));
      points[i] = {s->semaphore.get(), values[i]};
    }
    auto hal_mode = mode == IREE_RT_WAIT_MODE_ANY ? hal::WaitMode::kAny : hal::WaitMode::kAll;
    return hal::WaitSemaphores(hal_mode, points, timeout_ns);
  });
}
