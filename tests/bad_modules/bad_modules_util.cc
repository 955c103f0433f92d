// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "bad_modules_util.h"

#include <fstream>
#include <iterator>
#include <map>
#include <mutex>

#include "base/ref_object.h"
#include "vm/bytecode/archive.h"
#include "vm/bytecode/bytecode_module.h"
#include "vm/instance.h"
#include "vm/ref.h"

namespace iree_rt::bad_modules {
namespace {

std::map<std::string, int, std::less<>>& Counts() {
  static std::map<std::string, int, std::less<>> counts;
  return counts;
}

// Schema of the tables the corpus walks (module_def.fbs): each field's vtable slot and kind.
enum class Kind { kString, kTable, kTableVector, kScalarVector, kUnionVector };
struct TableSpec;
struct FieldSpec {
  uint16_t slot;
  const char* name;
  Kind kind;
  const TableSpec* child = nullptr;
};
struct TableSpec {
  std::vector<FieldSpec> fields;
};

const TableSpec kAttr{{{4, "key", Kind::kString}, {6, "value", Kind::kString}}};
const TableSpec kType{{{4, "full_name", Kind::kString}}};
const TableSpec kSignature{
    {{4, "calling_convention", Kind::kString}, {6, "attrs", Kind::kTableVector, &kAttr}}};
const TableSpec kDependency{{{4, "name", Kind::kString}}};
const TableSpec kImport{
    {{4, "full_name", Kind::kString}, {6, "signature", Kind::kTable, &kSignature}}};
const TableSpec kExport{{{4, "local_name", Kind::kString}}};
const TableSpec kEmpty{{}};
const TableSpec kRodata{
    {{6, "compression_type", Kind::kTable, &kEmpty}, {8, "embedded_data", Kind::kScalarVector}}};
const TableSpec kSourceMap{
    {{4, "local_name", Kind::kString}, {6, "locations", Kind::kScalarVector}}};
const TableSpec kDebugDatabase{{{4, "location_table_type", Kind::kScalarVector},
                                {6, "location_table", Kind::kUnionVector},
                                {8, "functions", Kind::kTableVector, &kSourceMap}}};
const TableSpec kModule{{{4, "name", Kind::kString},
                         {10, "attrs", Kind::kTableVector, &kAttr},
                         {12, "types", Kind::kTableVector, &kType},
                         {14, "dependencies", Kind::kTableVector, &kDependency},
                         {16, "imported_functions", Kind::kTableVector, &kImport},
                         {18, "exported_functions", Kind::kTableVector, &kExport},
                         {20, "function_signatures", Kind::kTableVector, &kSignature},
                         {22, "rodata_segments", Kind::kTableVector, &kRodata},
                         {24, "rwdata_segments", Kind::kTableVector, &kEmpty},
                         {26, "module_state", Kind::kTable, &kEmpty},
                         {28, "function_descriptors", Kind::kScalarVector},
                         {32, "bytecode_data", Kind::kScalarVector},
                         {34, "debug_database", Kind::kTable, &kDebugDatabase}}};

void Walk(const std::vector<uint8_t>& bytes, size_t table, const TableSpec& spec,
          const std::string& prefix, const std::string& root_field,
          std::vector<FlatBufferSlot>& out) {
  for (const FieldSpec& field : spec.fields) {
    const size_t pos = TableFieldPos(bytes, table, field.slot);
    if (pos == 0) continue;
    const std::string path = prefix + field.name;
    const std::string root = root_field.empty() ? field.name : root_field;
    out.push_back({FlatBufferSlot::kOffset, pos, path, root});
    const size_t target = pos + ReadAt<uint32_t>(bytes, pos);
    if (field.kind == Kind::kTable) {
      Walk(bytes, target, *field.child, path + ".", root, out);
      continue;
    }
    out.push_back({FlatBufferSlot::kLength, target, path + " length", root});
    if (field.kind != Kind::kTableVector && field.kind != Kind::kUnionVector) continue;
    const uint32_t count = ReadAt<uint32_t>(bytes, target);
    // A union vector's type tags are the field before it; entries tagged NONE are never read.
    size_t tags = 0;
    if (field.kind == Kind::kUnionVector) {
      tags = TableFieldPos(bytes, table, field.slot - 2);
      if (tags != 0) tags += ReadAt<uint32_t>(bytes, tags) + 4;
    }
    for (uint32_t i = 0; i < count; ++i) {
      if (field.kind == Kind::kUnionVector && (tags == 0 || bytes[tags + i] == 0)) continue;
      const size_t element = target + 4 + 4 * size_t{i};
      const std::string element_path = path + "[" + std::to_string(i) + "]";
      out.push_back({FlatBufferSlot::kOffset, element, element_path, root});
      if (field.kind == Kind::kTableVector) {
        Walk(bytes, element + ReadAt<uint32_t>(bytes, element), *field.child, element_path + ".",
             root, out);
      }
    }
  }
}

}  // namespace

std::vector<uint8_t> ReadTestFile(std::string_view relative_path) {
  const std::string path =
      std::string(RT_BAD_MODULES_TESTDATA_DIR) + "/" + std::string(relative_path);
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    ADD_FAILURE() << "cannot open " << path;
    return {};
  }
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

base::Status LoadModule(const std::vector<uint8_t>& bytes) {
  static const vm::RefType kTypes[] = {
      {"hal.allocator"},      {"hal.buffer"}, {"hal.buffer_view"}, {"hal.channel"},
      {"hal.command_buffer"}, {"hal.device"}, {"hal.event"},       {"hal.executable"},
      {"hal.fence"},          {"hal.file"},   {"hal.semaphore"}};
  static vm::Instance* instance = [] {
    base::Ref<vm::Instance> created = vm::Instance::Create();
    for (const vm::RefType& type : kTypes) {
      base::Status status = created->RegisterType(&type);
      EXPECT_TRUE(status.ok()) << status.ToString();
    }
    return created.Detach();
  }();
  return vm::bytecode::BytecodeModule::Load(*instance, bytes, nullptr).status();
}

void ExpectRejected(const base::Status& status, std::string_view category,
                    std::initializer_list<std::string_view> substrings, const std::string& what,
                    base::StatusCode code) {
  static std::mutex mutex;
  {
    std::lock_guard<std::mutex> lock(mutex);
    ++Counts()[std::string(category)];
  }
  if (status.ok()) {
    ADD_FAILURE() << category << ": " << what << " was accepted";
    return;
  }
  if (code != base::StatusCode::kOk && status.code() != code) {
    ADD_FAILURE() << category << ": " << what << ": expected " << base::StatusCodeName(code)
                  << ", got " << status.ToString();
    return;
  }
  for (std::string_view substring : substrings) {
    if (status.message().find(substring) != std::string_view::npos) return;
  }
  std::string expected;
  for (std::string_view substring : substrings) expected += " '" + std::string(substring) + "'";
  ADD_FAILURE() << category << ": " << what << ": message lacks any of" << expected << ": "
                << status.ToString();
}

void PrintCounts() {
  int total = 0;
  for (const auto& [category, count] : Counts()) {
    std::printf("[bad modules] %-32s %6d rejected\n", category.c_str(), count);
    total += count;
  }
  std::printf("[bad modules] %-32s %6d rejected\n", "total", total);
}

size_t TableFieldPos(const std::vector<uint8_t>& bytes, size_t table, uint16_t slot) {
  const size_t vtable = table - ReadAt<int32_t>(bytes, table);
  const uint16_t vtable_size = ReadAt<uint16_t>(bytes, vtable);
  if (slot >= vtable_size) return 0;
  const uint16_t field = ReadAt<uint16_t>(bytes, vtable + slot);
  return field == 0 ? 0 : table + field;
}

size_t ModuleRootPos(const std::vector<uint8_t>& bytes) {
  auto layout = vm::bytecode::ParseArchive(bytes);
  if (!layout.ok()) {
    ADD_FAILURE() << layout.status().ToString();
    return 0;
  }
  const size_t base = layout->prefix_offset + 4;  // the FlatBuffer proper, after the size prefix
  return base + ReadAt<uint32_t>(bytes, base);
}

size_t VectorElementsPos(const std::vector<uint8_t>& bytes, size_t table, uint16_t slot,
                         uint32_t* count) {
  const size_t pos = TableFieldPos(bytes, table, slot);
  *count = 0;
  if (pos == 0) return 0;
  const size_t vector = pos + ReadAt<uint32_t>(bytes, pos);
  *count = ReadAt<uint32_t>(bytes, vector);
  return vector + 4;
}

std::vector<FlatBufferSlot> CollectFlatBufferSlots(const std::vector<uint8_t>& bytes) {
  std::vector<FlatBufferSlot> slots;
  const size_t root = ModuleRootPos(bytes);
  if (root != 0) Walk(bytes, root, kModule, "", "", slots);
  return slots;
}

}  // namespace iree_rt::bad_modules
