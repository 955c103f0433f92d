// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// utils::DeferredCommandBuffer: recording validation (hal::CommandBuffer), replay order, and
// binding-table resolution with its errors.
#include "hal/utils/deferred_command_buffer.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "test_util.h"

namespace iree_rt::hal::utils {
namespace {

using base::Ref;
using base::Status;
using base::StatusCode;
using testing::IsError;
using testing::IsOk;
using testing::MakeHostBuffer;

class FakeExecutable final : public Executable {
 public:
  explicit FakeExecutable(std::vector<ExportInfo> exports) : Executable(std::move(exports)) {}
};

Ref<Executable> MakeExecutable() {
  ExportInfo first;
  first.name = "first";
  first.constant_count = 2;
  first.binding_count = 2;
  ExportInfo second;
  second.name = "second";
  second.binding_count = 1;
  return base::MakeRef<FakeExecutable>(std::vector<ExportInfo>{first, second});
}

// Records every call as text, with the resolved ranges.
class RecordingTarget final : public CommandTarget {
 public:
  std::vector<std::string> calls;
  Status fail_on_fill;
  std::map<const Buffer*, std::string> names;  // how buffers are printed

  std::string Ref(const ResolvedRef& ref) const {
    auto it = names.find(ref.buffer);
    return base::StrCat(it == names.end() ? "?" : it->second, "[", ref.offset, "+", ref.length, "]");
  }
  Status Fill(const ResolvedRef& target, uint32_t pattern, uint32_t pattern_length) override {
    calls.push_back(base::StrCat("fill ", Ref(target), " ", pattern, "/", pattern_length));
    return fail_on_fill;
  }
  Status Update(const uint8_t* source, const ResolvedRef& target) override {
    std::string bytes;
    for (uint64_t i = 0; i < target.length; ++i) bytes += std::to_string(source[i]) + ",";
    calls.push_back(base::StrCat("update ", Ref(target), " ", bytes));
    return Status();
  }
  Status Copy(const ResolvedRef& source, const ResolvedRef& target) override {
    calls.push_back(base::StrCat("copy ", Ref(source), " ", Ref(target)));
    return Status();
  }
  Status Dispatch(Executable& executable, uint32_t export_ordinal, const uint32_t workgroup_count[3],
                  const ResolvedRef* indirect_count, std::span<const uint32_t> constants,
                  std::span<const ResolvedRef> bindings) override {
    std::string text = base::StrCat("dispatch ", export_ordinal, " ", workgroup_count[0], "x", workgroup_count[1],
                                    "x", workgroup_count[2], " indirect=", indirect_count ? Ref(*indirect_count) : "-",
                                    " constants=");
    for (uint32_t constant : constants) text += std::to_string(constant) + ",";
    text += " bindings=";
    for (const ResolvedRef& binding : bindings) text += Ref(binding) + ",";
    calls.push_back(text);
    return Status();
  }
  Status Barrier() override {
    calls.push_back("barrier");
    return Status();
  }
};

TEST(ResolveBufferRefTest, DirectRefs) {
  Ref<Buffer> buffer = MakeHostBuffer(64);
  base::StatusOr<ResolvedRef> whole = ResolveBufferRef({buffer, 0, 16, kWholeBuffer}, kWholeBuffer, {});
  ASSERT_TRUE(IsOk(whole));
  EXPECT_EQ(whole->buffer, buffer.get());
  EXPECT_EQ(whole->offset, 16u);
  EXPECT_EQ(whole->length, 48u);
  base::StatusOr<ResolvedRef> exact = ResolveBufferRef({buffer, 0, 16, 8}, 8, {});
  ASSERT_TRUE(IsOk(exact));
  EXPECT_EQ(exact->length, 8u);
  EXPECT_TRUE(IsError(ResolveBufferRef({buffer, 0, 60, 8}, 8, {}).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(ResolveBufferRef({buffer, 0, 65, 0}, 0, {}).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(ResolveBufferRef({buffer, 0, 8, UINT64_MAX - 4}, UINT64_MAX - 4, {}).status(),
                      StatusCode::kOutOfRange));
}

TEST(ResolveBufferRefTest, SlotRefsAddTheTableOffset) {
  Ref<Buffer> a = MakeHostBuffer(64), b = MakeHostBuffer(128);
  const std::vector<BufferBinding> table = {{a, 16, 32}, {b, 100, kWholeBuffer}};
  base::StatusOr<ResolvedRef> first = ResolveBufferRef({nullptr, 0, 4, 8}, 8, table);
  ASSERT_TRUE(IsOk(first));
  EXPECT_EQ(first->buffer, a.get());
  EXPECT_EQ(first->offset, 20u);
  EXPECT_EQ(first->length, 8u);
  base::StatusOr<ResolvedRef> rest = ResolveBufferRef({nullptr, 0, 4, kWholeBuffer}, kWholeBuffer, table);
  ASSERT_TRUE(IsOk(rest));
  EXPECT_EQ(rest->offset, 20u);
  EXPECT_EQ(rest->length, 28u) << "WHOLE_BUFFER ends at the entry's range, not the buffer's";
  base::StatusOr<ResolvedRef> second = ResolveBufferRef({nullptr, 1, 0, kWholeBuffer}, kWholeBuffer, table);
  ASSERT_TRUE(IsOk(second));
  EXPECT_EQ(second->buffer, b.get());
  EXPECT_EQ(second->offset, 100u);
  EXPECT_EQ(second->length, 28u);
}

TEST(ResolveBufferRefTest, SlotErrors) {
  Ref<Buffer> a = MakeHostBuffer(64);
  const std::vector<BufferBinding> table = {{a, 16, 32}, {}, {a, 70, kWholeBuffer}};
  EXPECT_TRUE(IsError(ResolveBufferRef({nullptr, 3, 0, 4}, 4, table).status(), StatusCode::kOutOfRange, "slot 3"));
  EXPECT_TRUE(IsError(ResolveBufferRef({nullptr, 1, 0, 4}, 4, table).status(), StatusCode::kInvalidArgument, "empty"));
  EXPECT_TRUE(IsError(ResolveBufferRef({nullptr, 0, 28, 8}, 8, table).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(ResolveBufferRef({nullptr, 0, 33, 0}, 0, table).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(ResolveBufferRef({nullptr, 2, 0, 1}, 1, table).status(), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(ResolveBufferRef({nullptr, 0, 0, 4}, 4, {}).status(), StatusCode::kOutOfRange));
}

TEST(DeferredCommandBufferTest, ReplaysEveryCommandInOrder) {
  Ref<Buffer> a = MakeHostBuffer(64), b = MakeHostBuffer(64);
  Ref<Executable> executable = MakeExecutable();
  DeferredCommandBuffer command_buffer(CommandBufferMode::kDefault, CommandCategory::kAny, 4);
  ASSERT_TRUE(IsOk(command_buffer.Fill({a, 0, 0, 16}, 7, 4)));
  std::vector<uint8_t> data = {1, 2, 3};
  ASSERT_TRUE(IsOk(command_buffer.Update(data.data(), 3, {nullptr, 1, 2, 3})));
  data.assign(3, 9);  // captured at record time
  ASSERT_TRUE(IsOk(command_buffer.ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(command_buffer.Copy({a, 0, 8, kWholeBuffer}, {nullptr, 0, 0, kWholeBuffer}, 4)));
  DispatchConfig config;
  config.workgroup_count[0] = 3;
  const uint32_t constants[2] = {11, 12};
  const BufferRef bindings[2] = {{a, 0, 0, 16}, {nullptr, 2, 8, kWholeBuffer}};
  ASSERT_TRUE(IsOk(command_buffer.Dispatch(executable, 0, config, constants, bindings, DispatchFlag::kNone)));
  DispatchConfig indirect;
  indirect.workgroup_count_ref = {nullptr, 3, 4, 12};
  const BufferRef one_binding[1] = {{b, 0, 0, 4}};
  ASSERT_TRUE(IsOk(command_buffer.Dispatch(executable, 1, indirect, {}, one_binding,
                                           DispatchFlag::kDynamicIndirectParameters)));
  ASSERT_TRUE(IsOk(command_buffer.Finalize()));
  EXPECT_EQ(command_buffer.command_count(), 6u);
  const std::vector<BufferBinding> table = {{b, 32, kWholeBuffer}, {b, 0, 8}, {a, 16, 32}, {b, 16, 16}};
  ASSERT_TRUE(IsOk(command_buffer.ValidateBindingTable(table)));
  RecordingTarget target;
  target.names = {{a.get(), "a"}, {b.get(), "b"}};
  ASSERT_TRUE(IsOk(command_buffer.Replay(table, target)));
  EXPECT_EQ(target.calls, (std::vector<std::string>{
                              "fill a[0+16] 7/4",
                              "update b[2+3] 1,2,3,",
                              "barrier",
                              "copy a[8+4] b[32+4]",
                              "dispatch 0 3x1x1 indirect=- constants=11,12, bindings=a[0+16],a[24+24],",
                              "dispatch 1 1x1x1 indirect=b[20+12] constants= bindings=b[0+4],",
                          }));
  // A reusable command buffer replays the same commands against another table.
  const std::vector<BufferBinding> other = {{a, 0, kWholeBuffer}, {a, 56, 8}, {b, 0, kWholeBuffer}, {a, 0, 16}};
  RecordingTarget again;
  again.names = target.names;
  ASSERT_TRUE(IsOk(command_buffer.Replay(other, again)));
  EXPECT_EQ(again.calls, (std::vector<std::string>{
                             "fill a[0+16] 7/4",
                             "update a[58+3] 1,2,3,",
                             "barrier",
                             "copy a[8+4] a[0+4]",
                             "dispatch 0 3x1x1 indirect=- constants=11,12, bindings=a[0+16],b[8+56],",
                             "dispatch 1 1x1x1 indirect=a[4+12] constants= bindings=b[0+4],",
                         }));
}

TEST(DeferredCommandBufferTest, ReplayStopsAtTheFirstErrorAndNamesTheCommand) {
  Ref<Buffer> a = MakeHostBuffer(64);
  DeferredCommandBuffer command_buffer(CommandBufferMode::kOneShot, CommandCategory::kAny, 1);
  ASSERT_TRUE(IsOk(command_buffer.Fill({a, 0, 0, 4}, 1, 4)));
  ASSERT_TRUE(IsOk(command_buffer.Fill({nullptr, 0, 0, 32}, 2, 4)));  // overruns a 16-byte entry
  ASSERT_TRUE(IsOk(command_buffer.Fill({a, 0, 4, 4}, 3, 4)));
  ASSERT_TRUE(IsOk(command_buffer.Finalize()));
  const std::vector<BufferBinding> table = {{a, 0, 16}};
  RecordingTarget target;
  EXPECT_TRUE(IsError(command_buffer.Replay(table, target), StatusCode::kOutOfRange, "command 1"));
  EXPECT_EQ(target.calls.size(), 1u) << "commands after a failure must not run";
  // A target error stops the replay the same way, with its own code.
  RecordingTarget failing;
  failing.fail_on_fill = Status(StatusCode::kDataLoss, "device fault");
  EXPECT_TRUE(IsError(command_buffer.Replay({}, failing), StatusCode::kDataLoss, "command 0"));
  EXPECT_EQ(failing.calls.size(), 1u);
}

TEST(DeferredCommandBufferTest, ReplayResolutionErrors) {
  Ref<Buffer> a = MakeHostBuffer(64);
  DeferredCommandBuffer command_buffer(CommandBufferMode::kDefault, CommandCategory::kAny, 2);
  ASSERT_TRUE(IsOk(command_buffer.Copy({nullptr, 0, 0, 8}, {nullptr, 1, 0, 8}, 8)));
  ASSERT_TRUE(IsOk(command_buffer.Finalize()));
  RecordingTarget target;
  EXPECT_TRUE(IsError(command_buffer.Replay(std::vector<BufferBinding>{{a, 0, 8}}, target), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(command_buffer.Replay(std::vector<BufferBinding>{{a, 0, 8}, {}}, target),
                      StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(command_buffer.Replay(std::vector<BufferBinding>{{a, 60, 8}, {a, 0, 8}}, target),
                      StatusCode::kOutOfRange));
  EXPECT_TRUE(target.calls.empty());
  target.names = {{a.get(), "a"}};
  EXPECT_TRUE(IsOk(command_buffer.Replay(std::vector<BufferBinding>{{a, 0, 8}, {a, 8, 8}}, target)));
  EXPECT_EQ(target.calls, (std::vector<std::string>{"copy a[0+8] a[8+8]"}));
}

TEST(CommandBufferValidationTest, StateAndCategories) {
  Ref<Buffer> a = MakeHostBuffer(64);
  DeferredCommandBuffer transfer_only(CommandBufferMode::kOneShot, CommandCategory::kTransfer, 0);
  EXPECT_TRUE(IsError(transfer_only.Dispatch(MakeExecutable(), 1, {}, {}, {}, 0), StatusCode::kInvalidArgument));
  ASSERT_TRUE(IsOk(transfer_only.Finalize()));
  EXPECT_TRUE(transfer_only.is_finalized());
  EXPECT_TRUE(IsError(transfer_only.Fill({a, 0, 0, 4}, 0, 4), StatusCode::kFailedPrecondition));
  EXPECT_TRUE(IsError(transfer_only.ExecutionBarrier(0, 0), StatusCode::kFailedPrecondition));
  EXPECT_TRUE(IsError(transfer_only.Finalize(), StatusCode::kFailedPrecondition));
  EXPECT_EQ(transfer_only.command_count(), 0u);
  DeferredCommandBuffer dispatch_only(CommandBufferMode::kOneShot, CommandCategory::kDispatch, 0);
  EXPECT_TRUE(IsError(dispatch_only.Copy({a, 0, 0, 4}, {a, 0, 4, 4}, 4), StatusCode::kInvalidArgument));
  const uint8_t byte = 0;
  EXPECT_TRUE(IsError(dispatch_only.Update(&byte, 1, {a, 0, 0, 1}), StatusCode::kInvalidArgument));
}

TEST(CommandBufferValidationTest, RefsAndUsage) {
  Ref<Buffer> a = MakeHostBuffer(64);
  Ref<Buffer> no_transfer = MakeHostBuffer(64, MemoryType::kHostLocal, BufferUsage::kDispatchStorage);
  DeferredCommandBuffer command_buffer(CommandBufferMode::kOneShot, CommandCategory::kAny, 2);
  EXPECT_TRUE(IsError(command_buffer.Fill({nullptr, 2, 0, 4}, 0, 4), StatusCode::kOutOfRange, "capacity"));
  EXPECT_TRUE(IsError(command_buffer.Fill({no_transfer, 0, 0, 4}, 0, 4), StatusCode::kInvalidArgument, "TRANSFER_TARGET"));
  EXPECT_TRUE(IsError(command_buffer.Copy({no_transfer, 0, 0, 4}, {a, 0, 0, 4}, 4), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(command_buffer.Copy({a, 0, 62, 4}, {a, 0, 0, 4}, 4), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(command_buffer.Update(nullptr, 4, {a, 0, 0, 4}), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(command_buffer.Update("abcd", 4, {a, 0, 62, 4}), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsOk(command_buffer.Update(nullptr, 0, {a, 0, 0, 0})));
  EXPECT_EQ(command_buffer.command_count(), 1u);
}

TEST(CommandBufferValidationTest, DispatchSignature) {
  Ref<Buffer> storage = MakeHostBuffer(64, MemoryType::kHostLocal, BufferUsage::kDispatchStorage);
  Ref<Buffer> transfer_only = MakeHostBuffer(64, MemoryType::kHostLocal, BufferUsage::kTransfer);
  Ref<Executable> executable = MakeExecutable();
  DeferredCommandBuffer command_buffer(CommandBufferMode::kOneShot, CommandCategory::kAny, 4);
  const uint32_t constants[3] = {1, 2, 3};
  const BufferRef two[2] = {{storage, 0, 0, 16}, {nullptr, 3, 0, 16}};
  EXPECT_TRUE(IsOk(command_buffer.Dispatch(executable, 0, {}, std::span(constants, 2), two, 0)));
  EXPECT_TRUE(IsError(command_buffer.Dispatch(nullptr, 0, {}, {}, {}, 0), StatusCode::kInvalidArgument));
  EXPECT_TRUE(IsError(command_buffer.Dispatch(executable, 2, {}, {}, {}, 0), StatusCode::kOutOfRange));
  EXPECT_TRUE(IsError(command_buffer.Dispatch(executable, 0, {}, constants, two, 0), StatusCode::kInvalidArgument,
                      "constants"));
  EXPECT_TRUE(IsError(command_buffer.Dispatch(executable, 0, {}, std::span(constants, 2), std::span(two, 1), 0),
                      StatusCode::kInvalidArgument, "bindings"));
  EXPECT_TRUE(IsError(command_buffer.Dispatch(executable, 0, {}, std::span(constants, 2), two, 1u << 5),
                      StatusCode::kUnimplemented));
  const BufferRef not_storage[1] = {{transfer_only, 0, 0, 16}};
  EXPECT_TRUE(IsError(command_buffer.Dispatch(executable, 1, {}, {}, not_storage, 0), StatusCode::kInvalidArgument,
                      "binding 0"));
  DispatchConfig too_small;
  too_small.workgroup_count_ref = {storage, 0, 56, 8};
  const BufferRef one[1] = {{storage, 0, 0, 16}};
  EXPECT_TRUE(IsError(command_buffer.Dispatch(executable, 1, too_small, {}, one, DispatchFlag::kStaticIndirectParameters),
                      StatusCode::kOutOfRange));
  EXPECT_EQ(command_buffer.command_count(), 1u);
}

TEST(CommandBufferValidationTest, BindingTableCoversEveryUsedSlot) {
  Ref<Buffer> a = MakeHostBuffer(64);
  DeferredCommandBuffer command_buffer(CommandBufferMode::kDefault, CommandCategory::kAny, 8);
  ASSERT_TRUE(IsOk(command_buffer.Fill({nullptr, 2, 0, 4}, 0, 4)));
  ASSERT_TRUE(IsOk(command_buffer.Finalize()));
  EXPECT_TRUE(IsError(command_buffer.ValidateBindingTable(std::vector<BufferBinding>{{a, 0, 4}, {a, 0, 4}}),
                      StatusCode::kInvalidArgument, "slot 2"));
  EXPECT_TRUE(IsOk(command_buffer.ValidateBindingTable(std::vector<BufferBinding>{{}, {}, {a, 0, 4}})));
  EXPECT_TRUE(IsError(command_buffer.ValidateBindingTable(std::vector<BufferBinding>{{}, {}, {a, 62, 4}}),
                      StatusCode::kOutOfRange, "slot 2"));
  // Entries past the used slots are not looked at.
  EXPECT_TRUE(IsOk(command_buffer.ValidateBindingTable(std::vector<BufferBinding>{{}, {}, {a, 0, 4}, {a, 99, 99}})));
}

// Workgroup costs for EstimateSerialNs: export 0 costs 1000 ns, export 1 is not known yet.
uint64_t FirstExportOnly(const Executable&, uint32_t ordinal) { return ordinal == 0 ? 1000 : 0; }

TEST(DeferredCommandBufferTest, EstimateSumsDispatchesAndTransfers) {
  Ref<Buffer> a = MakeHostBuffer(4096);
  Ref<Executable> executable = MakeExecutable();
  DeferredCommandBuffer command_buffer(CommandBufferMode::kDefault, CommandCategory::kAny, 4);
  EXPECT_EQ(command_buffer.EstimateSerialNs(FirstExportOnly), 0u) << "nothing recorded";
  DispatchConfig config;
  config.workgroup_count[0] = 3;
  config.workgroup_count[1] = 2;
  const uint32_t constants[2] = {1, 2};
  const BufferRef bindings[2] = {{a, 0, 0, 16}, {a, 0, 16, 16}};
  ASSERT_TRUE(IsOk(command_buffer.Dispatch(executable, 0, config, constants, bindings, DispatchFlag::kNone)));
  ASSERT_TRUE(IsOk(command_buffer.ExecutionBarrier(0, 0)));
  ASSERT_TRUE(IsOk(command_buffer.Fill({a, 0, 0, 400}, 0, 4)));
  ASSERT_TRUE(IsOk(command_buffer.Copy({a, 0, 0, 800}, {a, 0, 1024, 800}, 800)));
  // 6 workgroups of 1000 ns, then 1200 bytes of transfers at kTransferBytesPerNs.
  EXPECT_EQ(command_buffer.EstimateSerialNs(FirstExportOnly),
            6000u + 1200u / DeferredCommandBuffer::kTransferBytesPerNs);
}

TEST(DeferredCommandBufferTest, EstimateIsUnknownWhenAnyCommandIs) {
  Ref<Buffer> a = MakeHostBuffer(4096);
  Ref<Executable> executable = MakeExecutable();
  const uint32_t constants[2] = {1, 2};
  const BufferRef two[2] = {{a, 0, 0, 16}, {a, 0, 16, 16}};
  const BufferRef one[1] = {{a, 0, 0, 16}};
  DispatchConfig config;
  {  // an export whose cost is not known yet
    DeferredCommandBuffer command_buffer(CommandBufferMode::kDefault, CommandCategory::kAny, 4);
    ASSERT_TRUE(IsOk(command_buffer.Dispatch(executable, 0, config, constants, two, DispatchFlag::kNone)));
    ASSERT_TRUE(IsOk(command_buffer.Dispatch(executable, 1, config, {}, one, DispatchFlag::kNone)));
    EXPECT_FALSE(command_buffer.EstimateSerialNs(FirstExportOnly).has_value());
  }
  {  // a workgroup count read from a buffer at execution
    DeferredCommandBuffer command_buffer(CommandBufferMode::kDefault, CommandCategory::kAny, 4);
    DispatchConfig indirect;
    indirect.workgroup_count_ref = {a, 0, 0, 12};
    ASSERT_TRUE(IsOk(command_buffer.Dispatch(executable, 0, indirect, constants, two,
                                             DispatchFlag::kDynamicIndirectParameters)));
    EXPECT_FALSE(command_buffer.EstimateSerialNs(FirstExportOnly).has_value());
  }
  {  // a transfer whose length comes from the binding table
    DeferredCommandBuffer command_buffer(CommandBufferMode::kDefault, CommandCategory::kAny, 4);
    ASSERT_TRUE(IsOk(command_buffer.Fill({nullptr, 0, 0, kWholeBuffer}, 0, 4)));
    EXPECT_FALSE(command_buffer.EstimateSerialNs(FirstExportOnly).has_value());
  }
  {  // counts whose product overflows saturate to unknown instead of wrapping
    DeferredCommandBuffer command_buffer(CommandBufferMode::kDefault, CommandCategory::kAny, 4);
    DispatchConfig huge;
    huge.workgroup_count[0] = huge.workgroup_count[1] = huge.workgroup_count[2] = 0xFFFFFFFFu;
    ASSERT_TRUE(IsOk(command_buffer.Dispatch(executable, 0, huge, constants, two, DispatchFlag::kNone)));
    EXPECT_FALSE(command_buffer.EstimateSerialNs(FirstExportOnly).has_value());
  }
}

}  // namespace
}  // namespace iree_rt::hal::utils
