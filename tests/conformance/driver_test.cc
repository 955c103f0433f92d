// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// DriverTest: enumerating a backend's driver and creating its devices by URI, and the device
// queries compiled programs make to pick a device (IREE core/driver_test).
#include "cts_test.h"
#include "hal/device_uri.h"
#include "hal/driver.h"

namespace iree_rt::cts {
namespace {

using base::Ref;
using base::StatusCode;

class DriverTest : public CtsTest {
 protected:
  void SetUp() override {
    CtsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!backend().create_driver) GTEST_SKIP() << "backend " << backend().name << " exposes no driver";
    base::StatusOr<Ref<hal::Driver>> driver = backend().create_driver();
    ASSERT_TRUE(IsOk(driver));
    driver_ = std::move(driver).value();
  }

  base::StatusOr<Ref<hal::Device>> CreateByUri(std::string_view text) {
    RT_ASSIGN_OR_RETURN(hal::DeviceUri uri, hal::DeviceUri::Parse(text));
    return driver_->CreateDevice(uri);
  }

  Ref<hal::Driver> driver_;
};

TEST_P(DriverTest, QueryAndCreateAvailableDevicesByUri) {
  base::StatusOr<std::vector<hal::DeviceInfo>> devices = driver_->EnumerateDevices();
  ASSERT_TRUE(IsOk(devices));
  ASSERT_FALSE(devices->empty());
  for (const hal::DeviceInfo& info : *devices) {
    SCOPED_TRACE(info.uri);
    EXPECT_FALSE(info.name.empty());
    base::StatusOr<Ref<hal::Device>> device = CreateByUri(info.uri);
    ASSERT_TRUE(IsOk(device));
    EXPECT_EQ((*device)->id(), driver_->name());
  }
}

TEST_P(DriverTest, CreateByPath) {
  const std::string name = driver_->name();
  EXPECT_TRUE(IsOk(CreateByUri(name)));
  EXPECT_TRUE(IsOk(CreateByUri(name + "://")));
  EXPECT_TRUE(IsOk(CreateByUri(name + "://0")));
  EXPECT_TRUE(IsError(CreateByUri(name + "://7").status(), StatusCode::kNotFound));
}

TEST_P(DriverTest, BadUrisAreRejected) {
  const std::string name = driver_->name();
  EXPECT_TRUE(IsError(CreateByUri(name + "://?no_such_parameter=1").status(), StatusCode::kInvalidArgument,
                      "no_such_parameter"));
  EXPECT_TRUE(IsError(CreateByUri("not-" + name).status(), StatusCode::kInvalidArgument));
}

TEST_P(DriverTest, DeviceIdQueriesMatchGlobs) {
  const std::string name = driver_->name();
  auto query = [&](std::string_view pattern) -> int64_t {
    base::StatusOr<int64_t> value = device().QueryI64("hal.device.id", pattern);
    EXPECT_TRUE(IsOk(value)) << pattern;
    return value.ok() ? *value : -1;
  };
  EXPECT_EQ(device().id(), name);
  EXPECT_EQ(query(name), 1);
  EXPECT_EQ(query("*"), 1);
  EXPECT_EQ(query(name.substr(0, 2) + "*"), 1);
  EXPECT_EQ(query(name + "?"), 0);
  EXPECT_EQ(query("definitely-not-a-device"), 0);
}

TEST_P(DriverTest, UnknownQueriesAreNotFound) {
  EXPECT_TRUE(IsError(device().QueryI64("hal.no_such_category", "key").status(), StatusCode::kNotFound));
}

INSTANTIATE_TEST_SUITE_P(Cts, DriverTest, ::testing::ValuesIn(BackendParams()), BackendName);

}  // namespace
}  // namespace iree_rt::cts
