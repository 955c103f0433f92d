// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RefObject: an intrusive, thread-safe reference count, and Ref<T>, its smart pointer.
//
// Objects start with one reference owned by whoever created them (MakeRef returns it).
// Intrusive counting lets a raw pointer cross the C ABI and be re-adopted without a
// side table, and lets HAL objects be retained by the commands that use them.
#ifndef IREE_RT_BASE_REF_OBJECT_H_
#define IREE_RT_BASE_REF_OBJECT_H_

#include <atomic>
#include <cstdint>
#include <utility>

namespace iree_rt::base {

class RefObject {
 public:
  RefObject(const RefObject&) = delete;
  RefObject& operator=(const RefObject&) = delete;

  void AddRef() const { ref_count_.fetch_add(1, std::memory_order_relaxed); }
  void Release() const {
    // acq_rel: the deleting thread must see every write made before other releases.
    if (ref_count_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  int32_t ref_count_for_testing() const { return ref_count_.load(std::memory_order_relaxed); }
  // The count, read with acquire (so releases by other threads happen before). Exact only to a
  // caller that knows nobody else can add references, e.g. because it holds all of them.
  int32_t ref_count() const { return ref_count_.load(std::memory_order_acquire); }

 protected:
  RefObject() = default;
  virtual ~RefObject() = default;

 private:
  mutable std::atomic<int32_t> ref_count_{1};
};

template <typename T>
class Ref {
 public:
  Ref() = default;
  Ref(std::nullptr_t) {}  // NOLINT: implicit from nullptr
  Ref(const Ref& other) : ptr_(other.ptr_) { if (ptr_) ptr_->AddRef(); }
  Ref(Ref&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  template <typename U>
  Ref(const Ref<U>& other) : ptr_(other.get()) { if (ptr_) ptr_->AddRef(); }  // NOLINT
  template <typename U>
  Ref(Ref<U>&& other) : ptr_(other.Detach()) {}  // NOLINT
  ~Ref() { if (ptr_) ptr_->Release(); }

  Ref& operator=(Ref other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }

  // Takes over a reference the caller already owns (e.g. one held by a C handle).
  static Ref Adopt(T* ptr) {
    Ref ref;
    ref.ptr_ = ptr;
    return ref;
  }
  // Adds a reference to a borrowed pointer.
  static Ref Retain(T* ptr) {
    if (ptr) ptr->AddRef();
    return Adopt(ptr);
  }
  // Gives up ownership without releasing.
  T* Detach() { return std::exchange(ptr_, nullptr); }

  T* get() const { return ptr_; }
  T* operator->() const { return ptr_; }
  T& operator*() const { return *ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  bool operator==(const Ref& other) const { return ptr_ == other.ptr_; }
  bool operator==(std::nullptr_t) const { return ptr_ == nullptr; }

 private:
  T* ptr_ = nullptr;
};

// A Ref lent for the duration of a call, for APIs that take `const Ref<T>&`: it neither adds
// nor drops a reference, so the lender must keep the object alive while it exists. A callee
// that keeps the object copies the Ref, which retains as usual. Hot paths use it to skip two
// atomic operations per object (a program call passes a dozen refs to queue operations).
template <typename T>
class BorrowedRef {
 public:
  explicit BorrowedRef(T* ptr) : ref_(Ref<T>::Adopt(ptr)) {}
  BorrowedRef(const BorrowedRef&) = delete;
  BorrowedRef& operator=(const BorrowedRef&) = delete;
  ~BorrowedRef() { ref_.Detach(); }

  const Ref<T>& ref() const { return ref_; }

 private:
  Ref<T> ref_;
};

template <typename T, typename... Args>
Ref<T> MakeRef(Args&&... args) {
  return Ref<T>::Adopt(new T(std::forward<Args>(args)...));
}

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_REF_OBJECT_H_
