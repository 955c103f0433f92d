// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// MakeExecutor: a TaskExecutor with |worker_count| workers for the task-system tests, or null
// (with a test failure recorded) when it cannot be created.
#ifndef IREE_RT_TESTS_UNIT_CPU_TASK_MAKE_EXECUTOR_H_
#define IREE_RT_TESTS_UNIT_CPU_TASK_MAKE_EXECUTOR_H_

#include <gtest/gtest.h>

#include "drivers/cpu/task/task_executor.h"

namespace iree_rt::drivers::cpu {

inline base::Ref<TaskExecutor> MakeExecutor(uint32_t worker_count) {
  TaskExecutor::Options options;
  options.worker_count = worker_count;
  auto executor = TaskExecutor::Create(options);
  EXPECT_TRUE(executor.ok()) << executor.status().ToString();
  return executor.ok() ? std::move(executor).value() : nullptr;
}

}  // namespace iree_rt::drivers::cpu

#endif  // IREE_RT_TESTS_UNIT_CPU_TASK_MAKE_EXECUTOR_H_
