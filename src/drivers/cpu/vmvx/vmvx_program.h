// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cpu::VmvxProgram: a VMVX executable (format "vmvx-bytecode-fb"), IREE's portable CPU target.
// Its data is a VM bytecode module whose exports are the dispatch entry points, each
//   (local_memory: vm.buffer, constants: vm.buffer, bindings: vm.list<vm.buffer>,
//    workgroup_id xyz, workgroup_size xyz, workgroup_count xyz: i32) -> ()   cconv 0rrriiiiiiiii_v
// with optional reflection attrs binding_count, constant_count and local_memory (bytes). It may
// import the native `vmvx` module's microkernels (modules/vmvx). Exports whose names start with
// "__" and whose signature is not the dispatch signature (__init, __set_constants, __deinit) are
// not entry points; every other export is one (the compiler's builtins, such as
// __builtin_splat_i64 for i64 fills, are linked in as "__" exports with the dispatch signature),
// and entry point ordinals count them in export order. Executable-level constants reach the
// module through its `__set_constants(vm.buffer)` export, which each context calls once.
//
// This is the CPU driver's one dependency on the VM (as IREE's VMVX loader): the executable is
// a program, so it is run by the same loader, verifier and interpreter as whole programs, and
// everything the interpreter guarantees for untrusted modules holds for its dispatches.
//
// Thread-safety: a vm::Context runs one call at a time, so workgroups take a context from a pool
// (one per concurrently running workgroup, created on demand and kept) and return it after. A
// binding's vm.buffer wraps the dispatch's memory only for its workgroup: a program that keeps
// one past its call (in a global) fails the workgroup and its context is discarded, so no
// buffer outlives the memory it points to.
#ifndef IREE_RT_DRIVERS_CPU_VMVX_VMVX_PROGRAM_H_
#define IREE_RT_DRIVERS_CPU_VMVX_VMVX_PROGRAM_H_

#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

#include "base/ref_object.h"
#include "base/status.h"
#include "drivers/cpu/dispatch_program.h"

namespace iree_rt::vm {
class Instance;
class Module;
}  // namespace iree_rt::vm

namespace iree_rt::drivers::cpu {

class VmvxProgram final : public DispatchProgram {
 public:
  static constexpr std::string_view kFormat = "vmvx-bytecode-fb";

  // Loads |data| (copied) and links one context to prove the module runs here. Errors name the
  // executable: INVALID_ARGUMENT for data that is not a valid bytecode module (the loader's and
  // verifier's messages) or an entry point with another signature or a bad attr; NOT_FOUND for
  // an import the `vmvx` module lacks (linking's message names it); FAILED_PRECONDITION when
  // |constants| do not match what the module declares; errors of __set_constants.
  static base::StatusOr<std::unique_ptr<VmvxProgram>> Load(std::span<const uint8_t> data,
                                                           std::span<const uint32_t> constants);
  ~VmvxProgram() override;

  uint32_t export_count() const override { return static_cast<uint32_t>(exports_.size()); }
  const ExportInfo& export_info(uint32_t ordinal) const override { return exports_[ordinal]; }
  const std::string& name() const override { return name_; }
  base::Status RunWorkgroup(uint32_t ordinal, const DispatchStateV0& state, uint32_t x,
                            uint32_t y, uint32_t z, uint32_t processor_id, void* local_memory,
                            uint32_t local_memory_size) const override;

 private:
  struct Worker;
  VmvxProgram();
  base::Status Initialize(std::span<const uint8_t> data, std::span<const uint32_t> constants);
  base::StatusOr<std::unique_ptr<Worker>> CreateWorker() const;
  base::StatusOr<std::unique_ptr<Worker>> AcquireWorker() const;
  void ReleaseWorker(std::unique_ptr<Worker> worker) const;

  std::string name_;  // the module's name, for messages
  base::Ref<vm::Instance> instance_;
  base::Ref<vm::Module> vmvx_module_;
  base::Ref<vm::Module> module_;
  std::vector<uint32_t> constants_;
  std::vector<ExportInfo> exports_;
  std::vector<uint32_t> export_ordinals_;  // entry point -> the module's export ordinal
  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<Worker>> idle_workers_;
};

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_DRIVERS_CPU_VMVX_VMVX_PROGRAM_H_
