// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// vm::Stack: the execution state of one invocation, created by the caller of Module::Call.
//
// It outlives a DEFERRED return, so a yielding module keeps its frames here (in its extension
// slot) and the caller resumes through suspended(). It also carries the invocation's limits:
// nesting depth, so runaway recursion becomes RESOURCE_EXHAUSTED instead of a native stack
// overflow, and a step budget that the interpreter spends on backward branches and calls.
#ifndef IREE_RT_VM_STACK_H_
#define IREE_RT_VM_STACK_H_

#include <cstddef>
#include <memory>
#include <cstdint>
#include <string>

#include "base/status.h"

namespace iree_rt::vm {

class Module;

class Stack {
 public:
  // Module-owned storage that must survive yields (the interpreter's frames and registers).
  class Extension {
   public:
    virtual ~Extension() = default;
    // Holds nothing of a call (no frames): the stack may serve another call.
    virtual bool idle() const { return true; }
    // Identifies the concrete class for cheap down-casts (the address of a static of it): every
    // call starts with one, and GCC's dynamic_cast costs a hundred instructions even on a final
    // class.
    virtual const void* type_tag() const { return nullptr; }
  };

  static constexpr size_t kDefaultMaxDepth = 1024;

  explicit Stack(size_t max_depth = kDefaultMaxDepth) : max_depth_(max_depth) {}
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;

  // The module to Resume after a DEFERRED return; null otherwise.
  Module* suspended() const { return suspended_; }
  void set_suspended(Module* module) { suspended_ = module; }

  Extension* extension() const { return extension_.get(); }
  void set_extension(std::unique_ptr<Extension> extension) { extension_ = std::move(extension); }

  // Sets the limits of the next invocation (the context's, at each call from the host).
  void set_limits(size_t max_depth, uint64_t max_steps) {
    max_depth_ = max_depth;
    max_steps_ = max_steps;
    steps_left = max_steps;
  }

  // Counts one level of call nesting; RESOURCE_EXHAUSTED past the limit. Pair with Leave().
  base::Status Enter() {
    if (depth_ >= max_depth_) {
      return base::Status(base::StatusCode::kResourceExhausted,
                          "VM stack overflow: call depth of " + std::to_string(depth_ + 1) +
                              " frames exceeds the limit of " + std::to_string(max_depth_) +
                              " (IREE_RT_LIMIT_MAX_CALL_DEPTH)");
    }
    ++depth_;
    return base::Status();
  }
  // Enter without building a Status: false (and no count) past the limit, where Enter() then
  // gives the error.
  bool TryEnter() {
    if (depth_ >= max_depth_) return false;
    ++depth_;
    return true;
  }
  void Leave() { --depth_; }
  size_t depth() const { return depth_; }
  size_t max_depth() const { return max_depth_; }

  // The step budget: the interpreter decrements |steps_left| in place (no call, no atomic) and
  // fails the invocation with StepsExhausted() when it reaches zero.
  uint64_t steps_left = UINT64_MAX;
  uint64_t max_steps() const { return max_steps_; }
  base::Status StepsExhausted() const {
    return base::Status(base::StatusCode::kResourceExhausted,
                        "VM step budget exhausted: the call ran more than " +
                            std::to_string(max_steps_) +
                            " backward branches and calls (IREE_RT_LIMIT_MAX_CALL_STEPS)");
  }

  // Nothing of a call is left on it: it may be reused, keeping its extension's storage.
  bool reusable() const {
    return depth_ == 0 && suspended_ == nullptr && (!extension_ || extension_->idle());
  }

 private:
  size_t max_depth_;
  uint64_t max_steps_ = UINT64_MAX;
  size_t depth_ = 0;
  Module* suspended_ = nullptr;
  std::unique_ptr<Extension> extension_;
};

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_STACK_H_
