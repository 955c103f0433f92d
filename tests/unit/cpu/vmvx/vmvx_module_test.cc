// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The native vmvx module's microkernels, called as a program would (Module::Call with the
// cconv's values): results on strided and broadcast windows, and error statuses (never a stray
// access) for windows outside their buffers, bad signs, bad flags and read-only outputs.
#include "modules/vmvx/vmvx_module.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "status_matchers.h"
#include "vm/buffer.h"
#include "vm/instance.h"
#include "vm/stack.h"

namespace iree_rt {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using testing::IsError;
using testing::IsOk;
using vm::Value;

class VmvxModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    instance_ = vm::Instance::Create();
    auto module = modules::vmvx::CreateVmvxModule();
    ASSERT_TRUE(IsOk(module));
    module_ = *module;
    auto state = module_->CreateState(*instance_);
    ASSERT_TRUE(IsOk(state));
    state_ = std::move(*state);
  }

  template <typename T>
  Ref<vm::Buffer> Make(const std::vector<T>& values) {
    auto buffer = vm::Buffer::Allocate(values.size() * sizeof(T), 0);
    EXPECT_TRUE(IsOk(buffer));
    if (!values.empty()) std::memcpy((*buffer)->WriteRange(0, values.size() * sizeof(T))->data(),
                                     values.data(), values.size() * sizeof(T));
    return *buffer;
  }
  template <typename T>
  std::vector<T> Read(const vm::Buffer& buffer) {
    std::vector<T> values(buffer.length() / sizeof(T));
    std::memcpy(values.data(), buffer.bytes().data(), values.size() * sizeof(T));
    return values;
  }

  static Value B(const Ref<vm::Buffer>& buffer) { return Value::FromRef(vm::Ref::Make(buffer)); }
  static Value I(int64_t v) { return Value::I64(v); }
  static Value W(int32_t v) { return Value::I32(v); }

  Status Call(std::string_view name, std::vector<Value> args) {
    auto ordinal = module_->FindExport(name);
    if (!ordinal.ok()) return ordinal.status();
    vm::Stack stack;
    std::vector<Value> results;
    return module_->Call(stack, *state_, *ordinal, args, results);
  }

  Ref<vm::Instance> instance_;
  Ref<vm::Module> module_;
  std::unique_ptr<vm::ModuleState> state_;
};

TEST_F(VmvxModuleTest, BinaryWithBroadcastAndStrides) {
  auto lhs = Make<float>({1, 2, 3});  // one row, broadcast over rows (stride0 0)
  auto rhs = Make<float>({10, 20, 30, 40, 50, 60});
  auto out = Make<float>(std::vector<float>(8, -1));
  // out rows at stride 4 starting at element 1: 2 rows x 3 columns.
  ASSERT_TRUE(IsOk(Call("add.2d.f32", {B(lhs), I(0), I(0), I(1), B(rhs), I(0), I(3), I(1), B(out),
                                       I(1), I(4), I(1), I(2), I(3)})));
  EXPECT_EQ(Read<float>(*out), (std::vector<float>{-1, 11, 22, 33, -1, 41, 52, 63}));
}

TEST_F(VmvxModuleTest, IntegerEdgeCases) {
  auto lhs = Make<int32_t>({std::numeric_limits<int32_t>::min(), 7, -8});
  auto rhs = Make<int32_t>({-1, 2, 33});
  auto out = Make<int32_t>({0, 0, 0});
  auto row = [&](const Ref<vm::Buffer>& b) { return std::vector<Value>{B(b), I(0), I(3), I(1)}; };
  auto args = [&]() {
    std::vector<Value> a = row(lhs);
    for (auto v : row(rhs)) a.push_back(v);
    for (auto v : row(out)) a.push_back(v);
    a.push_back(I(1));
    a.push_back(I(3));
    return a;
  };
  ASSERT_TRUE(IsOk(Call("divs.2d.i32", args())));  // INT_MIN / -1 wraps
  EXPECT_EQ(Read<int32_t>(*out), (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), 3, 0}));
  ASSERT_TRUE(IsOk(Call("shl.2d.i32", args())));  // shift amounts mod 32
  EXPECT_EQ(Read<int32_t>(*out)[2], -16);
  auto zero = Make<int32_t>({0, 1, 1});
  std::vector<Value> a = args();
  a[4] = B(zero);
  EXPECT_TRUE(IsError(Call("divu.2d.i32", a), StatusCode::kInvalidArgument, "division by zero"));
}

TEST_F(VmvxModuleTest, CopyTransposesAndFillsRows) {
  auto in = Make<uint8_t>({1, 2, 3, 4, 5, 6});  // 2x3
  auto out = Make<uint8_t>(std::vector<uint8_t>(6, 0));
  ASSERT_TRUE(IsOk(Call("copy.2d.x8", {B(in), I(0), I(1), I(3), B(out), I(0), I(2), I(1), I(3), I(2)})));
  EXPECT_EQ(Read<uint8_t>(*out), (std::vector<uint8_t>{1, 4, 2, 5, 3, 6}));
  auto fill = Make<int32_t>(std::vector<int32_t>(6, 0));
  ASSERT_TRUE(IsOk(Call("fill.2d.x32", {W(9), B(fill), I(1), I(3), I(2), I(2)})));
  EXPECT_EQ(Read<int32_t>(*fill), (std::vector<int32_t>{0, 9, 9, 0, 9, 9}));
}

TEST_F(VmvxModuleTest, ZeroSizesTouchNothing) {
  auto buf = Make<float>({1, 2});
  // Offsets far past the end are fine when nothing is accessed.
  EXPECT_TRUE(IsOk(Call("exp.2d.f32", {B(buf), I(1000), I(1), I(1), B(buf), I(1000), I(1), I(1), I(0), I(5)})));
  EXPECT_TRUE(IsOk(Call("fill.2d.x32", {W(1), B(buf), I(99), I(1), I(7), I(0)})));
  EXPECT_EQ(Read<float>(*buf), (std::vector<float>{1, 2}));
}

TEST_F(VmvxModuleTest, WindowsOutsideTheBufferAreErrors) {
  auto in = Make<float>({1, 2, 3, 4});
  auto out = Make<float>({0, 0, 0, 0});
  auto unary = [&](int64_t in_off, int64_t s0, int64_t s1, int64_t out_off, int64_t size0,
                   int64_t size1) {
    return Call("neg.2d.f32", {B(in), I(in_off), I(s0), I(s1), B(out), I(out_off), I(size1), I(1),
                               I(size0), I(size1)});
  };
  EXPECT_TRUE(IsOk(unary(0, 2, 1, 0, 2, 2)));
  EXPECT_TRUE(IsError(unary(1, 2, 1, 0, 2, 2), StatusCode::kOutOfRange, "in window"));
  EXPECT_TRUE(IsError(unary(0, 2, 1, 1, 2, 2), StatusCode::kOutOfRange, "out window"));
  EXPECT_TRUE(IsError(unary(0, INT64_MAX, 1, 0, 2, 2), StatusCode::kOutOfRange, "in window"));
  EXPECT_TRUE(IsError(unary(0, 1, INT64_MAX / 2, 0, 1, 3), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(unary(-1, 2, 1, 0, 2, 2), StatusCode::kInvalidArgument, "negative"));
  EXPECT_TRUE(IsError(unary(0, 2, 1, 0, -2, 2), StatusCode::kInvalidArgument, "negative"));
  // A zero-stride output looks in bounds but would loop forever: refused up front.
  EXPECT_TRUE(IsError(Call("fill.2d.x32", {W(1), B(out), I(0), I(0), I(INT64_MAX), I(1)}),
                      StatusCode::kOutOfRange, "more than the buffer"));
  auto read_only = vm::Buffer::WrapReadOnly(out->bytes(), nullptr);
  EXPECT_TRUE(IsError(Call("fill.2d.x32", {W(1), B(read_only), I(0), I(1), I(1), I(1)}),
                      StatusCode::kPermissionDenied, "read-only"));
  EXPECT_TRUE(IsError(Call("fill.2d.x32", {W(1), Value::FromRef(vm::Ref()), I(0), I(1), I(1), I(1)}),
                      StatusCode::kInvalidArgument, "not a vm.buffer"));
  EXPECT_EQ(Read<float>(*out), (std::vector<float>{-1, -2, -3, -4}));
}

TEST_F(VmvxModuleTest, Mmt4dMatchesReference) {
  // M=1, N=1, K=2 tiles of M0=2, N0=1, K0=2: out[m0][n0] = sum_k,k0 lhs[k][m0][k0]*rhs[k][n0][k0].
  auto lhs = Make<float>({1, 2, 3, 4, 5, 6, 7, 8});
  auto rhs = Make<float>({1, 10, 100, 1000});
  auto out = Make<float>({0.5f, 0.5f});
  auto call = [&](int32_t flags) {
    return Call("mmt4d", {B(lhs), I(0), I(8), B(rhs), I(0), I(4), B(out), I(0), I(2), I(1), I(1),
                          I(2), W(2), W(1), W(2), W(flags)});
  };
  ASSERT_TRUE(IsOk(call(1)));
  EXPECT_EQ(Read<float>(*out), (std::vector<float>{1 + 20 + 500 + 6000, 3 + 40 + 700 + 8000}));
  ASSERT_TRUE(IsOk(call(1 | 0x100)));  // accumulate
  EXPECT_EQ(Read<float>(*out)[0], 2 * 6521.0f);
  EXPECT_TRUE(IsError(call(7), StatusCode::kUnimplemented, "mmt4d"));
  auto lhs8 = Make<int8_t>({-128, -128, -128, -128});
  auto rhs8 = Make<int8_t>({-128, -128});
  auto out32 = Make<int32_t>({1});
  ASSERT_TRUE(IsOk(Call("mmt4d", {B(lhs8), I(0), I(4), B(rhs8), I(0), I(2), B(out32), I(0), I(1),
                                  I(1), I(1), I(1), W(1), W(1), W(2), W(2 | 0x100)})));
  EXPECT_EQ(Read<int32_t>(*out32)[0], 1 + 2 * 16384);
  // K larger than the lhs holds.
  EXPECT_TRUE(IsError(Call("mmt4d", {B(lhs), I(0), I(8), B(rhs), I(0), I(4), B(out), I(0), I(2),
                                     I(1), I(1), I(3), W(2), W(1), W(2), W(1)}),
                      StatusCode::kOutOfRange, "lhs window"));
}

TEST_F(VmvxModuleTest, PackPadsAndUnpackInverts) {
  // 3x3 matrix into 2x2 tiles of 2x2, padded with 99.
  auto in = Make<int32_t>({1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto packed = Make<int32_t>(std::vector<int32_t>(16, 0));
  auto pack = [&](int32_t flags) {
    return Call("pack", {B(in), I(0), I(3), I(1), B(packed), I(0), I(8), I(4), I(3), I(3), I(2),
                         I(2), I(2), I(2), I(99), W(flags)});
  };
  ASSERT_TRUE(IsOk(pack(3)));
  EXPECT_EQ(Read<int32_t>(*packed),
            (std::vector<int32_t>{1, 2, 4, 5, 3, 99, 6, 99, 7, 8, 99, 99, 9, 99, 99, 99}));
  ASSERT_TRUE(IsOk(pack(3 | 0x100 | 0x200)));  // both transposes
  EXPECT_EQ(Read<int32_t>(*packed),
            (std::vector<int32_t>{1, 4, 2, 5, 7, 99, 8, 99, 3, 6, 99, 99, 9, 99, 99, 99}));
  auto out = Make<int32_t>(std::vector<int32_t>(9, 0));
  auto unpack = [&](int64_t outer0, int32_t flags) {
    return Call("unpack", {B(packed), I(0), I(8), I(4), B(out), I(0), I(3), I(1), I(outer0), I(2),
                           I(2), I(2), I(3), I(3), W(flags)});
  };
  ASSERT_TRUE(IsOk(unpack(2, 3 | 0x100 | 0x200)));
  EXPECT_EQ(Read<int32_t>(*out), (std::vector<int32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_TRUE(IsError(unpack(1, 3), StatusCode::kFailedPrecondition, "does not cover"));
  EXPECT_TRUE(IsError(unpack(2, 2), StatusCode::kUnimplemented, "unpack"));
  EXPECT_TRUE(IsError(unpack(3, 3), StatusCode::kOutOfRange, "in window"));
}

}  // namespace
}  // namespace iree_rt
