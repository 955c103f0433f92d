// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// DeviceUri: "driver", "driver://path" and "driver://path?key=value&...".
#include "hal/device_uri.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace iree_rt::hal {
namespace {

using base::StatusCode;
using testing::IsError;
using testing::IsOk;

TEST(DeviceUriTest, DriverOnly) {
  base::StatusOr<DeviceUri> uri = DeviceUri::Parse("local-task");
  ASSERT_TRUE(IsOk(uri));
  EXPECT_EQ(uri->driver, "local-task");
  EXPECT_EQ(uri->path, "");
  EXPECT_TRUE(uri->params.empty());
}

TEST(DeviceUriTest, DriverAndPath) {
  base::StatusOr<DeviceUri> empty_path = DeviceUri::Parse("local-task://");
  ASSERT_TRUE(IsOk(empty_path));
  EXPECT_EQ(empty_path->driver, "local-task");
  EXPECT_EQ(empty_path->path, "");
  base::StatusOr<DeviceUri> ordinal = DeviceUri::Parse("cuda://0");
  ASSERT_TRUE(IsOk(ordinal));
  EXPECT_EQ(ordinal->driver, "cuda");
  EXPECT_EQ(ordinal->path, "0");
  base::StatusOr<DeviceUri> uuid = DeviceUri::Parse("cuda://GPU-0f2e/x");
  ASSERT_TRUE(IsOk(uuid));
  EXPECT_EQ(uuid->path, "GPU-0f2e/x");
}

TEST(DeviceUriTest, Parameters) {
  base::StatusOr<DeviceUri> uri = DeviceUri::Parse("local-task://?workers=4&flag&name=a=b");
  ASSERT_TRUE(IsOk(uri));
  EXPECT_EQ(uri->path, "");
  EXPECT_EQ(uri->params.size(), 3u);
  EXPECT_EQ(uri->Param("workers"), "4");
  EXPECT_EQ(uri->Param("flag"), "");
  EXPECT_EQ(uri->Param("name"), "a=b");
  EXPECT_FALSE(uri->Param("missing").has_value());
  base::StatusOr<DeviceUri> with_path = DeviceUri::Parse("cuda://1?streams=true");
  ASSERT_TRUE(IsOk(with_path));
  EXPECT_EQ(with_path->path, "1");
  EXPECT_EQ(with_path->Param("streams"), "true");
  base::StatusOr<DeviceUri> empty_query = DeviceUri::Parse("cuda://1?");
  ASSERT_TRUE(IsOk(empty_query));
  EXPECT_TRUE(empty_query->params.empty());
}

TEST(DeviceUriTest, Errors) {
  for (const char* bad : {"", "://", "://path", "local?workers=1", "local/0", "local=1",
                          "a://?=1", "a://?x=1&&y=2", "a://?x=1&x=2", "a://?&"}) {
    EXPECT_TRUE(IsError(DeviceUri::Parse(bad).status(), StatusCode::kInvalidArgument)) << "'" << bad << "'";
  }
}

TEST(DeviceUriTest, UintParam) {
  base::StatusOr<DeviceUri> uri = DeviceUri::Parse("d://?n=12&zero=0&big=99999999999999999999&neg=-1&junk=4x&empty=");
  ASSERT_TRUE(IsOk(uri));
  base::StatusOr<std::optional<uint64_t>> n = uri->UintParam("n", 1, 16);
  ASSERT_TRUE(IsOk(n));
  EXPECT_EQ(**n, 12u);
  base::StatusOr<std::optional<uint64_t>> absent = uri->UintParam("missing", 1, 16);
  ASSERT_TRUE(IsOk(absent));
  EXPECT_FALSE(absent->has_value());
  EXPECT_TRUE(IsError(uri->UintParam("n", 13, 16).status(), StatusCode::kInvalidArgument, "n='12'"));
  EXPECT_TRUE(IsError(uri->UintParam("n", 1, 11).status(), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(uri->UintParam("zero", 1, 16).status(), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsOk(uri->UintParam("zero", 0, 16)));
  for (const char* key : {"big", "neg", "junk", "empty"}) {
    EXPECT_TRUE(IsError(uri->UintParam(key, 0, UINT64_MAX).status(), StatusCode::kInvalidArgument)) << key;
  }
}

}  // namespace
}  // namespace iree_rt::hal
