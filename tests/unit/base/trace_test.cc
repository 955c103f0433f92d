// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "base/trace.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace iree_rt::base::trace {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(TraceTest, OffRecordsNothing) {
  ASSERT_FALSE(Enabled());
  { Scope scope("test", "never"); EXPECT_FALSE(scope.recording()); }
  Complete(0, "test", "never", 1, 2);
  size_t seen = 0;
  VisitComplete("test", [&](std::string_view, uint64_t) { ++seen; });
  EXPECT_EQ(seen, 0u);
  EXPECT_TRUE(Flush().ok());
}

TEST(TraceTest, ThreadsAppendConcurrentlyAndFlushWritesEveryEvent) {
  const std::string path = ::testing::TempDir() + "/trace_test.json";
  Start(path);
  ASSERT_TRUE(Enabled());
  const uint32_t track = RegisterTrack("queue \"0\"");
  EXPECT_EQ(RegisterTrack("queue \"0\""), track);
  constexpr int kThreads = 4, kEvents = 700;  // several chunks per thread
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kEvents; ++i) {
        Scope scope("test", "host span");
        const uint64_t start = NowNs();
        Complete(track, "dispatch", "kernel", start, start + 5, "\"n\":1");
      }
    });
  }
  // A flush while the threads append sees a consistent prefix of each thread's events.
  EXPECT_TRUE(Flush().ok());
  for (auto& thread : threads) thread.join();
  Counter("live device memory", "dev", NowNs(), 42);
  size_t kernels = 0;
  VisitComplete("dispatch", [&](std::string_view name, uint64_t dur) {
    ++kernels;
    EXPECT_EQ(name, "kernel");
    EXPECT_EQ(dur, 5u);
  });
  EXPECT_EQ(kernels, size_t{kThreads} * kEvents);
  ASSERT_TRUE(Stop().ok());
  EXPECT_FALSE(Enabled());

  const std::string text = ReadFile(path);
  EXPECT_EQ(text.rfind("{\"traceEvents\":[\n", 0), 0u);
  EXPECT_NE(text.find("],\"displayTimeUnit\":\"ns\"}"), std::string::npos);
  EXPECT_EQ(Count(text, "\"name\":\"kernel\""), size_t{kThreads} * kEvents);
  EXPECT_EQ(Count(text, "\"name\":\"host span\""), size_t{kThreads} * kEvents);
  EXPECT_NE(text.find("\"args\":{\"name\":\"queue \\\"0\\\"\"}"), std::string::npos);
  EXPECT_NE(text.find("\"ph\":\"C\",\"pid\":2,\"tid\":0,\"name\":\"live device memory\""),
            std::string::npos);
  EXPECT_NE(text.find("\"dur\":0.005,\"cat\":\"dispatch\",\"args\":{\"n\":1}"), std::string::npos);

  // A second Start records only what follows it.
  Start(path);
  Complete(0, "test", "second", NowNs(), NowNs());
  ASSERT_TRUE(Stop().ok());
  const std::string second = ReadFile(path);
  EXPECT_EQ(Count(second, "\"name\":\"kernel\""), 0u);
  EXPECT_EQ(Count(second, "\"name\":\"second\""), 1u);
  std::remove(path.c_str());
}

TEST(TraceTest, UnwritablePathIsUnavailable) {
  Start("/nonexistent-dir/trace.json");
  Complete(0, "test", "x", NowNs(), NowNs());
  EXPECT_EQ(Stop().code(), StatusCode::kUnavailable);
}

TEST(TraceTest, JsonEscape) {
  EXPECT_EQ(JsonEscape("a\"b\\c\n\x01"), "a\\\"b\\\\c\\u000a\\u0001");
}

}  // namespace
}  // namespace iree_rt::base::trace
