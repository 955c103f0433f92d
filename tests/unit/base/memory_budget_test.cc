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

TEST(MemoryBudgetTest, RefusedChargeSaysWhatWasLivePerKind) {
  auto budget = MakeRef<MemoryBudget>(1000);
  {
    auto buffer = MemoryCharge::Take(budget.get(), 600, "hal.buffer allocation",
                                     MemoryKind::kHalBuffer);
    auto globals = MemoryCharge::Take(budget.get(), 64, "globals", MemoryKind::kGlobals);
    auto list = MemoryCharge::Take(budget.get(), 0, "vm.list", MemoryKind::kVmList);
    ASSERT_TRUE(buffer.ok() && globals.ok() && list.ok());
    EXPECT_TRUE(IsOk(list->Resize(100, "vm.list storage")));
    EXPECT_TRUE(IsOk(list->Resize(40, "vm.list storage")));
    auto second = MemoryCharge::Take(budget.get(), 200, "hal.buffer allocation",
                                     MemoryKind::kHalBuffer);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(budget->peak(), 904u);
    EXPECT_TRUE(IsError(
        MemoryCharge::Take(budget.get(), 500, "vm.buffer allocation", MemoryKind::kVmBuffer)
            .status(),
        StatusCode::kResourceExhausted,
        "vm.buffer allocation needs 500 bytes with 904 bytes in use, over the limit of 1000 bytes "
        "(IREE_RT_LIMIT_MAX_CONTEXT_MEMORY); live then: hal.buffer 800 B in 2 (peak 800 B), "
        "vm.list 40 B in 1 (peak 100 B), globals 64 B in 1 (peak 64 B); context peak 904 B"));
  }
  // Everything returned: the kinds that ever held memory still show their peaks.
  EXPECT_EQ(budget->used(), 0u);
  EXPECT_EQ(budget->DescribeLive(),
            "live then: hal.buffer 0 B in 0 (peak 800 B), vm.list 0 B in 0 (peak 100 B), "
            "globals 0 B in 0 (peak 64 B); context peak 904 B");
}

}  // namespace
}  // namespace iree_rt::base
