// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/memory_budget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "status_matchers.h"

namespace iree_rt::base {
namespace {

using testing::IsError;
using testing::IsOk;

TEST(MemoryBudgetTest, ChargesUpToTheLimitAndNamesTheRequest) {
  auto budget = MakeRef<MemoryBudget>(100);
  EXPECT_TRUE(IsOk(budget->Charge(60, "a")));
  EXPECT_TRUE(IsError(budget->Charge(41, "the list"), StatusCode::kResourceExhausted,
                      "the list needs 41 bytes with 60 bytes in use, over the limit of 100 bytes"));
  EXPECT_EQ(budget->used(), 60u);  // a refused charge adds nothing
  EXPECT_TRUE(IsOk(budget->Charge(40, "b")));
  budget->Credit(100);
  EXPECT_EQ(budget->used(), 0u);
  EXPECT_TRUE(IsError(budget->Charge(UINT64_MAX, "huge"), StatusCode::kResourceExhausted, "huge"));
}

TEST(MemoryBudgetTest, ChargesAreReturnedWhenDestroyedAndFollowResizes) {
  auto budget = MakeRef<MemoryBudget>(100);
  {
    auto charge = MemoryCharge::Take(budget.get(), 30, "x");
    ASSERT_TRUE(charge.ok());
    EXPECT_EQ(budget->used(), 30u);
    EXPECT_TRUE(IsOk(charge->Resize(80, "x")));
    EXPECT_EQ(budget->used(), 80u);
    EXPECT_TRUE(IsError(charge->Resize(101, "x"), StatusCode::kResourceExhausted, "x needs 21"));
    EXPECT_EQ(charge->bytes(), 80u);
    EXPECT_TRUE(IsOk(charge->Resize(10, "x")));
    EXPECT_EQ(budget->used(), 10u);
    MemoryCharge moved = std::move(charge).value();
    EXPECT_EQ(budget->used(), 10u);
  }
  EXPECT_EQ(budget->used(), 0u);
  // A charge of nothing succeeds even past a lowered limit, and no budget charges nothing.
  EXPECT_TRUE(IsOk(budget->Charge(50, "y")));
  budget->set_limit(10);
  EXPECT_TRUE(MemoryCharge::Take(budget.get(), 0, "empty").ok());
  auto none = MemoryCharge::Take(nullptr, 1 << 30, "unbudgeted");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->budget(), nullptr);
}

TEST(MemoryBudgetTest, ConcurrentChargesNeverPassTheLimit) {
  auto budget = MakeRef<MemoryBudget>(1000);
  std::vector<std::thread> threads;
  std::atomic<int> granted{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) {
        if (budget->Charge(1, "t").ok()) ++granted;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(granted.load(), 1000);
  EXPECT_EQ(budget->used(), 1000u);
}

}  // namespace
}  // namespace iree_rt::base
