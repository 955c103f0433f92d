// vm::Stack: the execution state of one invocation, created by the caller of Module::Call.
//
// It outlives a DEFERRED return, so a yielding module keeps its frames here (in its extension
// slot) and the caller resumes through suspended(). It also bounds nesting depth, so runaway
// recursion becomes RESOURCE_EXHAUSTED instead of a native stack overflow.
#ifndef IREE_RT_VM_STACK_H_
#define IREE_RT_VM_STACK_H_

#include <cstddef>
#include <memory>
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

  // Counts one level of call nesting; RESOURCE_EXHAUSTED past the limit. Pair with Leave().
  base::Status Enter() {
    if (depth_ >= max_depth_) {
      return base::Status(base::StatusCode::kResourceExhausted,
                          "VM stack overflow: call depth exceeds the limit of " +
                              std::to_string(max_depth_));
    }
    ++depth_;
    return base::Status();
  }
  void Leave() { --depth_; }
  size_t depth() const { return depth_; }
  size_t max_depth() const { return max_depth_; }

  // Nothing of a call is left on it: it may be reused, keeping its extension's storage.
  bool reusable() const {
    return depth_ == 0 && suspended_ == nullptr && (!extension_ || extension_->idle());
  }

 private:
  size_t max_depth_;
  size_t depth_ = 0;
  Module* suspended_ = nullptr;
  std::unique_ptr<Extension> extension_;
};

}  // namespace iree_rt::vm

#endif  // IREE_RT_VM_STACK_H_
