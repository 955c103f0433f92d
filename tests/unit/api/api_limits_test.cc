// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C ABI tests of the configurable limits, on modules compiled at build time
// (tests/testdata/vm/limits.mlir, limits_hal.mlir): each limit stops a real program with
// RESOURCE_EXHAUSTED naming the limit, the request and the cap, the context keeps working, and
// memory a context charged is returned once its objects die.
#include <string>
#include <vector>

#include "test_util.h"

namespace iree_rt_test {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

std::string ModulePath(const char* name) {
  return std::string(IREE_RT_TEST_VM_MODULES_DIR) + "/rt_vm_" + name + ".vmfb";
}

class LimitsTest : public ApiTest {
 protected:
  iree_rt_module_t Load(const char* name, iree_rt_instance_t instance = nullptr) {
    iree_rt_module_t module = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_module_load_file(instance ? instance : instance_,
                                              ModulePath(name).c_str(), &module)));
    return Keep(module, iree_rt_module_release);
  }
  iree_rt_context_t Link(std::vector<iree_rt_module_t> modules,
                         iree_rt_instance_t instance = nullptr) {
    iree_rt_context_t context = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_context_create(instance ? instance : instance_, modules.data(),
                                            modules.size(), &context)));
    return Keep(context, iree_rt_context_release);
  }
  // The `limits` program in a context of its own.
  void SetUpProgram() {
    context_ = Link({Load("limits")});
    args_ = NewList();
    results_ = NewList();
  }
  iree_rt_value_list_t NewList() {
    iree_rt_value_list_t list = nullptr;
    EXPECT_TRUE(IsOk(iree_rt_value_list_create(2, &list)));
    return Keep(list, iree_rt_value_list_release);
  }
  // Calls |name| of |context_| with one scalar argument (i32 or i64); results land in results_.
  iree_rt_status_t Call(const char* name, int64_t arg, bool wide = false) {
    iree_rt_function_t function = nullptr;
    iree_rt_status_t status = iree_rt_context_lookup_function(context_, name, &function);
    if (status) return status;
    EXPECT_TRUE(IsOk(iree_rt_value_list_clear(args_)));
    EXPECT_TRUE(IsOk(iree_rt_value_list_clear(results_)));
    EXPECT_TRUE(IsOk(wide ? iree_rt_value_list_push_i64(args_, arg)
                          : iree_rt_value_list_push_i32(args_, static_cast<int32_t>(arg))));
    status = iree_rt_function_call(function, args_, results_);
    iree_rt_function_release(function);
    return status;
  }
  int32_t ResultI32() {
    int32_t value = -1;
    EXPECT_TRUE(IsOk(iree_rt_value_list_get_i32(results_, 0, &value)));
    return value;
  }
  uint64_t MemoryUsed() {
    uint64_t bytes = 0;
    EXPECT_TRUE(IsOk(iree_rt_context_memory_used(context_, &bytes)));
    return bytes;
  }
  void SetLimit(iree_rt_limit_t limit, uint64_t value) {
    ASSERT_TRUE(IsOk(iree_rt_context_set_limit(context_, limit, value)));
  }

  iree_rt_context_t context_ = nullptr;
  iree_rt_value_list_t args_ = nullptr;
  iree_rt_value_list_t results_ = nullptr;
};

TEST_F(LimitsTest, ContextsStartWithTheDocumentedDefaults) {
  SetUpProgram();
  const std::pair<iree_rt_limit_t, uint64_t> defaults[] = {
      {IREE_RT_LIMIT_MAX_CALL_DEPTH, 1024},
      {IREE_RT_LIMIT_MAX_LIST_LENGTH, uint64_t{1} << 24},
      {IREE_RT_LIMIT_MAX_ALLOCATION_SIZE, uint64_t{1} << 34},
      {IREE_RT_LIMIT_MAX_CONTEXT_MEMORY, IREE_RT_LIMIT_UNLIMITED},
      {IREE_RT_LIMIT_MAX_MODULE_SIZE, uint64_t{1} << 34},
      {IREE_RT_LIMIT_MAX_CALL_STEPS, IREE_RT_LIMIT_UNLIMITED},
  };
  for (const auto& [limit, expected] : defaults) {
    uint64_t value = 0;
    ASSERT_TRUE(IsOk(iree_rt_context_get_limit(context_, limit, &value)));
    EXPECT_EQ(value, expected) << "limit " << limit;
  }
}

TEST_F(LimitsTest, UnknownLimitsAndZeroValuesAreInvalid) {
  SetUpProgram();
  iree_rt_instance_options_t options = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_options_create(&options)));
  Keep(options, iree_rt_instance_options_release);
  for (iree_rt_limit_t bad : {IREE_RT_LIMIT_UNSPECIFIED, static_cast<iree_rt_limit_t>(7),
                              IREE_RT_LIMIT_FORCE32}) {
    EXPECT_TRUE(HasCode(iree_rt_instance_options_set_limit(options, bad, 1),
                        IREE_RT_STATUS_INVALID_ARGUMENT, "unknown limit id"));
    EXPECT_TRUE(HasCode(iree_rt_context_set_limit(context_, bad, 1),
                        IREE_RT_STATUS_INVALID_ARGUMENT, "unknown limit id"));
    uint64_t value = 0;
    EXPECT_TRUE(HasCode(iree_rt_context_get_limit(context_, bad, &value),
                        IREE_RT_STATUS_INVALID_ARGUMENT, "unknown limit id"));
  }
  EXPECT_TRUE(HasCode(iree_rt_instance_options_set_limit(options, IREE_RT_LIMIT_MAX_CALL_DEPTH, 0),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "max_call_depth must be at least 1"));
  EXPECT_TRUE(HasCode(iree_rt_context_set_limit(context_, IREE_RT_LIMIT_MAX_CALL_STEPS, 0),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "max_call_steps must be at least 1"));
  EXPECT_TRUE(HasCode(iree_rt_context_set_limit(context_, IREE_RT_LIMIT_MAX_MODULE_SIZE, 1),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "instance options"));
  // Nothing changed.
  uint64_t depth = 0;
  ASSERT_TRUE(IsOk(iree_rt_context_get_limit(context_, IREE_RT_LIMIT_MAX_CALL_DEPTH, &depth)));
  EXPECT_EQ(depth, 1024u);
}

TEST_F(LimitsTest, CallDepth) {
  SetUpProgram();
  ASSERT_TRUE(IsOk(Call("chain8", 5)));  // 9 frames
  EXPECT_EQ(ResultI32(), 13);
  SetLimit(IREE_RT_LIMIT_MAX_CALL_DEPTH, 8);
  EXPECT_TRUE(HasCode(Call("chain8", 5), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "call depth of 9 frames exceeds the limit of 8 "
                      "(IREE_RT_LIMIT_MAX_CALL_DEPTH)"));
  SetLimit(IREE_RT_LIMIT_MAX_CALL_DEPTH, 9);
  ASSERT_TRUE(IsOk(Call("chain8", 1)));
  EXPECT_EQ(ResultI32(), 9);
}

TEST_F(LimitsTest, InstanceLimitsApplyToItsContexts) {
  iree_rt_instance_options_t options = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_options_create(&options)));
  ASSERT_TRUE(IsOk(iree_rt_instance_options_set_limit(options, IREE_RT_LIMIT_MAX_CALL_DEPTH, 4)));
  ASSERT_TRUE(IsOk(iree_rt_instance_options_set_limit(options, IREE_RT_LIMIT_MAX_CALL_DEPTH, 3)));
  iree_rt_instance_t instance = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, options, &instance)));
  iree_rt_instance_options_release(options);  // the instance copied them
  Keep(instance, iree_rt_instance_release);
  context_ = Link({Load("limits", instance)}, instance);
  args_ = NewList();
  results_ = NewList();
  EXPECT_TRUE(HasCode(Call("chain8", 0), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "exceeds the limit of 3 (IREE_RT_LIMIT_MAX_CALL_DEPTH)"));
  ASSERT_TRUE(IsOk(Call("count", 3)));  // one frame
  EXPECT_EQ(ResultI32(), 3);
}

TEST_F(LimitsTest, StepBudgetStopsRunawayLoops) {
  SetUpProgram();
  SetLimit(IREE_RT_LIMIT_MAX_CALL_STEPS, 1000);
  EXPECT_TRUE(HasCode(Call("spin", 0), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "more than 1000 backward branches and calls "
                      "(IREE_RT_LIMIT_MAX_CALL_STEPS)"));
  // The message carries the VM backtrace like any program failure.
  EXPECT_TRUE(HasCode(Call("spin", 0), IREE_RT_STATUS_RESOURCE_EXHAUSTED, "limits.spin"));
  // Each call gets the whole budget: a loop of 999 back-edges runs, one of 1001 does not.
  ASSERT_TRUE(IsOk(Call("count", 999)));
  EXPECT_EQ(ResultI32(), 999);
  ASSERT_TRUE(IsOk(Call("count", 999)));
  EXPECT_TRUE(HasCode(Call("count", 1001), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "IREE_RT_LIMIT_MAX_CALL_STEPS"));
  // Calls spend it too: chain8 makes 8 calls and no backward branch.
  SetLimit(IREE_RT_LIMIT_MAX_CALL_STEPS, 8);
  ASSERT_TRUE(IsOk(Call("chain8", 0)));
  SetLimit(IREE_RT_LIMIT_MAX_CALL_STEPS, 7);
  EXPECT_TRUE(HasCode(Call("chain8", 0), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "more than 7 backward branches"));
  SetLimit(IREE_RT_LIMIT_MAX_CALL_STEPS, IREE_RT_LIMIT_UNLIMITED);
  ASSERT_TRUE(IsOk(Call("count", 100000)));
  EXPECT_EQ(ResultI32(), 100000);
}

TEST_F(LimitsTest, ListLength) {
  SetUpProgram();
  SetLimit(IREE_RT_LIMIT_MAX_LIST_LENGTH, 1000);
  ASSERT_TRUE(IsOk(Call("grow_list", 1000)));
  iree_rt_value_list_t list = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_list(results_, 0, &list)));
  size_t size = 0;
  EXPECT_TRUE(IsOk(iree_rt_value_list_size(list, &size)));
  EXPECT_EQ(size, 1000u);
  // The cap stays with the list: the host cannot grow it past the limit either.
  EXPECT_TRUE(HasCode(iree_rt_value_list_push_i32(list, 1), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "IREE_RT_LIMIT_MAX_LIST_LENGTH"));
  iree_rt_value_list_release(list);
  EXPECT_TRUE(HasCode(Call("grow_list", 1001), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "vm.list length of 1001 elements exceeds the limit of 1000 "
                      "(IREE_RT_LIMIT_MAX_LIST_LENGTH)"));
  ASSERT_TRUE(IsOk(Call("grow_list", 10)));
}

TEST_F(LimitsTest, AllocationSize) {
  SetUpProgram();
  // Defaults already turn an absurd request into a status.
  EXPECT_TRUE(HasCode(Call("alloc", int64_t{1} << 40, /*wide=*/true),
                      IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "vm.buffer allocation of 1099511627776 bytes exceeds the limit of "
                      "17179869184 (IREE_RT_LIMIT_MAX_ALLOCATION_SIZE)"));
  SetLimit(IREE_RT_LIMIT_MAX_ALLOCATION_SIZE, kMiB);
  ASSERT_TRUE(IsOk(Call("alloc", kMiB, true)));
  const char* type = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_ref_type(results_, 0, &type)));
  EXPECT_STREQ(type, "vm.buffer");
  EXPECT_TRUE(HasCode(Call("alloc", kMiB + 1, true), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "vm.buffer allocation of 1048577 bytes exceeds the limit of 1048576 "
                      "(IREE_RT_LIMIT_MAX_ALLOCATION_SIZE)"));
}

TEST_F(LimitsTest, ContextMemoryIsChargedAndReturned) {
  SetUpProgram();
  const uint64_t globals = MemoryUsed();
  EXPECT_GT(globals, 0u);  // the module's globals
  SetLimit(IREE_RT_LIMIT_MAX_CONTEXT_MEMORY, 4 * kMiB);

  // Results the caller holds stay charged; releasing them returns the memory.
  ASSERT_TRUE(IsOk(Call("alloc", 3 * kMiB, true)));
  EXPECT_EQ(MemoryUsed(), globals + 3 * kMiB);
  iree_rt_value_list_t held = results_;
  results_ = NewList();
  EXPECT_TRUE(HasCode(Call("alloc", 2 * kMiB, true), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "context memory limit exceeded: vm.buffer allocation needs 2097152 bytes "
                      "with " + std::to_string(globals + 3 * kMiB) +
                          " bytes in use, over the limit of 4194304 bytes "
                          "(IREE_RT_LIMIT_MAX_CONTEXT_MEMORY); live then: vm.buffer 3145728 B in 1 "
                          "(peak 3145728 B)"));
  // ... and the module's globals among what was live.
  EXPECT_TRUE(HasCode(Call("alloc", 2 * kMiB, true), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "globals " + std::to_string(globals) + " B in "));
  EXPECT_EQ(MemoryUsed(), globals + 3 * kMiB);  // the failed call holds nothing
  ASSERT_TRUE(IsOk(iree_rt_value_list_clear(held)));
  EXPECT_EQ(MemoryUsed(), globals);
  ASSERT_TRUE(IsOk(Call("alloc", 2 * kMiB, true)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_clear(results_)));
  EXPECT_EQ(MemoryUsed(), globals);

  // A buffer a global keeps counts until the global lets go of it.
  ASSERT_TRUE(IsOk(Call("keep", 3 * kMiB, true)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_clear(results_)));
  EXPECT_EQ(MemoryUsed(), globals + 3 * kMiB);
  ASSERT_TRUE(IsOk(Call("keep", 16, true)));
  EXPECT_EQ(MemoryUsed(), globals + 16);

  // List storage counts too: growing one by doubling runs out before 1M i32 elements.
  EXPECT_TRUE(HasCode(Call("grow_list", 1 << 20), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "IREE_RT_LIMIT_MAX_CONTEXT_MEMORY"));
  EXPECT_EQ(MemoryUsed(), globals + 16);
  ASSERT_TRUE(IsOk(Call("grow_list", 1000)));
  EXPECT_GE(MemoryUsed(), globals + 16 + 4000);
  ASSERT_TRUE(IsOk(iree_rt_value_list_clear(results_)));
  EXPECT_EQ(MemoryUsed(), globals + 16);
}

TEST_F(LimitsTest, ContextMemoryCoversHalBuffers) {
  iree_rt_module_t hal = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_module_create_hal(instance_, &device_, 1, &hal)));
  Keep(hal, iree_rt_module_release);
  context_ = Link({hal, Load("limits_hal")});
  iree_rt_function_t fill = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_context_lookup_function(context_, "fill", &fill)));
  Keep(fill, iree_rt_function_release);
  iree_rt_value_list_t args = NewList();
  iree_rt_value_list_t results = NewList();
  auto call = [&](int64_t count) {
    EXPECT_TRUE(IsOk(iree_rt_value_list_clear(args)));
    EXPECT_TRUE(IsOk(iree_rt_value_list_clear(results)));
    EXPECT_TRUE(IsOk(iree_rt_value_list_push_i64(args, count)));
    EXPECT_TRUE(IsOk(iree_rt_value_list_push_f32(args, 2.5f)));
    return iree_rt_function_call(fill, args, results);
  };
  const uint64_t baseline = MemoryUsed();
  SetLimit(IREE_RT_LIMIT_MAX_CONTEXT_MEMORY, baseline + kMiB);

  ASSERT_TRUE(IsOk(call(1024)));
  EXPECT_GE(MemoryUsed(), baseline + 4096);
  iree_rt_buffer_view_t view = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_value_list_get_buffer_view(results, 0, &view)));
  iree_rt_buffer_t buffer = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_view_buffer(view, &buffer)));
  float last = 0;
  ASSERT_TRUE(IsOk(iree_rt_buffer_read(buffer, 1023 * sizeof(float), &last, sizeof(last))));
  EXPECT_EQ(last, 2.5f);
  iree_rt_buffer_view_release(view);
  ASSERT_TRUE(IsOk(iree_rt_value_list_clear(results)));
  EXPECT_EQ(MemoryUsed(), baseline);

  EXPECT_TRUE(HasCode(call(1 << 20), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "context memory limit exceeded: hal.buffer allocation needs 4194304 bytes"));
  EXPECT_EQ(MemoryUsed(), baseline);
  SetLimit(IREE_RT_LIMIT_MAX_ALLOCATION_SIZE, 4096);
  EXPECT_TRUE(HasCode(call(1100), IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "exceeds the limit of 4096 (IREE_RT_LIMIT_MAX_ALLOCATION_SIZE)"));
  EXPECT_TRUE(HasCode(call(1100), IREE_RT_STATUS_RESOURCE_EXHAUSTED, "hal.buffer allocation of"));
  ASSERT_TRUE(IsOk(call(1000)));
  ASSERT_TRUE(IsOk(iree_rt_value_list_clear(results)));
  EXPECT_EQ(MemoryUsed(), baseline);
}

TEST_F(LimitsTest, ModuleSize) {
  iree_rt_instance_options_t options = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_options_create(&options)));
  Keep(options, iree_rt_instance_options_release);
  ASSERT_TRUE(
      IsOk(iree_rt_instance_options_set_limit(options, IREE_RT_LIMIT_MAX_MODULE_SIZE, 256)));
  iree_rt_instance_t instance = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, options, &instance)));
  Keep(instance, iree_rt_instance_release);
  iree_rt_module_t module = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_module_load_file(instance, ModulePath("limits").c_str(), &module),
                      IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "exceeds the limit of 256 (IREE_RT_LIMIT_MAX_MODULE_SIZE)"));
  EXPECT_EQ(module, nullptr);
  std::vector<uint8_t> bytes(300, 0);
  EXPECT_TRUE(HasCode(iree_rt_module_load_memory(instance, bytes.data(), bytes.size(),
                                                 IREE_RT_MODULE_LOAD_FLAG_COPY, nullptr, nullptr,
                                                 &module),
                      IREE_RT_STATUS_RESOURCE_EXHAUSTED,
                      "module size of 300 bytes exceeds the limit of 256"));
  // The default instance loads it.
  Load("limits");
}

}  // namespace
}  // namespace iree_rt_test
