// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/ref_object.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace iree_rt::base {
namespace {

class Counted : public RefObject {
 public:
  explicit Counted(int* destroyed) : destroyed_(destroyed) {}
  ~Counted() override { ++*destroyed_; }

 private:
  int* destroyed_;
};

TEST(RefObjectTest, LastReleaseDeletes) {
  int destroyed = 0;
  {
    Ref<Counted> a = MakeRef<Counted>(&destroyed);
    EXPECT_EQ(a->ref_count_for_testing(), 1);
    Ref<Counted> b = a;
    EXPECT_EQ(a->ref_count_for_testing(), 2);
    Ref<Counted> c = std::move(b);
    EXPECT_FALSE(b);
    EXPECT_EQ(a->ref_count_for_testing(), 2);
  }
  EXPECT_EQ(destroyed, 1);
}

TEST(RefObjectTest, AdoptAndDetachRoundTrip) {
  int destroyed = 0;
  Counted* raw = MakeRef<Counted>(&destroyed).Detach();
  EXPECT_EQ(destroyed, 0);
  Ref<Counted> again = Ref<Counted>::Retain(raw);
  EXPECT_EQ(raw->ref_count_for_testing(), 2);
  raw->Release();
  again = nullptr;
  EXPECT_EQ(destroyed, 1);
}

TEST(RefObjectTest, BorrowedRefLeavesTheCountAndCopiesRetain) {
  int destroyed = 0;
  Ref<Counted> owner = MakeRef<Counted>(&destroyed);
  Ref<Counted> kept;
  {
    const BorrowedRef<Counted> borrowed(owner.get());
    EXPECT_EQ(owner->ref_count_for_testing(), 1);
    EXPECT_EQ(borrowed.ref().get(), owner.get());
    kept = borrowed.ref();  // a callee keeping the object retains it
    EXPECT_EQ(owner->ref_count_for_testing(), 2);
  }
  EXPECT_EQ(owner->ref_count_for_testing(), 2);
  owner = nullptr;
  EXPECT_EQ(destroyed, 0);
  kept = nullptr;
  EXPECT_EQ(destroyed, 1);
}

TEST(RefObjectTest, ConcurrentRetainRelease) {
  int destroyed = 0;
  Ref<Counted> shared = MakeRef<Counted>(&destroyed);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([shared] {
      for (int i = 0; i < 10000; ++i) Ref<Counted> copy = shared;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(shared->ref_count_for_testing(), 1);
  shared = nullptr;
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
}  // namespace iree_rt::base
