// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The objects behind the C handles, and the only casts between the two (Dawn's ToAPI/FromAPI).
//
// Every handle points at a HandleObject: a RefObject with a type tag and a magic word that the
// destructor clears. FromHandle checks both, so a handle of the wrong type, and most handles used
// after their last release, give INVALID_ARGUMENT instead of undefined behaviour. (Freed memory
// can be reused, so use-after-release detection is best effort; ASan builds report it as a bug.)
//
// Each handle object owns base::Refs to the HAL objects it wraps. Objects that hand out borrowed
// handles (a buffer view's buffer) keep the handle object itself, so the borrowed handle is stable.
#ifndef IREE_RT_API_HANDLES_H_
#define IREE_RT_API_HANDLES_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "hal/buffer.h"
#include "hal/buffer_view.h"
#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/driver.h"
#include "hal/driver_registry.h"
#include "hal/executable.h"
#include "hal/executable_cache.h"
#include "hal/fence.h"
#include "hal/semaphore.h"
#include "iree_rt.h"
#include "session/driver_set.h"
#include "vm/instance.h"

namespace iree_rt::api {

enum class HandleType : uint32_t {
  kInstanceOptions = 1,
  kInstance,
  kDeviceInfoList,
  kDeviceOptions,
  kDevice,
  kBuffer,
  kBufferView,
  kSemaphore,
  kFence,
  kExecutable,
  kCommandBuffer,
  kModule,
  kContext,
  kFunction,
  kValueList,
  kParameters,
};

// The C type name of |type| ("iree_rt_buffer_t"), for messages.
const char* HandleTypeName(HandleType type);

class HandleObject : public base::RefObject {
 public:
  HandleType type() const { return type_; }
  bool IsLive() const { return magic_ == kLiveMagic; }

 protected:
  explicit HandleObject(HandleType type) : type_(type) {}
  ~HandleObject() override {
    // A volatile store: the compiler may not drop it as a dead store before the memory is freed.
    volatile uint32_t* magic = &magic_;
    *magic = 0;
  }

 private:
  static constexpr uint32_t kLiveMagic = 0x31485452;  // "RTH1"
  uint32_t magic_ = kLiveMagic;
  const HandleType type_;
};

struct InstanceOptionsHandle final : HandleObject {
  using CHandle = iree_rt_instance_options_t;
  static constexpr HandleType kType = HandleType::kInstanceOptions;
  InstanceOptionsHandle() : HandleObject(kType) {}

  std::vector<std::string> allowed_drivers;
  // driver name -> (key -> value)
  std::map<std::string, session::DeviceParams, std::less<>> device_params;
  vm::Limits limits;
  std::string trace_path;  // empty: no trace unless IREE_RT_TRACE
};

struct DeviceOptionsHandle final : HandleObject {
  using CHandle = iree_rt_device_options_t;
  static constexpr HandleType kType = HandleType::kDeviceOptions;
  DeviceOptionsHandle() : HandleObject(kType) {}

  session::DeviceParams params;
};

struct DeviceInfoListHandle final : HandleObject {
  using CHandle = iree_rt_device_info_list_t;
  static constexpr HandleType kType = HandleType::kDeviceInfoList;
  explicit DeviceInfoListHandle(std::vector<hal::DeviceInfo> devices)
      : HandleObject(kType), devices(std::move(devices)) {}

  const std::vector<hal::DeviceInfo> devices;
};

struct DeviceHandle final : HandleObject {
  using CHandle = iree_rt_device_t;
  static constexpr HandleType kType = HandleType::kDevice;
  DeviceHandle(base::Ref<hal::Driver> driver, base::Ref<hal::Device> device,
               base::Ref<hal::ExecutableCache> executable_cache)
      : HandleObject(kType),
        driver(std::move(driver)),
        device(std::move(device)),
        executable_cache(std::move(executable_cache)) {}

  const base::Ref<hal::Driver> driver;  // keeps the backend alive as long as its device
  const base::Ref<hal::Device> device;
  const base::Ref<hal::ExecutableCache> executable_cache;
};

// Holds the drivers built into the library (those the options allow) and creates devices.
class InstanceHandle final : public HandleObject {
 public:
  using CHandle = iree_rt_instance_t;
  static constexpr HandleType kType = HandleType::kInstance;

  // Registers the enabled drivers and applies |options| (nullable).
  static base::StatusOr<base::Ref<InstanceHandle>> Create(const InstanceOptionsHandle* options);

  const std::vector<std::string>& driver_names() const { return drivers_->names(); }
  // The VM type registry shared by every module loaded through this instance.
  vm::Instance& vm_instance() const { return *vm_instance_; }
  // The devices of driver |driver_name|, or of every available driver when it is null.
  base::StatusOr<std::vector<hal::DeviceInfo>> EnumerateDevices(const char* driver_name);
  // Parses |uri|, merges |options| (nullable) and the instance defaults, and creates the device.
  base::StatusOr<base::Ref<DeviceHandle>> CreateDevice(std::string_view uri,
                                                       const DeviceOptionsHandle* options);
  // Writes the trace file (base::trace::Flush).
  base::Status FlushTrace();
  // Writes the trace file; stops tracing if this instance's options started it.
  ~InstanceHandle() override;

 private:
  InstanceHandle() : HandleObject(kType) {}

  bool owns_trace_ = false;

  std::unique_ptr<session::DriverSet> drivers_;
  base::Ref<vm::Instance> vm_instance_;
};

struct BufferHandle final : HandleObject {
  using CHandle = iree_rt_buffer_t;
  static constexpr HandleType kType = HandleType::kBuffer;
  explicit BufferHandle(base::Ref<hal::Buffer> buffer)
      : HandleObject(kType), buffer(std::move(buffer)) {}

  // Set once before the handle is published (import creates the handle first so that a failure
  // after the import cannot run the caller's release callback).
  base::Ref<hal::Buffer> buffer;

  // Open mappings: iree_rt_buffer_unmap accepts only pointers recorded here.
  void AddMapping(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    mappings_.push_back(ptr);
  }
  base::Status RemoveMapping(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = std::find(mappings_.begin(), mappings_.end(), ptr);
    if (it == mappings_.end()) {
      return base::InvalidArgumentError("parameter 'ptr' is not an open mapping of this buffer");
    }
    mappings_.erase(it);
    return base::Status::Ok();
  }

 private:
  std::mutex mutex_;
  std::vector<void*> mappings_;
};

struct BufferViewHandle final : HandleObject {
  using CHandle = iree_rt_buffer_view_t;
  static constexpr HandleType kType = HandleType::kBufferView;
  BufferViewHandle(base::Ref<hal::BufferView> view, base::Ref<BufferHandle> buffer)
      : HandleObject(kType), view(std::move(view)), buffer(std::move(buffer)) {}

  const base::Ref<hal::BufferView> view;
  const base::Ref<BufferHandle> buffer;  // the handle iree_rt_buffer_view_buffer lends out
};

struct SemaphoreHandle final : HandleObject {
  using CHandle = iree_rt_semaphore_t;
  static constexpr HandleType kType = HandleType::kSemaphore;
  explicit SemaphoreHandle(base::Ref<hal::Semaphore> semaphore)
      : HandleObject(kType), semaphore(std::move(semaphore)) {}

  const base::Ref<hal::Semaphore> semaphore;
};

// hal::Fence must not be mutated concurrently with other calls, but fence handles are
// thread-safe: Insert replaces the fence with an updated copy (copy-on-write), and every other
// call works on the immutable fence current() returns.
struct FenceHandle final : HandleObject {
  using CHandle = iree_rt_fence_t;
  static constexpr HandleType kType = HandleType::kFence;
  explicit FenceHandle(base::Ref<hal::Fence> fence)
      : HandleObject(kType), fence_(std::move(fence)) {}

  base::Ref<hal::Fence> current() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return fence_;
  }
  base::Status Insert(const base::Ref<hal::Semaphore>& semaphore, uint64_t value) {
    std::lock_guard<std::mutex> lock(mutex_);
    hal::Fence* const old[] = {fence_.get()};
    base::Ref<hal::Fence> next = hal::Fence::Join(old);
    RT_RETURN_IF_ERROR(next->Insert(semaphore, value));
    fence_ = std::move(next);
    return base::Status::Ok();
  }

 private:
  mutable std::mutex mutex_;
  base::Ref<hal::Fence> fence_;
};

struct ExecutableHandle final : HandleObject {
  using CHandle = iree_rt_executable_t;
  static constexpr HandleType kType = HandleType::kExecutable;
  explicit ExecutableHandle(base::Ref<hal::Executable> executable)
      : HandleObject(kType), executable(std::move(executable)) {}

  const base::Ref<hal::Executable> executable;
};

struct CommandBufferHandle final : HandleObject {
  using CHandle = iree_rt_command_buffer_t;
  static constexpr HandleType kType = HandleType::kCommandBuffer;
  explicit CommandBufferHandle(base::Ref<hal::CommandBuffer> command_buffer)
      : HandleObject(kType), command_buffer(std::move(command_buffer)) {}

  const base::Ref<hal::CommandBuffer> command_buffer;
};

// C handle type -> handle object type.
template <typename C>
struct HandleTraits;
template <>
struct HandleTraits<iree_rt_instance_options_t> {
  using Object = InstanceOptionsHandle;
};
template <>
struct HandleTraits<iree_rt_instance_t> {
  using Object = InstanceHandle;
};
template <>
struct HandleTraits<iree_rt_device_info_list_t> {
  using Object = DeviceInfoListHandle;
};
template <>
struct HandleTraits<iree_rt_device_options_t> {
  using Object = DeviceOptionsHandle;
};
template <>
struct HandleTraits<iree_rt_device_t> {
  using Object = DeviceHandle;
};
template <>
struct HandleTraits<iree_rt_buffer_t> {
  using Object = BufferHandle;
};
template <>
struct HandleTraits<iree_rt_buffer_view_t> {
  using Object = BufferViewHandle;
};
template <>
struct HandleTraits<iree_rt_semaphore_t> {
  using Object = SemaphoreHandle;
};
template <>
struct HandleTraits<iree_rt_fence_t> {
  using Object = FenceHandle;
};
template <>
struct HandleTraits<iree_rt_executable_t> {
  using Object = ExecutableHandle;
};
template <>
struct HandleTraits<iree_rt_command_buffer_t> {
  using Object = CommandBufferHandle;
};

template <typename C>
using HandleObjectOf = typename HandleTraits<C>::Object;

// Index meaning "|name| is a parameter, not an array entry".
inline constexpr size_t kNoIndex = ~size_t{0};

// INVALID_ARGUMENT naming |name| (or |name|[|index|]) unless |object| is a live handle of |type|.
base::Status CheckHandle(const HandleObject* object, HandleType type, const char* name,
                         size_t index);

// The object behind a required handle. INVALID_ARGUMENT naming the parameter if |handle| is NULL,
// released, or of another type.
template <typename C>
base::StatusOr<HandleObjectOf<C>*> FromHandle(C handle, const char* name, size_t index = kNoIndex) {
  using Object = HandleObjectOf<C>;
  if (!handle) {
    return index == kNoIndex
               ? base::InvalidArgumentError("parameter '", name, "' is NULL")
               : base::InvalidArgumentError("parameter '", name, "[", index, "]' is NULL");
  }
  auto* object = reinterpret_cast<HandleObject*>(handle);
  RT_RETURN_IF_ERROR(CheckHandle(object, Object::kType, name, index));
  return static_cast<Object*>(object);
}

// As FromHandle, but NULL is allowed and gives nullptr.
template <typename C>
base::StatusOr<HandleObjectOf<C>*> FromNullableHandle(C handle, const char* name,
                                                      size_t index = kNoIndex) {
  if (!handle) return static_cast<HandleObjectOf<C>*>(nullptr);
  return FromHandle(handle, name, index);
}

// The object behind |handle| if it is a live handle of the right type, else nullptr. For the
// functions that cannot report errors (retain/release).
template <typename C>
HandleObjectOf<C>* LiveObjectOrNull(C handle) {
  using Object = HandleObjectOf<C>;
  auto* object = reinterpret_cast<HandleObject*>(handle);
  if (!object || !object->IsLive() || object->type() != Object::kType) return nullptr;
  return static_cast<Object*>(object);
}

// Hands the caller the reference |object| holds (+1).
template <typename Object>
typename Object::CHandle ToHandle(base::Ref<Object> object) {
  return reinterpret_cast<typename Object::CHandle>(static_cast<HandleObject*>(object.Detach()));
}

// A borrowed handle for |object|.
template <typename Object>
typename Object::CHandle BorrowHandle(Object* object) {
  return reinterpret_cast<typename Object::CHandle>(static_cast<HandleObject*>(object));
}

template <typename C>
void RetainHandle(C handle) {
  if (auto* object = LiveObjectOrNull(handle)) object->AddRef();
}

template <typename C>
void ReleaseHandle(C handle) {
  if (auto* object = LiveObjectOrNull(handle)) object->Release();
}

// What an iree_rt_status_t points to.
struct StatusRecord {
  iree_rt_status_code_t code;
  std::string message;
  bool is_static;  // the preallocated out-of-memory record, which is never freed
};

inline iree_rt_status_t ToApiStatus(StatusRecord* record) {
  return reinterpret_cast<iree_rt_status_t>(record);
}
inline StatusRecord* FromApiStatus(iree_rt_status_t status) {
  return reinterpret_cast<StatusRecord*>(status);
}

// An exported function as the type-erased pointer iree_rt_get_proc returns.
template <typename Function>
iree_rt_proc_t ToProc(Function* function) {
  return reinterpret_cast<iree_rt_proc_t>(function);
}

}  // namespace iree_rt::api

#endif  // IREE_RT_API_HANDLES_H_
