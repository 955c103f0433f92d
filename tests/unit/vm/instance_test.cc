// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/instance.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "object_model_test_util.h"
#include "vm/buffer.h"
#include "vm/list.h"

namespace iree_rt::vm {
namespace {

using base::StatusCode;
using testing::IsError;

const RefType kFakeHalBuffer{"hal.buffer"};
const RefType kFakeHalBufferImpostor{"hal.buffer"};
const RefType kEmptyName{""};

TEST(InstanceTest, BuiltinTypesAreRegistered) {
  base::Ref<Instance> instance = Instance::Create();
  EXPECT_EQ(instance->LookupType("vm.buffer"), &kBufferType);
  EXPECT_EQ(instance->LookupType("vm.list"), &kListType);
  EXPECT_EQ(instance->LookupType("hal.buffer"), nullptr);
  EXPECT_EQ(instance->LookupType(""), nullptr);
}

TEST(InstanceTest, RegisterTypeIsIdempotentPerDescriptor) {
  base::Ref<Instance> instance = Instance::Create();
  ASSERT_TRUE(instance->RegisterType(&kFakeHalBuffer).ok());
  EXPECT_TRUE(instance->RegisterType(&kFakeHalBuffer).ok());
  EXPECT_EQ(instance->LookupType("hal.buffer"), &kFakeHalBuffer);
  EXPECT_TRUE(IsError(instance->RegisterType(&kFakeHalBufferImpostor), StatusCode::kAlreadyExists,
                      "'hal.buffer'"));
  EXPECT_EQ(instance->LookupType("hal.buffer"), &kFakeHalBuffer);
  EXPECT_TRUE(instance->RegisterType(&kBufferType).ok());
}

TEST(InstanceTest, RegisterTypeRejectsBadDescriptors) {
  base::Ref<Instance> instance = Instance::Create();
  EXPECT_TRUE(IsError(instance->RegisterType(nullptr), StatusCode::kInvalidArgument, "null"));
  EXPECT_TRUE(IsError(instance->RegisterType(&kEmptyName), StatusCode::kInvalidArgument, "empty"));
}

TEST(InstanceTest, TypesAreRegisteredPerInstance) {
  base::Ref<Instance> a = Instance::Create();
  base::Ref<Instance> b = Instance::Create();
  ASSERT_TRUE(a->RegisterType(&kFakeHalBuffer).ok());
  EXPECT_EQ(b->LookupType("hal.buffer"), nullptr);
}

TEST(InstanceTest, ResolvesPrimitiveNames) {
  base::Ref<Instance> instance = Instance::Create();
  const std::pair<const char*, ValueType> cases[] = {
      {"i8", ValueType::kI8},   {"i16", ValueType::kI16}, {"i32", ValueType::kI32},
      {"i64", ValueType::kI64}, {"f32", ValueType::kF32}, {"f64", ValueType::kF64},
  };
  for (const auto& [name, value_type] : cases) {
    auto type = instance->ResolveTypeName(name);
    ASSERT_TRUE(type.ok()) << name;
    EXPECT_EQ(*type, Type::Value(value_type)) << name;
    EXPECT_TRUE(type->is_value());
  }
}

TEST(InstanceTest, ResolvesOpaqueListAndBufferNames) {
  base::Ref<Instance> instance = Instance::Create();
  auto opaque = instance->ResolveTypeName("!vm.opaque");
  ASSERT_TRUE(opaque.ok());
  EXPECT_TRUE(opaque->is_any());
  for (const char* name :
       {"!vm.list<i32>", "!vm.list<?>", "!vm.list<!hal.buffer>", "!vm.list<!vm.list<f32>>"}) {
    auto type = instance->ResolveTypeName(name);
    ASSERT_TRUE(type.ok()) << name << ": " << type.status().ToString();
    EXPECT_EQ(*type, Type::OfRef(&kListType)) << name;
  }
  auto buffer = instance->ResolveTypeName("!vm.buffer");
  ASSERT_TRUE(buffer.ok());
  EXPECT_EQ(*buffer, Type::OfRef(&kBufferType));
}

TEST(InstanceTest, ResolvesRegisteredTypesOnlyAfterRegistration) {
  base::Ref<Instance> instance = Instance::Create();
  EXPECT_TRUE(IsError(instance->ResolveTypeName("!hal.buffer"), StatusCode::kNotFound,
                      "no type registered with name '!hal.buffer'"));
  ASSERT_TRUE(instance->RegisterType(&kFakeHalBuffer).ok());
  auto type = instance->ResolveTypeName("!hal.buffer");
  ASSERT_TRUE(type.ok());
  EXPECT_EQ(*type, Type::OfRef(&kFakeHalBuffer));
}

TEST(InstanceTest, UnknownNamesAreNotFound) {
  base::Ref<Instance> instance = Instance::Create();
  for (const char* name : {"!x.y", "i1", "f16", "", "!", "vm.buffer", "I32", "!vm.lists<i32>"}) {
    EXPECT_TRUE(IsError(instance->ResolveTypeName(name), StatusCode::kNotFound,
                        std::string("no type registered with name '") + name + "'"))
        << name;
  }
}

TEST(InstanceTest, ConcurrentRegistrationAndLookup) {
  static const RefType kTypes[] = {{"t.a"}, {"t.b"}, {"t.c"}, {"t.d"}};
  base::Ref<Instance> instance = Instance::Create();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        if (!instance->RegisterType(&kTypes[(t + i) % 4]).ok()) ++failures;
        if (instance->LookupType("vm.list") != &kListType) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  for (const RefType& type : kTypes) EXPECT_EQ(instance->LookupType(type.name), &type);
}

}  // namespace
}  // namespace iree_rt::vm
