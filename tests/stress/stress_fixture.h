// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A fixture owning what the stress tests share: an instance, one CPU device, the hal module over
// it and the workload program compiled in both calling models (tests/stress/CMakeLists.txt).
#ifndef IREE_RT_TESTS_STRESS_STRESS_FIXTURE_H_
#define IREE_RT_TESTS_STRESS_STRESS_FIXTURE_H_

#include <gtest/gtest.h>

#include <string>

#include "workload.h"

namespace iree_rt_stress {

class StressFixture : public ::testing::Test {
 protected:
  // Creates everything on the device |uri|; fails the test if anything cannot be created.
  void Open(const char* uri) {
    ASSERT_EQ(Describe(iree_rt_instance_create(IREE_RT_ABI_VERSION, nullptr, instance_.out())), "");
    ASSERT_EQ(Describe(iree_rt_device_create(instance_.get(), uri, nullptr, device_.out())), "") << uri;
    iree_rt_device_t device = device_.get();
    ASSERT_EQ(Describe(iree_rt_module_create_hal(instance_.get(), &device, 1, hal_.out())), "");
    const std::string dir = IREE_RT_STRESS_PROGRAMS_DIR;
    ASSERT_EQ(Describe(iree_rt_module_load_file(instance_.get(), (dir + "/stress_workload.vmfb").c_str(),
                                                program_.out())),
              "");
    ASSERT_EQ(Describe(iree_rt_module_load_file(
                  instance_.get(), (dir + "/stress_workload_async.vmfb").c_str(), async_program_.out())),
              "");
  }

  iree_rt_instance_t instance() const { return instance_.get(); }
  iree_rt_device_t device() const { return device_.get(); }
  iree_rt_module_t hal() const { return hal_.get(); }
  iree_rt_module_t program() const { return program_.get(); }
  iree_rt_module_t async_program() const { return async_program_.get(); }

 private:
  // Declared in creation order: released in reverse.
  Instance instance_;
  Device device_;
  Module hal_, program_, async_program_;
};

}  // namespace iree_rt_stress

#endif  // IREE_RT_TESTS_STRESS_STRESS_FIXTURE_H_
