// RegistryTest: the glob matching and expectation lookup behind the unsupported/xfail lists, and
// the backends this binary was built for.
#include <gtest/gtest.h>

#include "registry.h"

namespace iree_rt::cts {
namespace {

TEST(RegistryTest, GlobMatch) {
  EXPECT_TRUE(GlobMatch("SemaphoreTest.NoOp", "SemaphoreTest.NoOp"));
  EXPECT_FALSE(GlobMatch("SemaphoreTest.NoOp", "SemaphoreTest.NoOpX"));
  EXPECT_TRUE(GlobMatch("SemaphoreTest.*", "SemaphoreTest.NoOp"));
  EXPECT_FALSE(GlobMatch("SemaphoreTest.*", "SemaphoreThreadTest.PingPong"));
  EXPECT_TRUE(GlobMatch("*Profiling*", "DispatchReuseTest.DispatchProfilingRecordsCommandBufferDispatch"));
  EXPECT_TRUE(GlobMatch("Queue?llocaTest.*", "QueueAllocaTest.BasicAlloca"));
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_FALSE(GlobMatch("?", ""));
  EXPECT_TRUE(GlobMatch("*.*Wait*", "SemaphoreTest.WaitAllButNotAllSignaled"));
}

TEST(RegistryTest, FirstMatchingExpectationWins) {
  const std::vector<Expectation> list = {{"EventTest.*", "no events"}, {"*.Signal*", "second"}, {"*", "last"}};
  const Expectation* events = FindExpectation(list, "EventTest.SignalAndReset");
  ASSERT_NE(events, nullptr);
  EXPECT_EQ(events->reason, "no events");
  ASSERT_NE(FindExpectation(list, "SemaphoreTest.SignalMustIncrease"), nullptr);
  EXPECT_EQ(FindExpectation(list, "SemaphoreTest.SignalMustIncrease")->reason, "second");
  EXPECT_EQ(FindExpectation({}, "SemaphoreTest.NoOp"), nullptr);
}

TEST(RegistryTest, ThisBinarysBackendsAreRegistered) {
  const std::vector<const Backend*> selected = Registry::Get().SelectedBackends();
  ASSERT_FALSE(selected.empty());
  for (const Backend* backend : selected) {
    EXPECT_EQ(backend->driver, RT_CTS_DRIVER);
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

}  // namespace
}  // namespace iree_rt::cts
