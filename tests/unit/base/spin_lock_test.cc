// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/spin_lock.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

namespace iree_rt::base {
namespace {

// Unsynchronized read-modify-writes under the lock: any overlap of two holders loses counts
// (and ThreadSanitizer reports the race).
TEST(SpinLockTest, HoldersExcludeEachOther) {
  SpinLock lock;
  int64_t counter = 0;
  constexpr int kThreads = 4, kEach = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        std::lock_guard<SpinLock> guard(lock);
        counter = counter + 1;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(counter, int64_t{kThreads} * kEach);
}

TEST(SpinLockTest, TryLockFailsWhileHeld) {
  SpinLock lock;
  ASSERT_TRUE(lock.try_lock());
  EXPECT_FALSE(lock.try_lock());
  lock.unlock();
  EXPECT_TRUE(lock.try_lock());
  lock.unlock();
}

}  // namespace
}  // namespace iree_rt::base
