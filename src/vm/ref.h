// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::Ref: a retained reference to an object the VM can hold in a ref register, with its type.
//
// Objects exposed to programs derive from base::RefObject and are described by a RefType, a
// statically allocated descriptor whose address is its identity (one per type name, e.g.
// "vm.buffer", "hal.buffer_view"). A class opts in by specializing RefTypeOf<T>, which lets
// typed access (Ref::Get<T>) check the type without RTTI. The VM layer never includes hal/:
// modules/hal provides the specializations for HAL objects. RefView is the borrowed form (no
// count), for native-call arguments (vm/arg.h).
#ifndef IREE_RT_VM_REF_H_
#define IREE_RT_VM_REF_H_

#include <string_view>
#include <utility>

#include "base/ref_object.h"

namespace iree_rt::vm {

struct RefType {
  std::string_view name;  // the type table spelling without '!': "vm.list", "hal.buffer"
};

// Specialize as `template <> const RefType* RefTypeOf<Foo>() { return &kFooType; }`.
template <typename T>
const RefType* RefTypeOf();

class Ref {
 public:
  Ref() = default;
  Ref(const Ref& other) : ptr_(other.ptr_), type_(other.type_) {
    if (ptr_) ptr_->AddRef();
  }
  Ref(Ref&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), type_(std::exchange(other.type_, nullptr)) {}
  ~Ref() { if (ptr_) ptr_->Release(); }
  Ref& operator=(const Ref& other) {
    if (other.ptr_) other.ptr_->AddRef();
    Reset();
    ptr_ = other.ptr_;
    type_ = other.type_;
    return *this;
  }
  Ref& operator=(Ref&& other) noexcept {
    if (this != &other) {
      Reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      type_ = std::exchange(other.type_, nullptr);
    }
    return *this;
  }

  // Takes the reference held by |object|.
  template <typename T>
  static Ref Make(base::Ref<T> object) {
    Ref ref;
    ref.type_ = object ? RefTypeOf<T>() : nullptr;
    ref.ptr_ = object.Detach();
    return ref;
  }
  // Adds a reference to a borrowed |object| of type |type|.
  static Ref Retain(base::RefObject* object, const RefType* type) {
    Ref ref;
    if (object) {
      object->AddRef();
      ref.ptr_ = object;
      ref.type_ = type;
    }
    return ref;
  }

  // Takes over a reference someone else counted (no count change); pairs with Detach().
  static Ref Adopt(base::RefObject* object, const RefType* type) {
    Ref ref;
    ref.ptr_ = object;
    ref.type_ = object ? type : nullptr;
    return ref;
  }
  // Gives the reference up without releasing it: the caller now owns that count.
  base::RefObject* Detach() {
    type_ = nullptr;
    return std::exchange(ptr_, nullptr);
  }

  void Reset() {
    if (ptr_) std::exchange(ptr_, nullptr)->Release();
    type_ = nullptr;
  }

  bool is_null() const { return ptr_ == nullptr; }
  explicit operator bool() const { return ptr_ != nullptr; }
  const RefType* type() const { return type_; }
  base::RefObject* object() const { return ptr_; }

  // The object as T, or null when the ref is null or of another type.
  template <typename T>
  T* Get() const {
    return type_ == RefTypeOf<T>() ? static_cast<T*>(ptr_) : nullptr;
  }
  // A new base::Ref<T> sharing the object, or null as Get<T>.
  template <typename T>
  base::Ref<T> GetRef() const {
    return base::Ref<T>::Retain(Get<T>());
  }

  // Same object (and type); two null refs are equal.
  bool operator==(const Ref& other) const { return ptr_ == other.ptr_ && type_ == other.type_; }

 private:
  base::RefObject* ptr_ = nullptr;
  const RefType* type_ = nullptr;
};

// A borrowed reference: what a Ref offers for reading, without owning a count. Whoever made it
// keeps the object alive for as long as the view is used.
class RefView {
 public:
  RefView() = default;
  RefView(base::RefObject* object, const RefType* type)
      : ptr_(object), type_(object ? type : nullptr) {}

  bool is_null() const { return ptr_ == nullptr; }
  explicit operator bool() const { return ptr_ != nullptr; }
  const RefType* type() const { return type_; }
  base::RefObject* object() const { return ptr_; }
  template <typename T>
  T* Get() const {
    return type_ == RefTypeOf<T>() ? static_cast<T*>(ptr_) : nullptr;
  }
  template <typename T>
  base::Ref<T> GetRef() const {
    return base::Ref<T>::Retain(Get<T>());
  }
  // An owning Ref to the same object (adds a count).
  Ref Retain() const { return Ref::Retain(ptr_, type_); }

 private:
  base::RefObject* ptr_ = nullptr;
  const RefType* type_ = nullptr;
};

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_REF_H_
