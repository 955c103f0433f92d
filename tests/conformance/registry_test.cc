// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RegistryTest: the glob matching and expectation lookup behind the unsupported/xfail lists, and
// the backends this binary was built for. Parameterized by backend (without creating devices) so
// the case names differ between the per-driver binaries, as ctest needs unique names.
#include <gtest/gtest.h>

#include <algorithm>

#include "base/glob.h"
#include "cts_test.h"
#include "registry.h"

namespace iree_rt::cts {
namespace {

class RegistryTest : public ::testing::TestWithParam<CtsParam> {};

TEST_P(RegistryTest, GlobMatch) {
  EXPECT_TRUE(base::GlobMatch("SemaphoreTest.NoOp", "SemaphoreTest.NoOp"));
  EXPECT_FALSE(base::GlobMatch("SemaphoreTest.NoOp", "SemaphoreTest.NoOpX"));
  EXPECT_TRUE(base::GlobMatch("SemaphoreTest.*", "SemaphoreTest.NoOp"));
  EXPECT_FALSE(base::GlobMatch("SemaphoreTest.*", "SemaphoreThreadTest.PingPong"));
  EXPECT_TRUE(base::GlobMatch("*Profiling*", "DispatchReuseTest.DispatchProfilingRecordsCommandBufferDispatch"));
  EXPECT_TRUE(base::GlobMatch("Queue?llocaTest.*", "QueueAllocaTest.BasicAlloca"));
  EXPECT_TRUE(base::GlobMatch("*", ""));
  EXPECT_FALSE(base::GlobMatch("?", ""));
  EXPECT_TRUE(base::GlobMatch("*.*Wait*", "SemaphoreTest.WaitAllButNotAllSignaled"));
}

TEST_P(RegistryTest, FirstMatchingExpectationWins) {
  const std::vector<Expectation> list = {{"EventTest.*", "no events"}, {"*.Signal*", "second"}, {"*", "last"}};
  const Expectation* events = FindExpectation(list, "EventTest.SignalAndReset");
  ASSERT_NE(events, nullptr);
  EXPECT_EQ(events->reason, "no events");
  ASSERT_NE(FindExpectation(list, "SemaphoreTest.SignalMustIncrease"), nullptr);
  EXPECT_EQ(FindExpectation(list, "SemaphoreTest.SignalMustIncrease")->reason, "second");
  EXPECT_EQ(FindExpectation({}, "SemaphoreTest.NoOp"), nullptr);
}

TEST_P(RegistryTest, ThisBinarysBackendsAreRegistered) {
  const std::vector<const Backend*> selected = Registry::Get().SelectedBackends();
  ASSERT_FALSE(selected.empty());
  for (const Backend* backend : selected) {
    EXPECT_EQ(backend->driver, SelectedDriver());
    EXPECT_FALSE(backend->name.empty());
    EXPECT_TRUE(backend->create_device);
    EXPECT_FALSE(backend->executable_format.empty());
    for (const std::vector<Expectation>* list : {&backend->unsupported, &backend->xfail}) {
      for (const Expectation& expectation : *list) {
        EXPECT_FALSE(expectation.reason.empty()) << expectation.pattern << " needs a reason";
      }
    }
  }
}

TEST_P(RegistryTest, BackendIsSelected) {
  const std::vector<const Backend*> selected = Registry::Get().SelectedBackends();
  EXPECT_NE(std::find(selected.begin(), selected.end(), GetParam().backend), selected.end());
  EXPECT_EQ(GetParam().backend->driver, SelectedDriver());
}

INSTANTIATE_TEST_SUITE_P(Cts, RegistryTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
