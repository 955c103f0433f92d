// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The calls the concurrency and soak tests make from many threads, through the C ABI only: the
// functions of programs/workload.mlir with inputs that depend on a seed, and their results
// checked against values computed here (integer-valued floats, so exact).
#ifndef IREE_RT_TESTS_STRESS_WORKLOAD_H_
#define IREE_RT_TESTS_STRESS_WORKLOAD_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "iree_rt.h"

namespace iree_rt_stress {

// Owns one reference to a handle of the C ABI. Move-only.
template <typename T, void (*Release)(T)>
class Owned {
 public:
  Owned() = default;
  explicit Owned(T handle) : handle_(handle) {}
  Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) reset(std::exchange(other.handle_, nullptr));
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() { reset(); }

  void reset(T handle = nullptr) {
    if (handle_) Release(handle_);
    handle_ = handle;
  }
  T get() const { return handle_; }
  T* out() {
    reset();
    return &handle_;
  }

 private:
  T handle_ = nullptr;
};

using Instance = Owned<iree_rt_instance_t, iree_rt_instance_release>;
using Device = Owned<iree_rt_device_t, iree_rt_device_release>;
using Module = Owned<iree_rt_module_t, iree_rt_module_release>;
using Context = Owned<iree_rt_context_t, iree_rt_context_release>;
using Function = Owned<iree_rt_function_t, iree_rt_function_release>;
using ValueList = Owned<iree_rt_value_list_t, iree_rt_value_list_release>;
using Buffer = Owned<iree_rt_buffer_t, iree_rt_buffer_release>;
using BufferView = Owned<iree_rt_buffer_view_t, iree_rt_buffer_view_release>;
using Semaphore = Owned<iree_rt_semaphore_t, iree_rt_semaphore_release>;
using Fence = Owned<iree_rt_fence_t, iree_rt_fence_release>;

// "" for OK; otherwise "CODE: message". Frees |status|.
std::string Describe(iree_rt_status_t status);

inline constexpr int kMatmulSize = 32;
inline constexpr int kAccumSize = 16;

// A context of the workload module (linked after a hal module on one device) and its functions.
class WorkloadContext {
 public:
  // Links |hal| and |program| in a new context. "" on success, else what failed.
  std::string Create(iree_rt_instance_t instance, iree_rt_module_t hal, iree_rt_module_t program);

  // Calls matmul_add with inputs derived from |seed| and checks every element of the result.
  // "" on success, else what differed or failed.
  std::string MatmulAdd(iree_rt_device_t device, int seed);
  // Calls increment; its result (calls so far in this context) goes to |out_count|.
  std::string Increment(int32_t* out_count);
  // Calls accumulate with every element |delta|; the new sum's first element goes to |out_sum|
  // after checking that all elements are equal.
  std::string Accumulate(iree_rt_device_t device, float delta, float* out_sum);

  iree_rt_function_t matmul_add() const { return matmul_add_.get(); }

 private:
  Context context_;
  Function matmul_add_, increment_, accumulate_;
};

// Inputs of matmul_add for |seed| as three buffer views, and the expected result.
struct MatmulCase {
  std::string Make(iree_rt_device_t device, int seed);
  // Checks result 0 of |results| against |expected|.
  std::string Check(iree_rt_value_list_t results) const;

  BufferView a, b, c;
  std::vector<float> expected;
};

// Bytes of C heap in use now: the sanitizer allocator's count in sanitizer builds, else glibc's
// mallinfo2. Returns -1 where neither is available.
int64_t HeapBytesInUse();
// Resident set size in bytes (/proc/self/statm), or -1.
int64_t ResidentBytes();

}  // namespace iree_rt_stress

#endif  // IREE_RT_TESTS_STRESS_WORKLOAD_H_
