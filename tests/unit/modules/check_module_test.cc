// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Tests of the native `check` module, called through vm::NativeModule::Call and vm::Context with
// real buffer views on a local-sync CPU device (and a fake device whose buffers the host cannot
// map, for the read-through-the-device path).
#include "status_matchers.h"
#include "modules/check/check_module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/cpu/registration.h"
#include "hal/buffer_view.h"
#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/device_uri.h"
#include "hal/driver_registry.h"
#include "hal/utils/host_semaphore.h"
#include "modules/hal/ref_types.h"
#include "hal/utils/buffer_view_text.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/context.h"
#include "vm/instance.h"
#include "vm/stack.h"

namespace iree_rt::modules::check {
namespace {

// modules::hal (the ref types) would otherwise shadow the HAL namespace here.
namespace hal = ::iree_rt::hal;

using base::Ref;
using base::Status;
using base::StatusCode;
using base::StatusOr;

using iree_rt::testing::IsError;

StatusOr<Ref<hal::Device>> CreateLocalSyncDevice() {
  hal::DriverRegistry registry;
  RT_RETURN_IF_ERROR(drivers::cpu::RegisterCpuDrivers(registry));
  RT_ASSIGN_OR_RETURN(hal::DeviceUri uri, hal::DeviceUri::Parse("local-sync"));
  RT_ASSIGN_OR_RETURN(Ref<hal::Driver> driver, registry.CreateDriver(uri.driver));
  return driver->CreateDevice(uri);
}

hal::ElementType Type(std::string_view name) {
  StatusOr<hal::ElementType> type = hal::ParseElementType(name);
  EXPECT_TRUE(type.ok()) << name;
  return type.ok() ? type.value() : hal::ElementTypes::kNone;
}

//===------------------------------------------------------------------------------------------===//
// A device whose buffers live where the host cannot map them
//===------------------------------------------------------------------------------------------===//

// Device-local memory without mapping usage: Buffer::Map refuses it, only FakeDevice reads it.
class DeviceOnlyBuffer final : public hal::Buffer {
 public:
  explicit DeviceOnlyBuffer(std::vector<uint8_t> contents)
      : Buffer(hal::MemoryType::kDeviceLocal, hal::BufferUsage::kTransfer,
               hal::MemoryAccess::kAll, contents.size()),
        contents_(std::move(contents)) {}
  const std::vector<uint8_t>& contents() const { return contents_; }

 private:
  StatusOr<uint8_t*> MapImpl(uint64_t, uint64_t) override {
    return base::InternalError("device-only memory was mapped");
  }
  std::vector<uint8_t> contents_;
};

// Runs copies out of DeviceOnlyBuffers while recording; everything else is unsupported.
class EagerCommandBuffer final : public hal::CommandBuffer {
 public:
  EagerCommandBuffer(hal::CommandBufferModeBits mode, hal::CommandCategoryBits categories,
                     uint32_t binding_capacity)
      : CommandBuffer(mode, categories, binding_capacity) {}

 private:
  Status FillImpl(const hal::BufferRef&, uint32_t, uint32_t) override {
    return base::UnimplementedError("fill");
  }
  Status UpdateImpl(const void*, uint64_t, const hal::BufferRef&) override {
    return base::UnimplementedError("update");
  }
  Status CopyImpl(const hal::BufferRef& source, const hal::BufferRef& target,
                  uint64_t length) override {
    auto* device_only = dynamic_cast<DeviceOnlyBuffer*>(source.buffer.get());
    if (!device_only || !target.buffer) return base::UnimplementedError("copy");
    return target.buffer->Write(target.offset, device_only->contents().data() + source.offset,
                                length);
  }
  Status DispatchImpl(const Ref<hal::Executable>&, uint32_t, const hal::DispatchConfig&,
                      std::span<const uint32_t>, std::span<const hal::BufferRef>,
                      hal::DispatchFlags) override {
    return base::UnimplementedError("dispatch");
  }
  Status ExecutionBarrierImpl() override { return Status(); }
  Status CollectiveImpl(const Ref<hal::Channel>&, const hal::CollectiveOp&, uint32_t, const hal::BufferRef&,
                        const hal::BufferRef&, uint64_t, const hal::CollectiveBytes&) override {
    return base::UnimplementedError("no collectives here");
  }
  Status FinalizeImpl() override { return Status(); }
};

class FakeDevice final : public hal::Device {
 public:
  explicit FakeDevice(Ref<hal::Allocator> allocator) : Device("fake", std::move(allocator)) {}
  int executions() const { return executions_; }

 private:
  StatusOr<int64_t> QueryI64Impl(std::string_view, std::string_view) override {
    return base::NotFoundError("no queries");
  }
  StatusOr<Ref<hal::CommandBuffer>> CreateCommandBufferImpl(hal::CommandBufferModeBits mode,
                                                            hal::CommandCategoryBits categories,
                                                            uint32_t capacity) override {
    return Ref<hal::CommandBuffer>(base::MakeRef<EagerCommandBuffer>(mode, categories, capacity));
  }
  StatusOr<Ref<hal::Semaphore>> CreateSemaphoreImpl(uint64_t initial_value) override {
    return Ref<hal::Semaphore>(base::MakeRef<hal::utils::HostSemaphore>(initial_value));
  }
  StatusOr<Ref<hal::ExecutableCache>> CreateExecutableCacheImpl() override {
    return base::UnimplementedError("executables");
  }
  Status QueueExecuteImpl(hal::SemaphoreList wait, hal::SemaphoreList signal,
                          const Ref<hal::CommandBuffer>&,
                          std::span<const hal::BufferBinding>) override {
    RT_RETURN_IF_ERROR(hal::WaitSemaphores(hal::WaitMode::kAll, wait, hal::kInfiniteTimeout));
    ++executions_;
    for (const hal::SemaphorePoint& point : signal) {
      RT_RETURN_IF_ERROR(point.semaphore->Signal(point.value));
    }
    return Status();
  }
  Status QueueHostCallImpl(hal::SemaphoreList, hal::SemaphoreList, hal::HostCall) override {
    return base::UnimplementedError("host calls");
  }

  int executions_ = 0;
};

//===------------------------------------------------------------------------------------------===//
// Fixture
//===------------------------------------------------------------------------------------------===//

class CheckModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    instance_ = vm::Instance::Create();
    ASSERT_TRUE(modules::hal::RegisterRefTypes(*instance_).ok());
    StatusOr<Ref<vm::Module>> module = CreateCheckModule();
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    module_ = std::move(module).value();
    StatusOr<std::unique_ptr<vm::ModuleState>> state = module_->CreateState(*instance_);
    ASSERT_TRUE(state.ok()) << state.status().ToString();
    state_ = std::move(state).value();
    StatusOr<Ref<hal::Device>> device = CreateLocalSyncDevice();
    ASSERT_TRUE(device.ok()) << device.status().ToString();
    device_ = std::move(device).value();
  }

  // A host-visible view parsed from iree-run-module text ("2x2xf32=1 2 3 4").
  Ref<hal::BufferView> Parse(std::string_view spec) {
    StatusOr<Ref<hal::BufferView>> view = hal::utils::ParseBufferView(spec, device_->allocator());
    EXPECT_TRUE(view.ok()) << spec << ": " << view.status().ToString();
    return view.ok() ? view.value() : nullptr;
  }

  // A host-visible view over raw little-endian |bytes|.
  Ref<hal::BufferView> FromBytes(hal::ElementType type, std::vector<int64_t> shape,
                                 const void* bytes, size_t size) {
    hal::BufferParams params;
    params.type = hal::MemoryType::kHostLocal | hal::MemoryType::kDeviceVisible;
    params.usage = hal::BufferUsage::kDefault | hal::BufferUsage::kMappingScoped;
    StatusOr<Ref<hal::Buffer>> buffer = device_->allocator().AllocateBuffer(params, size);
    EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
    if (!buffer.ok()) return nullptr;
    EXPECT_TRUE(buffer.value()->Write(0, bytes, size).ok());
    StatusOr<Ref<hal::BufferView>> view =
        hal::BufferView::Create(buffer.value(), shape, type, hal::Encoding::kDenseRowMajor);
    EXPECT_TRUE(view.ok()) << view.status().ToString();
    return view.ok() ? view.value() : nullptr;
  }
  template <typename T>
  Ref<hal::BufferView> FromValues(hal::ElementType type, std::vector<T> values) {
    return FromBytes(type, {static_cast<int64_t>(values.size())}, values.data(),
                     values.size() * sizeof(T));
  }

  vm::Value DeviceValue() const { return vm::Value::FromRef(vm::Ref::Make(device_)); }
  static vm::Value ViewValue(Ref<hal::BufferView> view) {
    return vm::Value::FromRef(vm::Ref::Make(std::move(view)));
  }
  static vm::Value NullRef() { return vm::Value::FromRef(vm::Ref()); }

  Status Call(std::string_view name, std::vector<vm::Value> args,
              vm::ModuleState* state = nullptr) {
    StatusOr<uint32_t> ordinal = module_->FindExport(name);
    if (!ordinal.ok()) return ordinal.status();
    vm::Stack stack;
    return module_->Call(stack, state ? *state : *state_, ordinal.value(), args, {});
  }
  Status AllTrue(Ref<hal::BufferView> view) {
    return Call("expect_all_true", {DeviceValue(), ViewValue(std::move(view))});
  }
  Status Eq(Ref<hal::BufferView> lhs, Ref<hal::BufferView> rhs) {
    return Call("expect_eq", {DeviceValue(), ViewValue(std::move(lhs)), ViewValue(std::move(rhs))});
  }
  Status AlmostEq(Ref<hal::BufferView> lhs, Ref<hal::BufferView> rhs, float atol, float rtol) {
    return Call("expect_almost_eq", {DeviceValue(), ViewValue(std::move(lhs)),
                                     ViewValue(std::move(rhs)), vm::Value::F32(atol),
                                     vm::Value::F32(rtol)});
  }

  // The recorded failure messages ("" when there are none); clears them.
  std::string TakeFailures(vm::ModuleState* state = nullptr) {
    Status status = (state ? *state : *state_).TakeRecordedFailures();
    if (status.ok()) return "";
    EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition) << status.ToString();
    return std::string(status.message());
  }

  // Whether lhs ≈ rhs as one-element f64 views (exact in binary, so boundaries are exact too).
  bool NearF64(double lhs, double rhs, float atol, float rtol) {
    Status status = AlmostEq(FromValues(hal::ElementTypes::kFloat64, std::vector<double>{lhs}),
                             FromValues(hal::ElementTypes::kFloat64, std::vector<double>{rhs}),
                             atol, rtol);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return TakeFailures().empty();
  }
  bool NearF32(float lhs, float rhs, float atol, float rtol) {
    Status status = AlmostEq(FromValues(hal::ElementTypes::kFloat32, std::vector<float>{lhs}),
                             FromValues(hal::ElementTypes::kFloat32, std::vector<float>{rhs}),
                             atol, rtol);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return TakeFailures().empty();
  }

  Ref<vm::Instance> instance_;
  Ref<vm::Module> module_;
  std::unique_ptr<vm::ModuleState> state_;
  Ref<hal::Device> device_;
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

//===------------------------------------------------------------------------------------------===//
// Module shape
//===------------------------------------------------------------------------------------------===//

TEST_F(CheckModuleTest, ExportsTheCompilersImportSignatures) {
  EXPECT_EQ(module_->name(), "check");
  EXPECT_EQ(module_->version(), 0u);
  EXPECT_TRUE(module_->imports().empty());
  EXPECT_TRUE(module_->dependencies().empty());
  struct Expected {
    std::string_view name;
    std::string_view cconv;
  };
  const Expected expected[] = {{"expect_true", "0i_v"},
                               {"expect_false", "0i_v"},
                               {"expect_all_true", "0rr_v"},
                               {"expect_eq", "0rrr_v"},
                               {"expect_almost_eq", "0rrrff_v"}};
  ASSERT_EQ(module_->exports().size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    EXPECT_EQ(module_->exports()[i].name, expected[i].name);
    EXPECT_EQ(module_->exports()[i].cconv, expected[i].cconv) << expected[i].name;
  }
}

//===------------------------------------------------------------------------------------------===//
// expect_true / expect_false and the recorded failures
//===------------------------------------------------------------------------------------------===//

TEST_F(CheckModuleTest, ExpectTrue) {
  EXPECT_TRUE(Call("expect_true", {vm::Value::I32(1)}).ok());
  EXPECT_TRUE(Call("expect_true", {vm::Value::I32(-7)}).ok());
  EXPECT_EQ(TakeFailures(), "");
  // A failed expectation returns OK: the program goes on.
  EXPECT_TRUE(Call("expect_true", {vm::Value::I32(0)}).ok());
  EXPECT_EQ(TakeFailures(), "Expected 0 to be nonzero.");
}

TEST_F(CheckModuleTest, ExpectFalse) {
  EXPECT_TRUE(Call("expect_false", {vm::Value::I32(0)}).ok());
  EXPECT_EQ(TakeFailures(), "");
  EXPECT_TRUE(Call("expect_false", {vm::Value::I32(7)}).ok());
  EXPECT_EQ(TakeFailures(), "Expected 7 to be zero.");
  EXPECT_TRUE(Call("expect_false", {vm::Value::I32(-1)}).ok());
  EXPECT_EQ(TakeFailures(), "Expected -1 to be zero.");
}

TEST_F(CheckModuleTest, TakeRecordedFailuresJoinsAllAndClears) {
  EXPECT_TRUE(state_->TakeRecordedFailures().ok());
  EXPECT_TRUE(Call("expect_true", {vm::Value::I32(0)}).ok());
  EXPECT_TRUE(Call("expect_true", {vm::Value::I32(5)}).ok());
  EXPECT_TRUE(Call("expect_false", {vm::Value::I32(3)}).ok());
  EXPECT_TRUE(Call("expect_true", {vm::Value::I32(0)}).ok());
  Status failures = state_->TakeRecordedFailures();
  EXPECT_EQ(failures.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(failures.message(),
            "Expected 0 to be nonzero.\nExpected 3 to be zero.\nExpected 0 to be nonzero.");
  EXPECT_TRUE(state_->TakeRecordedFailures().ok());
}

TEST_F(CheckModuleTest, EachContextStateRecordsItsOwnFailures) {
  StatusOr<std::unique_ptr<vm::ModuleState>> other = module_->CreateState(*instance_);
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(Call("expect_true", {vm::Value::I32(0)}, other.value().get()).ok());
  EXPECT_EQ(TakeFailures(), "");
  EXPECT_EQ(TakeFailures(other.value().get()), "Expected 0 to be nonzero.");
}

TEST_F(CheckModuleTest, RejectsAStateOfAnotherModule) {
  vm::ModuleState foreign;
  EXPECT_TRUE(IsError(Call("expect_true", {vm::Value::I32(0)}, &foreign), StatusCode::kInternal,
                      "not created by the check module"));
}

//===------------------------------------------------------------------------------------------===//
// expect_all_true
//===------------------------------------------------------------------------------------------===//

TEST_F(CheckModuleTest, AllTrueEveryElementType) {
  // Passing values set only high bits where they can, so a narrow read would see zeros.
  struct Case {
    std::string_view type;
    std::string_view pass;
    std::string_view fail;
    std::string_view fail_text;
  };
  const Case cases[] = {
      {"i8", "-1 1 -128 127", "-1 1 0 127", "4xi8=-1 1 0 127"},
      {"si8", "-1 1 -128 127", "-1 1 0 127", "4xsi8=-1 1 0 127"},
      {"ui8", "255 1 128 127", "255 1 0 127", "4xui8=255 1 0 127"},
      {"i16", "256 -256 1 -1", "256 -256 0 -1", "4xi16=256 -256 0 -1"},
      {"si16", "256 -256 1 -1", "256 -256 0 -1", "4xsi16=256 -256 0 -1"},
      {"ui16", "256 65535 1 2", "256 65535 0 2", "4xui16=256 65535 0 2"},
      {"i32", "65536 -65536 1 -1", "65536 -65536 0 -1", "4xi32=65536 -65536 0 -1"},
      {"si32", "65536 -65536 1 -1", "65536 -65536 0 -1", "4xsi32=65536 -65536 0 -1"},
      {"ui32", "65536 4294967295 1 2", "65536 4294967295 0 2", "4xui32=65536 4294967295 0 2"},
      {"i64", "4294967296 -4294967296 1 -1", "4294967296 -4294967296 0 -1",
       "4xi64=4294967296 -4294967296 0 -1"},
      {"si64", "4294967296 -4294967296 1 -1", "4294967296 -4294967296 0 -1",
       "4xsi64=4294967296 -4294967296 0 -1"},
      {"ui64", "4294967296 18446744073709551615 1 2", "4294967296 18446744073709551615 0 2",
       "4xui64=4294967296 18446744073709551615 0 2"},
      {"i1", "01 01 FF 01", "01 01 00 01", "4xi1=01 01 00 01"},
      {"f32", "1 -1 NAN 0.5", "1 -1 -0 0.5", "4xf32=1 -1 -0 0.5"},
      {"f64", "1 -1 NAN 1e-300", "1 -1 0 1e-300", "4xf64=1 -1 0 1E-300"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.type);
    const std::string prefix = "4x" + std::string(c.type) + "=";
    EXPECT_TRUE(AllTrue(Parse(prefix + std::string(c.pass))).ok());
    EXPECT_EQ(TakeFailures(), "");
    EXPECT_TRUE(AllTrue(Parse(prefix + std::string(c.fail))).ok());
    EXPECT_EQ(TakeFailures(),
              "Expected all elements to be true (nonzero). The first zero element is at index 2."
              "\n  operand:\n    " + std::string(c.fail_text));
  }
}

TEST_F(CheckModuleTest, AllTrueOfEmptyAndScalarViews) {
  EXPECT_TRUE(AllTrue(FromBytes(hal::ElementTypes::kInt32, {0}, nullptr, 0)).ok());
  EXPECT_TRUE(AllTrue(Parse("i32=3")).ok());
  EXPECT_EQ(TakeFailures(), "");
  EXPECT_TRUE(AllTrue(Parse("2x2xi32=1 2 3 0")).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected all elements to be true (nonzero). The first zero element is at index 3."
            "\n  operand:\n    2x2xi32=[1 2][3 0]");
  EXPECT_TRUE(AllTrue(Parse("i32=0")).ok());
  EXPECT_NE(TakeFailures().find("index 0.\n  operand:\n    i32=0"), std::string::npos);
}

TEST_F(CheckModuleTest, AllTrueRejectsOtherElementTypes) {
  for (std::string_view type : {"f16", "bf16", "f8E4M3FN", "cf64"}) {
    SCOPED_TRACE(type);
    const uint64_t zeros[2] = {0, 0};
    const hal::ElementType element_type = Type(type);
    const size_t size = hal::ElementBitCount(element_type) / 8;
    EXPECT_TRUE(IsError(AllTrue(FromBytes(element_type, {2}, zeros, 2 * size)),
                        StatusCode::kInvalidArgument,
                        "unsupported element type " + std::string(type)));
    EXPECT_EQ(TakeFailures(), "");
  }
}

//===------------------------------------------------------------------------------------------===//
// expect_eq
//===------------------------------------------------------------------------------------------===//

TEST_F(CheckModuleTest, EqPasses) {
  EXPECT_TRUE(Eq(Parse("2x3xi32=1 2 3 4 5 6"), Parse("2x3xi32=1 2 3 4 5 6")).ok());
  EXPECT_TRUE(Eq(Parse("i8=-3"), Parse("i8=-3")).ok());
  EXPECT_TRUE(Eq(FromBytes(hal::ElementTypes::kFloat32, {0, 4}, nullptr, 0),
                 FromBytes(hal::ElementTypes::kFloat32, {0, 4}, nullptr, 0))
                  .ok());
  // Bytewise: the same NaN bits are equal.
  EXPECT_TRUE(Eq(Parse("2xf32=NAN 1"), Parse("2xf32=NAN 1")).ok());
  EXPECT_EQ(TakeFailures(), "");
}

TEST_F(CheckModuleTest, EqContentsMismatch) {
  EXPECT_TRUE(Eq(Parse("2x3xi32=1 2 3 4 5 6"), Parse("2x3xi32=1 2 3 4 5 7")).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected equality of these values. Contents does not match.\n"
            "  lhs:\n    2x3xi32=[1 2 3][4 5 6]\n"
            "  rhs:\n    2x3xi32=[1 2 3][4 5 7]");
  // Bytewise: -0 and 0 differ.
  EXPECT_TRUE(Eq(Parse("f32=0"), Parse("f32=-0")).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected equality of these values. Contents does not match.\n"
            "  lhs:\n    f32=0\n  rhs:\n    f32=-0");
}

TEST_F(CheckModuleTest, EqElementTypeAndShapeMismatches) {
  // Same bytes, different types: only the types differ.
  EXPECT_TRUE(Eq(Parse("4xi32=0"), Parse("4xf32=0")).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected equality of these values. Element types do not match.\n"
            "  lhs:\n    4xi32=0 0 0 0\n  rhs:\n    4xf32=0 0 0 0");
  // Same bytes, different shapes.
  EXPECT_TRUE(Eq(Parse("2x2xi32=1 2 3 4"), Parse("4xi32=1 2 3 4")).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected equality of these values. Shapes do not match.\n"
            "  lhs:\n    2x2xi32=[1 2][3 4]\n  rhs:\n    4xi32=1 2 3 4");
  // An empty operand.
  EXPECT_TRUE(Eq(FromBytes(hal::ElementTypes::kInt32, {0}, nullptr, 0), Parse("1xi32=1")).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected equality of these values. Shapes do not match. Contents does not match.\n"
            "  lhs:\n    0xi32=\n  rhs:\n    1xi32=1");
  // Everything differs.
  EXPECT_TRUE(Eq(Parse("4xi32=1 2 3 4"), Parse("3xf32=1 2 3")).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected equality of these values. Element types do not match. Shapes do not match. "
            "Contents does not match.\n"
            "  lhs:\n    4xi32=1 2 3 4\n  rhs:\n    3xf32=1 2 3");
}

TEST_F(CheckModuleTest, EqPrintsAtMost1024ElementsPerOperand) {
  EXPECT_TRUE(Eq(Parse("2000xi32=7"), Parse("2000xi32=8")).ok());
  const std::string message = TakeFailures();
  const size_t lhs = message.find("  lhs:\n    2000xi32=7 7");
  const size_t rhs = message.find("\n  rhs:\n    2000xi32=8 8");
  ASSERT_NE(lhs, std::string::npos);
  ASSERT_NE(rhs, std::string::npos);
  const std::string lhs_text = message.substr(lhs, rhs - lhs);
  EXPECT_EQ(std::count(lhs_text.begin(), lhs_text.end(), '7'), 1024);
  EXPECT_TRUE(lhs_text.ends_with(" 7..."));
  EXPECT_TRUE(message.ends_with(" 8..."));
}

//===------------------------------------------------------------------------------------------===//
// expect_almost_eq
//===------------------------------------------------------------------------------------------===//

TEST_F(CheckModuleTest, AlmostEqMessage) {
  EXPECT_TRUE(AlmostEq(Parse("4xf32=1 2 3 4"), Parse("4xf32=1 2 3.5 4"), 0.1f, 0.0f).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected near equality of these values. Contents does not match to tolerance "
            "parameters atol=0.1, rtol=0. The first failure occurs at index 2 as the lhs value 3 "
            "differs from the rhs value 3.5 by 5.000e-01.\n"
            "  lhs:\n    4xf32=1 2 3 4\n  rhs:\n    4xf32=1 2 3.5 4");
  // The difference is rhs - lhs, signed; the compiler's default atol prints as 0.0001.
  EXPECT_TRUE(AlmostEq(Parse("2x1xf32=2 1"), Parse("2x1xf32=1 1"), 1e-4f, 0.0f).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected near equality of these values. Contents does not match to tolerance "
            "parameters atol=0.0001, rtol=0. The first failure occurs at index 0 as the lhs value "
            "2 differs from the rhs value 1 by -1.000e+00.\n"
            "  lhs:\n    2x1xf32=[2][1]\n  rhs:\n    2x1xf32=[1][1]");
  EXPECT_TRUE(AlmostEq(Parse("f32=1"), Parse("f32=1.00005"), 1e-4f, 0.0f).ok());
  EXPECT_EQ(TakeFailures(), "");
}

TEST_F(CheckModuleTest, AlmostEqToleranceBoundaries) {
  EXPECT_TRUE(NearF64(1.0, 1.5, 0.5f, 0.0f));
  EXPECT_FALSE(NearF64(1.0, 1.5, 0.4375f, 0.0f));
  EXPECT_TRUE(NearF64(1.5, 1.0, 0.5f, 0.0f));
  EXPECT_TRUE(NearF64(1.0, 2.0, 0.0f, 0.5f));  // rtol scales |rhs| (the expected value)
  EXPECT_FALSE(NearF64(1.0, 2.0, 0.0f, 0.375f));
  EXPECT_FALSE(NearF64(2.0, 1.0, 0.0f, 0.5f));
  EXPECT_TRUE(NearF64(2.0, 1.0, 0.0f, 1.0f));
  EXPECT_TRUE(NearF64(1.0, 2.0, 0.5f, 0.25f));  // atol + rtol * |rhs| = 1
  EXPECT_FALSE(NearF64(1.0, 2.0, 0.25f, 0.25f));
  EXPECT_TRUE(NearF64(-1.0, -2.0, 0.5f, 0.25f));
  EXPECT_TRUE(NearF64(5.0, 5.0, 0.0f, 0.0f));
  EXPECT_FALSE(NearF64(5.0, std::nextafter(5.0, 6.0), 0.0f, 0.0f));
  // One f32 ulp at 1 (2^-23) is within an atol of exactly 2^-23, not of 2^-24.
  EXPECT_TRUE(NearF32(1.0f, 1.0f + 0x1p-23f, 0x1p-23f, 0.0f));
  EXPECT_FALSE(NearF32(1.0f, 1.0f + 0x1p-23f, 0x1p-24f, 0.0f));
}

TEST_F(CheckModuleTest, AlmostEqNaNAndInfinityRules) {
  EXPECT_TRUE(NearF64(kNaN, kNaN, 0.0f, 0.0f));
  EXPECT_TRUE(NearF64(-kNaN, kNaN, 0.0f, 0.0f));
  EXPECT_FALSE(NearF64(kNaN, 1.0, 1e30f, 0.0f));
  EXPECT_FALSE(NearF64(1.0, kNaN, 1e30f, 0.0f));
  EXPECT_TRUE(NearF64(kInf, kInf, 0.0f, 0.0f));
  EXPECT_TRUE(NearF64(-kInf, -kInf, 0.0f, 0.0f));
  EXPECT_FALSE(NearF64(-kInf, kInf, 0.0f, 0.0f));
  EXPECT_FALSE(NearF64(kInf, 1.0, 1e30f, 1e30f));
  // An infinite expected value must be matched exactly, whatever the tolerance.
  EXPECT_FALSE(NearF64(1.0, kInf, std::numeric_limits<float>::infinity(), 0.0f));
  EXPECT_TRUE(NearF64(1.0, 1e300, std::numeric_limits<float>::infinity(), 0.0f));
  EXPECT_TRUE(NearF32(std::numeric_limits<float>::infinity(),
                      std::numeric_limits<float>::infinity(), 0.0f, 0.0f));
  EXPECT_FALSE(NearF32(static_cast<float>(kNaN), 0.0f, 1.0f, 1.0f));

  EXPECT_TRUE(AlmostEq(Parse("3xf32=1 INF 2"), Parse("3xf32=1 NAN 2"), 1.0f, 0.0f).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected near equality of these values. Contents does not match to tolerance "
            "parameters atol=1, rtol=0. The first failure occurs at index 1 as the lhs value inf "
            "differs from the rhs value nan by nan.\n"
            "  lhs:\n    3xf32=1 INF 2\n  rhs:\n    3xf32=1 NAN 2");
}

TEST_F(CheckModuleTest, AlmostEqEveryFloatType) {
  // Encodings of 1, 2, 0.5 and a NaN in each format.
  struct Case {
    std::string_view type;
    uint16_t one, two, half, nan;
  };
  const Case cases[] = {
      {"f16", 0x3C00, 0x4000, 0x3800, 0x7E00},
      {"bf16", 0x3F80, 0x4000, 0x3F00, 0x7FC0},
      {"f8E5M2", 0x3C, 0x40, 0x38, 0x7F},
      {"f8E4M3FN", 0x38, 0x40, 0x30, 0x7F},
      {"f8E5M2FNUZ", 0x40, 0x44, 0x3C, 0x80},
      {"f8E4M3FNUZ", 0x40, 0x48, 0x38, 0x80},
      {"f8E8M0FNU", 0x7F, 0x80, 0x7E, 0xFF},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.type);
    const hal::ElementType type = Type(c.type);
    const size_t size = hal::ElementBitCount(type) / 8;
    auto view = [&](std::vector<uint16_t> values) {
      std::vector<uint8_t> bytes;
      for (uint16_t value : values) {
        bytes.push_back(static_cast<uint8_t>(value));
        if (size == 2) bytes.push_back(static_cast<uint8_t>(value >> 8));
      }
      return FromBytes(type, {static_cast<int64_t>(values.size())}, bytes.data(), bytes.size());
    };
    const std::string name(c.type);
    EXPECT_TRUE(AlmostEq(view({c.one, c.two, c.nan}), view({c.one, c.two, c.nan}), 0, 0).ok());
    // |2 - 0.5| = 1.5: passes at exactly atol 1.5, fails below.
    EXPECT_TRUE(AlmostEq(view({c.one, c.two}), view({c.one, c.half}), 1.5f, 0).ok());
    EXPECT_EQ(TakeFailures(), "");
    EXPECT_TRUE(AlmostEq(view({c.one, c.two}), view({c.one, c.half}), 1.0f, 0).ok());
    EXPECT_EQ(TakeFailures(),
              "Expected near equality of these values. Contents does not match to tolerance "
              "parameters atol=1, rtol=0. The first failure occurs at index 1 as the lhs value 2 "
              "differs from the rhs value 0.5 by -1.500e+00.\n"
              "  lhs:\n    2x" + name + "=1 2\n  rhs:\n    2x" + name + "=1 0.5");
    EXPECT_TRUE(AlmostEq(view({c.one}), view({c.nan}), 100.0f, 0).ok());
    EXPECT_NE(TakeFailures().find("as the lhs value 1 differs from the rhs value"),
              std::string::npos);
  }
  // f32 and f64 (native encodings).
  EXPECT_TRUE(AlmostEq(Parse("2xf64=1 2"), Parse("2xf64=1 0.5"), 1.5f, 0).ok());
  EXPECT_TRUE(AlmostEq(Parse("2xf32=1 2"), Parse("2xf32=1 0.5"), 1.5f, 0).ok());
  EXPECT_EQ(TakeFailures(), "");
  EXPECT_TRUE(AlmostEq(Parse("2xf64=1 2"), Parse("2xf64=1 0.5"), 1.0f, 0).ok());
  EXPECT_NE(TakeFailures().find("  lhs:\n    2xf64=1 2\n  rhs:\n    2xf64=1 0.5"),
            std::string::npos);
}

TEST_F(CheckModuleTest, AlmostEqTypeAndShapeMismatches) {
  // A type mismatch is a recorded failure, not an error, even for a type almost_eq rejects.
  EXPECT_TRUE(AlmostEq(Parse("2xi32=1 2"), Parse("2xf32=1 2"), 0, 0).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected near equality of these values. Element types do not match.\n"
            "  lhs:\n    2xi32=1 2\n  rhs:\n    2xf32=1 2");
  EXPECT_TRUE(AlmostEq(Parse("4xf32=1 2 3 4"), Parse("2x2xf32=1 2 3 4"), 0, 0).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected near equality of these values. Shapes do not match.\n"
            "  lhs:\n    4xf32=1 2 3 4\n  rhs:\n    2x2xf32=[1 2][3 4]");
  EXPECT_TRUE(AlmostEq(Parse("4xf32=1 2 3 4"), Parse("2xf16=1 2"), 0, 0).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected near equality of these values. Element types do not match. Shapes do not "
            "match.\n  lhs:\n    4xf32=1 2 3 4\n  rhs:\n    2xf16=1 2");
}

TEST_F(CheckModuleTest, AlmostEqRejectsNonFloatTypes) {
  for (std::string_view spec : {"2xi32=1 2", "2xi8=1 2", "2xi1=01 00", "2xcf64"}) {
    SCOPED_TRACE(spec);
    const std::string type(spec.substr(2, spec.find('=') - 2));
    EXPECT_TRUE(IsError(AlmostEq(Parse(spec), Parse(spec), 0, 0), StatusCode::kInvalidArgument,
                        "unsupported element type " + type));
    EXPECT_EQ(TakeFailures(), "");
  }
}

//===------------------------------------------------------------------------------------------===//
// Argument errors
//===------------------------------------------------------------------------------------------===//

TEST_F(CheckModuleTest, NullViewsAreErrors) {
  Ref<hal::BufferView> view = Parse("2xi32=1 2");
  EXPECT_TRUE(IsError(Call("expect_eq", {DeviceValue(), NullRef(), ViewValue(view)}),
                      StatusCode::kInvalidArgument, "lhs: the buffer view is null"));
  EXPECT_TRUE(IsError(Call("expect_eq", {DeviceValue(), ViewValue(view), NullRef()}),
                      StatusCode::kInvalidArgument,
                      "rhs: the buffer view is null; while invoking native function "
                      "check.expect_eq"));
  EXPECT_TRUE(IsError(Call("expect_all_true", {DeviceValue(), NullRef()}),
                      StatusCode::kInvalidArgument, "operand: the buffer view is null"));
  EXPECT_TRUE(IsError(Call("expect_almost_eq", {DeviceValue(), NullRef(), ViewValue(view),
                                                vm::Value::F32(0), vm::Value::F32(0)}),
                      StatusCode::kInvalidArgument, "lhs: the buffer view is null"));
  EXPECT_EQ(TakeFailures(), "");
}

TEST_F(CheckModuleTest, WronglyTypedRefsAreErrors) {
  Ref<hal::BufferView> view = Parse("2xi32=1 2");
  EXPECT_TRUE(IsError(Call("expect_eq", {DeviceValue(), ViewValue(view), DeviceValue()}),
                      StatusCode::kInvalidArgument,
                      "rhs: expected a hal.buffer_view, got hal.device"));
  EXPECT_TRUE(IsError(Call("expect_all_true", {ViewValue(view), ViewValue(view)}),
                      StatusCode::kInvalidArgument,
                      "device: expected a hal.device, got hal.buffer_view"));
  EXPECT_TRUE(IsError(
      Call("expect_all_true", {DeviceValue(), vm::Value::FromRef(vm::Ref::Make(view->buffer()))}),
      StatusCode::kInvalidArgument, "operand: expected a hal.buffer_view, got hal.buffer"));
}

TEST_F(CheckModuleTest, NullDeviceIsFineForHostBuffers) {
  EXPECT_TRUE(Call("expect_eq", {NullRef(), ViewValue(Parse("i32=1")), ViewValue(Parse("i32=2"))})
                  .ok());
  EXPECT_NE(TakeFailures().find("Contents does not match."), std::string::npos);
}

TEST_F(CheckModuleTest, NativeModuleRejectsArgumentsOffTheCconv) {
  Ref<hal::BufferView> view = Parse("2xf32=1 2");
  EXPECT_TRUE(IsError(Call("expect_true", {vm::Value::F32(1)}), StatusCode::kInvalidArgument,
                      "while invoking native function check.expect_true"));
  EXPECT_TRUE(IsError(Call("expect_false", {vm::Value::I64(1)}), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Call("expect_true", {}), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Call("expect_true", {vm::Value::I32(1), vm::Value::I32(1)}),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Call("expect_all_true", {DeviceValue(), vm::Value::I32(0)}),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Call("expect_eq", {DeviceValue(), ViewValue(view)}),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(Call("expect_almost_eq", {DeviceValue(), ViewValue(view), ViewValue(view),
                                                vm::Value::F64(0), vm::Value::F64(0)}),
                      StatusCode::kInvalidArgument));
  EXPECT_EQ(TakeFailures(), "");
}

//===------------------------------------------------------------------------------------------===//
// Buffers the host cannot map
//===------------------------------------------------------------------------------------------===//

class CheckModuleDeviceOnlyTest : public CheckModuleTest {
 protected:
  void SetUp() override {
    CheckModuleTest::SetUp();
    fake_ = base::MakeRef<FakeDevice>(Ref<hal::Allocator>::Retain(&device_->allocator()));
  }

  Ref<hal::BufferView> DeviceOnlyI32(std::vector<int32_t> values) {
    std::vector<uint8_t> bytes(values.size() * sizeof(int32_t));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    StatusOr<Ref<hal::BufferView>> view = hal::BufferView::Create(
        base::MakeRef<DeviceOnlyBuffer>(std::move(bytes)),
        std::vector<int64_t>{static_cast<int64_t>(values.size())}, hal::ElementTypes::kInt32,
        hal::Encoding::kDenseRowMajor);
    EXPECT_TRUE(view.ok()) << view.status().ToString();
    return view.ok() ? view.value() : nullptr;
  }
  vm::Value FakeValue() const {
    return vm::Value::FromRef(vm::Ref::Make(Ref<hal::Device>(fake_)));
  }

  Ref<FakeDevice> fake_;
};

TEST_F(CheckModuleDeviceOnlyTest, ViewsAreReadThroughTheDevice) {
  Ref<hal::BufferView> device_only = DeviceOnlyI32({1, 2, 3, 4});
  EXPECT_TRUE(Call("expect_eq", {FakeValue(), ViewValue(device_only),
                                 ViewValue(Parse("4xi32=1 2 3 4"))})
                  .ok());
  EXPECT_EQ(TakeFailures(), "");
  EXPECT_EQ(fake_->executions(), 1);

  EXPECT_TRUE(Call("expect_eq", {FakeValue(), ViewValue(Parse("4xi32=1 2 3 5")),
                                 ViewValue(device_only)})
                  .ok());
  EXPECT_EQ(TakeFailures(),
            "Expected equality of these values. Contents does not match.\n"
            "  lhs:\n    4xi32=1 2 3 5\n  rhs:\n    4xi32=1 2 3 4");
  EXPECT_EQ(fake_->executions(), 2);

  EXPECT_TRUE(Call("expect_all_true", {FakeValue(), ViewValue(DeviceOnlyI32({1, 0}))}).ok());
  EXPECT_EQ(TakeFailures(),
            "Expected all elements to be true (nonzero). The first zero element is at index 1."
            "\n  operand:\n    2xi32=1 0");
  // Both operands are read before the element type is looked at.
  EXPECT_TRUE(IsError(Call("expect_almost_eq", {FakeValue(), ViewValue(device_only),
                                                ViewValue(device_only), vm::Value::F32(0),
                                                vm::Value::F32(0)}),
                      StatusCode::kInvalidArgument, "unsupported element type i32"));
  EXPECT_EQ(fake_->executions(), 5);
}

TEST_F(CheckModuleDeviceOnlyTest, WithoutADeviceTheyAreAnError) {
  EXPECT_TRUE(IsError(Call("expect_all_true", {NullRef(), ViewValue(DeviceOnlyI32({1}))}),
                      StatusCode::kInvalidArgument, "not host-mappable"));
}

//===------------------------------------------------------------------------------------------===//
// Through a context
//===------------------------------------------------------------------------------------------===//

TEST_F(CheckModuleTest, ContextReportsRecordedFailuresAsTheCallResult) {
  const Ref<vm::Module> modules[] = {module_};
  StatusOr<Ref<vm::Context>> context = vm::Context::Create(instance_, modules);
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  StatusOr<vm::Context::Function> expect_true =
      context.value()->LookupFunction("check.expect_true");
  ASSERT_TRUE(expect_true.ok()) << expect_true.status().ToString();
  StatusOr<vm::Context::Function> expect_eq = context.value()->LookupFunction("check.expect_eq");
  ASSERT_TRUE(expect_eq.ok()) << expect_eq.status().ToString();

  std::vector<vm::Value> results;
  const vm::Value one[] = {vm::Value::I32(1)};
  EXPECT_TRUE(context.value()->Invoke(expect_true.value(), one, &results).ok());
  const vm::Value zero[] = {vm::Value::I32(0)};
  EXPECT_TRUE(IsError(context.value()->Invoke(expect_true.value(), zero, &results),
                      StatusCode::kFailedPrecondition, "Expected 0 to be nonzero."));
  // The failure was reported once; the next call starts clean.
  EXPECT_TRUE(context.value()->Invoke(expect_true.value(), one, &results).ok());

  const vm::Value views[] = {DeviceValue(), ViewValue(Parse("2xi32=1 2")),
                             ViewValue(Parse("2xi32=1 3"))};
  EXPECT_TRUE(IsError(context.value()->Invoke(expect_eq.value(), views, &results),
                      StatusCode::kFailedPrecondition,
                      "Expected equality of these values. Contents does not match.\n"
                      "  lhs:\n    2xi32=1 2\n  rhs:\n    2xi32=1 3"));
}

//===------------------------------------------------------------------------------------------===//
// With a program compiled by iree-compile
//===------------------------------------------------------------------------------------------===//

class CheckModuleProgramTest : public CheckModuleTest {
 protected:
  void SetUp() override {
#ifndef RT_TEST_MODULES_PROGRAMS_DIR
    GTEST_SKIP() << "this build has no iree-compile: the test program was not compiled";
#else
    CheckModuleTest::SetUp();
    const std::string path =
        std::string(RT_TEST_MODULES_PROGRAMS_DIR) + "/modules_program_check_scalars.vmfb";
    std::ifstream file(path, std::ios::binary);
    ASSERT_TRUE(file) << "cannot open " << path;
    bytes_.assign(std::istreambuf_iterator<char>(file), {});
    StatusOr<Ref<vm::bytecode::BytecodeModule>> program =
        vm::bytecode::BytecodeModule::Load(*instance_, bytes_, nullptr);
    ASSERT_TRUE(program.ok()) << program.status().ToString();
    program_ = std::move(program).value();
#endif
  }

  // Links |modules| and calls the program's |function| with |args|.
  Status Run(std::span<const Ref<vm::Module>> modules, std::string_view function,
             std::vector<vm::Value> args) {
    RT_ASSIGN_OR_RETURN(Ref<vm::Context> context, vm::Context::Create(instance_, modules));
    RT_ASSIGN_OR_RETURN(vm::Context::Function entry, context->LookupFunction(function));
    std::vector<vm::Value> results;
    return context->Invoke(entry, args, &results);
  }

  std::vector<uint8_t> bytes_;  // outlives program_ (declared first)
  Ref<vm::Module> program_;
};

TEST_F(CheckModuleProgramTest, ImportsMatchTheExports) {
  std::vector<std::pair<std::string, std::string>> imports;
  for (const vm::ImportInfo& import : program_->imports()) {
    EXPECT_TRUE(import.optional) << import.full_name;
    imports.emplace_back(import.full_name, import.cconv);
  }
  EXPECT_EQ(imports, (std::vector<std::pair<std::string, std::string>>{
                         {"check.expect_true", "0i_v"}, {"check.expect_false", "0i_v"}}));
  for (const auto& [name, cconv] : imports) {
    StatusOr<uint32_t> ordinal = module_->FindExport(std::string_view(name).substr(6));
    ASSERT_TRUE(ordinal.ok()) << name;
    EXPECT_EQ(module_->exports()[ordinal.value()].cconv, cconv);
  }
}

TEST_F(CheckModuleProgramTest, ExpectationsOfARealProgram) {
  const Ref<vm::Module> modules[] = {module_, program_};
  EXPECT_TRUE(Run(modules, "passes", {}).ok());
  // expect_true(0) fails, expect_false(0) passes; the program still returns normally.
  EXPECT_TRUE(IsError(Run(modules, "fails", {vm::Value::I32(0)}), StatusCode::kFailedPrecondition,
                      "Expected 0 to be nonzero."));
  Status both = Run(modules, "fails", {vm::Value::I32(5)});
  EXPECT_TRUE(IsError(both, StatusCode::kFailedPrecondition, "Expected 5 to be zero."));
  EXPECT_EQ(both.message().find("nonzero"), std::string_view::npos) << both.ToString();
  // The i64 operand is truncated by the compiler: 2^32 arrives as 0.
  EXPECT_TRUE(Run(modules, "wide", {vm::Value::I64(3)}).ok());
  EXPECT_TRUE(IsError(Run(modules, "wide", {vm::Value::I64(int64_t{1} << 32)}),
                      StatusCode::kFailedPrecondition, "Expected 0 to be nonzero."));
}

TEST_F(CheckModuleProgramTest, WithoutTheModuleExpectationsAreSkipped) {
  const Ref<vm::Module> modules[] = {program_};
  EXPECT_TRUE(Run(modules, "fails", {vm::Value::I32(0)}).ok());
  EXPECT_TRUE(Run(modules, "fails", {vm::Value::I32(5)}).ok());
}

}  // namespace
}  // namespace iree_rt::modules::check
