// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "drivers/cpu/task/flush_denormals.h"

#include <gtest/gtest.h>

#include <latch>
#include <thread>

namespace iree_rt::drivers::cpu {
namespace {

// 1e-30 * 1e-10 = 1e-40 lies below FLT_MIN (1.18e-38): a denormal unless flushed. volatile keeps
// the compiler from folding the product at build time.
float DenormalProduct() {
  volatile float a = 1e-30f;
  volatile float b = 1e-10f;
  return a * b;
}

// A denormal input: read as zero under DAZ (x86) / FZ (aarch64).
float DenormalInputTimesOne() {
  volatile float denormal = 1e-40f;
  volatile float one = 1.0f;
  return denormal * one;
}

TEST(ScopedFlushDenormalsTest, FlushesInsideTheScopeAndRestoresAfter) {
  if (!ScopedFlushDenormals::Supported()) GTEST_SKIP() << "no denormal control on this arch";
  ASSERT_NE(DenormalProduct(), 0.0f) << "the test thread already flushes denormals";
  {
    ScopedFlushDenormals flush;
    EXPECT_EQ(DenormalProduct(), 0.0f);
    EXPECT_EQ(DenormalInputTimesOne(), 0.0f);
  }
  EXPECT_NE(DenormalProduct(), 0.0f);
  EXPECT_NE(DenormalInputTimesOne(), 0.0f);
}

TEST(ScopedFlushDenormalsTest, NestedScopesRestoreTheOuterMode) {
  if (!ScopedFlushDenormals::Supported()) GTEST_SKIP() << "no denormal control on this arch";
  ScopedFlushDenormals outer;
  {
    ScopedFlushDenormals inner;
    EXPECT_EQ(DenormalProduct(), 0.0f);
  }
  EXPECT_EQ(DenormalProduct(), 0.0f);  // the inner scope restored "flushing", not the default
}

TEST(ScopedFlushDenormalsTest, AffectsOnlyTheCallingThread) {
  if (!ScopedFlushDenormals::Supported()) GTEST_SKIP() << "no denormal control on this arch";
  // Start the other thread first: Linux threads inherit their creator's FP control register.
  std::latch scope_entered(1);
  float other = 0.0f;
  std::thread thread([&] {
    scope_entered.wait();
    other = DenormalProduct();
  });
  {
    ScopedFlushDenormals flush;
    scope_entered.count_down();
    thread.join();
    EXPECT_EQ(DenormalProduct(), 0.0f);
  }
  EXPECT_NE(other, 0.0f);
}

}  // namespace
}  // namespace iree_rt::drivers::cpu
