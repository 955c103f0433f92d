// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// C ABI tests: version, status, instance, device enumeration and device creation.
// Buffers: api_buffer_test.cc; semaphores and fences: api_sync_test.cc; command buffers, queue and
// executables: api_queue_test.cc; argument misuse and leak loops: api_misuse_test.cc.
#include <fstream>
#include <set>
#include <string>

#include "test_util.h"

namespace iree_rt_test {
namespace {

TEST(VersionTest, ReportsTheHeaderVersion) {
  EXPECT_EQ(iree_rt_get_abi_version(), IREE_RT_ABI_VERSION);
  std::string version = iree_rt_get_version_string();
  EXPECT_NE(version.find("(ABI 1.0)"), std::string::npos) << version;
  // The package version (CMake's PROJECT_VERSION) comes first, and its major.minor is the ABI's.
  EXPECT_EQ(version.rfind(IREE_RT_TEST_PACKAGE_VERSION " ", 0), 0u) << version;
  EXPECT_EQ(version.rfind(std::to_string(IREE_RT_ABI_VERSION_MAJOR) + "." +
                              std::to_string(IREE_RT_ABI_VERSION_MINOR) + ".",
                          0),
            0u)
      << version;
}

TEST(VersionTest, GetProcFindsEveryListedFunction) {
  std::ifstream symbols(IREE_RT_SYMBOLS_FILE);
  ASSERT_TRUE(symbols.good()) << IREE_RT_SYMBOLS_FILE;
  size_t count = 0;
  for (std::string line; std::getline(symbols, line);) {
    if (line.empty() || line[0] == '#') continue;
    EXPECT_NE(iree_rt_get_proc(line.c_str()), nullptr) << line;
    ++count;
  }
  EXPECT_GE(count, 100u);
  EXPECT_EQ(iree_rt_get_proc("iree_rt_buffer_read"),
            reinterpret_cast<iree_rt_proc_t>(&iree_rt_buffer_read));
  EXPECT_EQ(iree_rt_get_proc("iree_rt_status_free"),
            reinterpret_cast<iree_rt_proc_t>(&iree_rt_status_free));
  EXPECT_EQ(iree_rt_get_proc("iree_rt_no_such_function"), nullptr);
  EXPECT_EQ(iree_rt_get_proc("iree_rt_buffer_rea"), nullptr);
  EXPECT_EQ(iree_rt_get_proc(""), nullptr);
  EXPECT_EQ(iree_rt_get_proc(nullptr), nullptr);
}

TEST(StatusTest, NullIsOk) {
  EXPECT_EQ(iree_rt_status_code(nullptr), IREE_RT_STATUS_OK);
  EXPECT_STREQ(iree_rt_status_message(nullptr), "");
  iree_rt_status_free(nullptr);
}

TEST(StatusTest, CodeNames) {
  EXPECT_STREQ(iree_rt_status_code_name(IREE_RT_STATUS_OK), "OK");
  EXPECT_STREQ(iree_rt_status_code_name(IREE_RT_STATUS_INVALID_ARGUMENT), "INVALID_ARGUMENT");
  EXPECT_STREQ(iree_rt_status_code_name(IREE_RT_STATUS_DEFERRED), "DEFERRED");
  EXPECT_STREQ(iree_rt_status_code_name(IREE_RT_STATUS_INCOMPATIBLE), "INCOMPATIBLE");
  EXPECT_STREQ(iree_rt_status_code_name(static_cast<iree_rt_status_code_t>(19)), "UNKNOWN_CODE");
  EXPECT_STREQ(iree_rt_status_code_name(static_cast<iree_rt_status_code_t>(1000)), "UNKNOWN_CODE");
  std::set<std::string> names;
  for (int code = 0; code <= 18; ++code) {
    names.insert(iree_rt_status_code_name(static_cast<iree_rt_status_code_t>(code)));
  }
  EXPECT_EQ(names.size(), 19u);
}

TEST(StatusTest, ErrorsNameTheFunctionAndKeepTheirMessageUntilFreed) {
  iree_rt_status_t status = iree_rt_instance_create(IREE_RT_ABI_VERSION, nullptr, nullptr);
  ASSERT_NE(status, nullptr);
  EXPECT_EQ(iree_rt_status_code(status), IREE_RT_STATUS_INVALID_ARGUMENT);
  EXPECT_STREQ(iree_rt_status_message(status),
               "iree_rt_instance_create: parameter 'out_instance' is NULL");
  iree_rt_status_free(status);
}

TEST(InstanceTest, RejectsOtherAbiVersions) {
  iree_rt_instance_t instance = nullptr;
  const uint32_t next_major = (IREE_RT_ABI_VERSION_MAJOR + 1u) << 16;
  EXPECT_TRUE(HasCode(iree_rt_instance_create(next_major, nullptr, &instance),
                      IREE_RT_STATUS_INCOMPATIBLE, "ABI 2.0"));
  EXPECT_TRUE(HasCode(iree_rt_instance_create(0, nullptr, &instance), IREE_RT_STATUS_INCOMPATIBLE));
  EXPECT_TRUE(HasCode(iree_rt_instance_create(IREE_RT_ABI_VERSION + 1, nullptr, &instance),
                      IREE_RT_STATUS_INCOMPATIBLE, "ABI 1.1"));
  EXPECT_EQ(instance, nullptr);  // untouched on error
  ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, nullptr, &instance)));
  iree_rt_instance_release(instance);
}

TEST(InstanceTest, OffersTheCpuDrivers) {
  iree_rt_instance_t instance = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, nullptr, &instance)));
  size_t count = 0;
  ASSERT_TRUE(IsOk(iree_rt_instance_driver_count(instance, &count)));
  std::set<std::string> names;
  for (size_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_instance_driver_name(instance, i, &name)));
    names.insert(name);
  }
  EXPECT_TRUE(names.count("local-sync") && names.count("local-task"));
  const char* name = "untouched";
  EXPECT_TRUE(HasCode(iree_rt_instance_driver_name(instance, count, &name),
                      IREE_RT_STATUS_OUT_OF_RANGE, "'index'"));
  EXPECT_STREQ(name, "untouched");
  iree_rt_instance_release(instance);
}

TEST(InstanceTest, AllowListLimitsTheDrivers) {
  iree_rt_instance_options_t options = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_options_create(&options)));
  ASSERT_TRUE(IsOk(iree_rt_instance_options_allow_driver(options, "local-sync")));
  ASSERT_TRUE(IsOk(iree_rt_instance_options_allow_driver(options, "local-sync")));
  iree_rt_instance_t instance = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, options, &instance)));
  iree_rt_instance_options_release(options);  // copied by create
  size_t count = 0;
  ASSERT_TRUE(IsOk(iree_rt_instance_driver_count(instance, &count)));
  EXPECT_EQ(count, 1u);
  iree_rt_device_t device = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_device_create(instance, "local-task", nullptr, &device),
                      IREE_RT_STATUS_NOT_FOUND, "local-task"));
  ASSERT_TRUE(IsOk(iree_rt_device_create(instance, "local-sync", nullptr, &device)));
  iree_rt_device_release(device);
  iree_rt_instance_release(instance);
}

TEST(InstanceTest, AllowListedDriverMustExist) {
  iree_rt_instance_options_t options = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_options_create(&options)));
  ASSERT_TRUE(IsOk(iree_rt_instance_options_allow_driver(options, "warp-drive")));
  iree_rt_instance_t instance = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_instance_create(IREE_RT_ABI_VERSION, options, &instance),
                      IREE_RT_STATUS_NOT_FOUND, "warp-drive"));
  EXPECT_EQ(instance, nullptr);
  iree_rt_instance_options_release(options);
}

// Worker count as the device reports it.
int64_t DispatchConcurrency(iree_rt_device_t device) {
  int64_t value = -1;
  EXPECT_TRUE(IsOk(iree_rt_device_query_i64(device, "hal.dispatch", "concurrency", &value)));
  return value;
}

TEST(InstanceTest, DeviceParamDefaultsApplyUnlessOverridden) {
  iree_rt_instance_options_t options = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_options_create(&options)));
  ASSERT_TRUE(
      IsOk(iree_rt_instance_options_set_device_param(options, "local-task", "workers", "2")));
  ASSERT_TRUE(
      IsOk(iree_rt_instance_options_set_device_param(options, "local-task", "workers", "3")));
  iree_rt_instance_t instance = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, options, &instance)));
  iree_rt_instance_options_release(options);

  iree_rt_device_t device = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_device_create(instance, "local-task", nullptr, &device)));
  EXPECT_EQ(DispatchConcurrency(device), 3);  // the instance default
  iree_rt_device_release(device);

  ASSERT_TRUE(IsOk(iree_rt_device_create(instance, "local-task://?workers=2", nullptr, &device)));
  EXPECT_EQ(DispatchConcurrency(device), 2);  // the URI wins over the default
  iree_rt_device_release(device);

  iree_rt_device_options_t device_options = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_device_options_create(&device_options)));
  ASSERT_TRUE(IsOk(iree_rt_device_options_set_string(device_options, "workers", "1")));
  ASSERT_TRUE(
      IsOk(iree_rt_device_create(instance, "local-task://?workers=2", device_options, &device)));
  EXPECT_EQ(DispatchConcurrency(device), 1);  // device options win over the URI
  iree_rt_device_release(device);

  // The default is for local-task only: local-sync never sees "workers".
  ASSERT_TRUE(IsOk(iree_rt_device_create(instance, "local-sync", nullptr, &device)));
  iree_rt_device_release(device);
  iree_rt_device_options_release(device_options);
  iree_rt_instance_release(instance);
}

TEST(InstanceTest, EnumeratesDevices) {
  iree_rt_instance_t instance = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, nullptr, &instance)));
  iree_rt_device_info_list_t list = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_enumerate_devices(instance, nullptr, &list)));
  size_t count = 0;
  ASSERT_TRUE(IsOk(iree_rt_device_info_list_count(list, &count)));
  EXPECT_GE(count, 2u);
  for (size_t i = 0; i < count; ++i) {
    const char* uri = nullptr;
    const char* name = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_device_info_list_uri(list, i, &uri)));
    ASSERT_TRUE(IsOk(iree_rt_device_info_list_name(list, i, &name)));
    EXPECT_GT(std::strlen(name), 0u);
    iree_rt_device_t device = nullptr;  // every enumerated URI creates a device
    ASSERT_TRUE(IsOk(iree_rt_device_create(instance, uri, nullptr, &device))) << uri;
    iree_rt_device_release(device);
  }
  const char* past_end = nullptr;
  EXPECT_TRUE(
      HasCode(iree_rt_device_info_list_uri(list, count, &past_end), IREE_RT_STATUS_OUT_OF_RANGE));
  EXPECT_EQ(past_end, nullptr);
  iree_rt_device_info_list_release(list);

  ASSERT_TRUE(IsOk(iree_rt_instance_enumerate_devices(instance, "local-task", &list)));
  ASSERT_TRUE(IsOk(iree_rt_device_info_list_count(list, &count)));
  ASSERT_EQ(count, 1u);
  size_t properties = 0;
  ASSERT_TRUE(IsOk(iree_rt_device_info_list_property_count(list, 0, &properties)));
  ASSERT_GE(properties, 1u);
  const char* key = nullptr;
  const char* value = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_device_info_list_property_key(list, 0, 0, &key)));
  ASSERT_TRUE(IsOk(iree_rt_device_info_list_property_value(list, 0, 0, &value)));
  EXPECT_STREQ(key, "workers");
  EXPECT_GE(std::stoi(value), 1);
  EXPECT_TRUE(HasCode(iree_rt_device_info_list_property_key(list, 0, properties, &key),
                      IREE_RT_STATUS_OUT_OF_RANGE, "'property'"));
  EXPECT_TRUE(HasCode(iree_rt_device_info_list_property_value(list, 1, 0, &value),
                      IREE_RT_STATUS_OUT_OF_RANGE, "'index'"));
  iree_rt_device_info_list_release(list);

  EXPECT_TRUE(HasCode(iree_rt_instance_enumerate_devices(instance, "nope", &list),
                      IREE_RT_STATUS_NOT_FOUND, "nope"));
  iree_rt_instance_release(instance);
}

using DeviceTest = ApiTest;

TEST_F(DeviceTest, CreatesTheCpuDevices) {
  for (const char* uri : {"local-sync", "local-task", "local-task://?workers=2", "local-sync://0",
                          "local-task://0?workers=1"}) {
    iree_rt_device_t device = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_device_create(instance_, uri, nullptr, &device))) << uri;
    const char* id = nullptr;
    ASSERT_TRUE(IsOk(iree_rt_device_id(device, &id)));
    EXPECT_EQ(std::string(uri).rfind(id, 0), 0u) << uri << " has id " << id;
    iree_rt_device_release(device);
  }
}

TEST_F(DeviceTest, RejectsBadUris) {
  struct Case {
    const char* uri;
    iree_rt_status_code_t code;
    const char* substring;
  };
  const Case cases[] = {
      {"warp-drive", IREE_RT_STATUS_NOT_FOUND, "warp-drive"},
      {"warp-drive://0", IREE_RT_STATUS_NOT_FOUND, "available"},
      {"", IREE_RT_STATUS_INVALID_ARGUMENT, "names no driver"},
      {"local-task?workers=2", IREE_RT_STATUS_INVALID_ARGUMENT, "driver://path"},
      {"local-task://?workers=0", IREE_RT_STATUS_INVALID_ARGUMENT, "workers"},
      {"local-task://?workers=many", IREE_RT_STATUS_INVALID_ARGUMENT, "workers"},
      {"local-task://?workers=2000", IREE_RT_STATUS_INVALID_ARGUMENT, "workers"},
      {"local-task://?workers=2&workers=3", IREE_RT_STATUS_INVALID_ARGUMENT, "repeated"},
      {"local-task://?=2", IREE_RT_STATUS_INVALID_ARGUMENT, "malformed"},
      {"local-sync://?workers=2", IREE_RT_STATUS_INVALID_ARGUMENT, "workers"},
      {"local-sync://?colour=blue", IREE_RT_STATUS_INVALID_ARGUMENT, "colour"},
      {"local-sync://7", IREE_RT_STATUS_NOT_FOUND, "'7'"},
  };
  for (const Case& c : cases) {
    iree_rt_device_t device = nullptr;
    EXPECT_TRUE(
        HasCode(iree_rt_device_create(instance_, c.uri, nullptr, &device), c.code, c.substring))
        << "uri '" << c.uri << "'";
    EXPECT_EQ(device, nullptr);
  }
}

TEST_F(DeviceTest, DeviceOptionsRejectKeysTheUriCannotCarry) {
  iree_rt_device_options_t options = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_device_options_create(&options)));
  for (const char* key : {"", "a=b", "a&b", "a?b"}) {
    EXPECT_TRUE(HasCode(iree_rt_device_options_set_string(options, key, "1"),
                        IREE_RT_STATUS_INVALID_ARGUMENT))
        << "key '" << key << "'";
  }
  ASSERT_TRUE(IsOk(iree_rt_device_options_set_string(options, "colour", "blue")));
  iree_rt_device_t device = nullptr;
  EXPECT_TRUE(HasCode(iree_rt_device_create(instance_, "local-task", options, &device),
                      IREE_RT_STATUS_INVALID_ARGUMENT, "colour"));
  iree_rt_device_options_release(options);
}

TEST_F(DeviceTest, AnswersQueries) {
  int64_t value = -1;
  ASSERT_TRUE(IsOk(iree_rt_device_query_i64(device_, "hal.device.id", "local-*", &value)));
  EXPECT_EQ(value, 1);
  ASSERT_TRUE(IsOk(iree_rt_device_query_i64(device_, "hal.device.id", "cuda", &value)));
  EXPECT_EQ(value, 0);
  ASSERT_TRUE(IsOk(
      iree_rt_device_query_i64(device_, "hal.executable.format", HostEmbeddedElfFormat(), &value)));
  EXPECT_EQ(value, 1);
  value = -1;
  EXPECT_TRUE(HasCode(iree_rt_device_query_i64(device_, "hal.nothing", "here", &value),
                      IREE_RT_STATUS_NOT_FOUND));
  EXPECT_EQ(value, -1);
}

TEST_F(DeviceTest, ReportsMemoryStatistics) {
  auto statistic = [&](iree_rt_memory_statistic_t which) {
    uint64_t value = 0;
    EXPECT_TRUE(IsOk(iree_rt_device_memory_statistic(device_, which, &value)));
    return value;
  };
  uint64_t before = statistic(IREE_RT_MEMORY_STATISTIC_BYTES_ALLOCATED);
  uint64_t count_before = statistic(IREE_RT_MEMORY_STATISTIC_ALLOCATION_COUNT);
  iree_rt_buffer_t buffer = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_buffer_allocate(device_, IREE_RT_MEMORY_TYPE_DEVICE_LOCAL,
                                           IREE_RT_BUFFER_USAGE_DEFAULT, 4096, &buffer)));
  EXPECT_EQ(statistic(IREE_RT_MEMORY_STATISTIC_BYTES_ALLOCATED), before + 4096);
  EXPECT_GE(statistic(IREE_RT_MEMORY_STATISTIC_PEAK_BYTES_ALLOCATED), before + 4096);
  EXPECT_EQ(statistic(IREE_RT_MEMORY_STATISTIC_ALLOCATION_COUNT), count_before + 1);
  iree_rt_buffer_release(buffer);
  EXPECT_EQ(statistic(IREE_RT_MEMORY_STATISTIC_BYTES_ALLOCATED), before);
  EXPECT_GE(statistic(IREE_RT_MEMORY_STATISTIC_PEAK_BYTES_ALLOCATED), before + 4096);
  uint64_t value = 0;
  EXPECT_TRUE(HasCode(
      iree_rt_device_memory_statistic(device_, static_cast<iree_rt_memory_statistic_t>(0), &value),
      IREE_RT_STATUS_INVALID_ARGUMENT, "'statistic'"));
}

TEST_F(DeviceTest, OutlivesItsInstance) {
  iree_rt_instance_t instance = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_instance_create(IREE_RT_ABI_VERSION, nullptr, &instance)));
  iree_rt_device_t device = nullptr;
  ASSERT_TRUE(IsOk(iree_rt_device_create(instance, "local-task", nullptr, &device)));
  iree_rt_instance_release(instance);
  iree_rt_buffer_t buffer = Allocate(device, 64);
  const uint8_t pattern = 0x5A;
  ASSERT_TRUE(IsOk(iree_rt_buffer_fill(buffer, 0, IREE_RT_WHOLE_BUFFER, &pattern, 1)));
  EXPECT_EQ(ReadAll<uint8_t>(buffer)[63], 0x5A);
  iree_rt_device_release(device);  // the buffer (released at tear-down) outlives its device too
}

}  // namespace
}  // namespace iree_rt_test
