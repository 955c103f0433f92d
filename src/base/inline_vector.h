// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// InlineVector<T, N>: a vector whose first N elements live inside the object, for the short
// lists of hot paths (a fence's timepoints, a call's semaphores) that would otherwise allocate
// on every use. Only what those paths need: push_back, indexing, iteration, clear.
#ifndef IREE_RT_BASE_INLINE_VECTOR_H_
#define IREE_RT_BASE_INLINE_VECTOR_H_

#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <utility>

namespace iree_rt::base {

template <typename T, size_t N>
class InlineVector {
 public:
  InlineVector() = default;
  InlineVector(const InlineVector& other) {
    for (const T& value : other) push_back(value);
  }
  InlineVector& operator=(const InlineVector& other) {
    if (this != &other) {
      clear();
      for (const T& value : other) push_back(value);
    }
    return *this;
  }
  ~InlineVector() {
    clear();
    if (data_ != inline_data()) ::operator delete(data_, std::align_val_t{alignof(T)});
  }

  void push_back(T value) {
    if (size_ == capacity_) Grow();
    new (&data_[size_++]) T(std::move(value));
  }
  void clear() {
    for (size_t i = 0; i < size_; ++i) data_[i].~T();
    size_ = 0;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  operator std::span<const T>() const { return {data_, size_}; }  // NOLINT: implicit view

 private:
  T* inline_data() { return reinterpret_cast<T*>(storage_); }

  void Grow() {
    const size_t capacity = capacity_ * 2;
    T* grown = static_cast<T*>(::operator new(capacity * sizeof(T), std::align_val_t{alignof(T)}));
    for (size_t i = 0; i < size_; ++i) {
      new (&grown[i]) T(std::move(data_[i]));
      data_[i].~T();
    }
    if (data_ != inline_data()) ::operator delete(data_, std::align_val_t{alignof(T)});
    data_ = grown;
    capacity_ = capacity;
  }

  alignas(T) std::byte storage_[N * sizeof(T)];
  T* data_ = inline_data();
  size_t size_ = 0;
  size_t capacity_ = N;
};

}  // namespace iree_rt::base

#endif  // IREE_RT_BASE_INLINE_VECTOR_H_
