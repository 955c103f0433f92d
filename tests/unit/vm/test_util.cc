// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "test_util.h"

#include <fstream>
#include <iterator>
#include <utility>

#include "vm/bytecode/archive.h"

namespace iree_rt::vm::bytecode::testing {

std::string ModulePath(std::string_view name, bool plain) {
  return std::string(RT_TEST_VM_MODULES_DIR) + "/rt_vm_" + std::string(name) +
         (plain ? "_plain" : "") + ".vmfb";
}

std::vector<uint8_t> ReadModule(std::string_view name, bool plain) {
  const std::string path = ModulePath(name, plain);
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    ADD_FAILURE() << "cannot open " << path;
    return {};
  }
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

std::vector<uint8_t> BigConstantBytes() {
  std::vector<uint8_t> bytes;
  for (uint32_t i = 0; i < 1100; ++i) {
    const uint32_t value = i * 2654435761u;
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(value >> (8 * b)));
  }
  return bytes;
}

fb::BytecodeModuleDef* MutableModule(std::vector<uint8_t>& bytes) {
  auto layout = ParseArchive(bytes);
  if (!layout.ok()) {
    ADD_FAILURE() << layout.status().ToString();
    return nullptr;
  }
  return fb::GetMutableBytecodeModuleDef(bytes.data() + layout->prefix_offset + 4);
}

SyntheticModule::LocEntry SyntheticModule::FileLoc(std::string file, int32_t line, int32_t column) {
  LocEntry e;
  e.kind = fb::LocationTypeDef::FileLineColLocDef;
  e.file = std::move(file);
  e.line = line;
  e.column = column;
  return e;
}

SyntheticModule::LocEntry SyntheticModule::CallSiteLoc(int32_t callee, int32_t caller) {
  LocEntry e;
  e.kind = fb::LocationTypeDef::CallSiteLocDef;
  e.first = callee;
  e.second = caller;
  return e;
}

SyntheticModule::LocEntry SyntheticModule::FusedLoc(std::vector<int32_t> children) {
  LocEntry e;
  e.kind = fb::LocationTypeDef::FusedLocDef;
  e.children = std::move(children);
  return e;
}

SyntheticModule::LocEntry SyntheticModule::NameLoc(int32_t child) {
  LocEntry e;
  e.kind = fb::LocationTypeDef::NameLocDef;
  e.first = child;
  return e;
}

std::vector<uint8_t> SyntheticModule::Build() const {
  flatbuffers::FlatBufferBuilder builder;
  auto strings = [&](const std::vector<std::string>& values) {
    std::vector<flatbuffers::Offset<flatbuffers::String>> out;
    for (const auto& v : values) out.push_back(builder.CreateString(v));
    return out;
  };

  std::vector<flatbuffers::Offset<fb::TypeDef>> types;
  for (auto s : strings(type_names)) types.push_back(fb::CreateTypeDef(builder, s));
  std::vector<flatbuffers::Offset<fb::ImportFunctionDef>> imports;
  for (auto s : strings(import_names)) imports.push_back(fb::CreateImportFunctionDef(builder, s));
  std::vector<flatbuffers::Offset<fb::ModuleDependencyDef>> deps;
  for (auto s : strings(dependency_names))
    deps.push_back(fb::CreateModuleDependencyDef(builder, s));
  std::vector<flatbuffers::Offset<fb::ExportFunctionDef>> exports;
  for (auto s : strings(export_names)) {
    exports.push_back(fb::CreateExportFunctionDef(builder, s, export_ordinal));
  }
  std::vector<flatbuffers::Offset<fb::FunctionSignatureDef>> signatures;
  for (int i = 0; i < signature_count; ++i) {
    signatures.push_back(fb::CreateFunctionSignatureDef(builder, builder.CreateString("0v_v")));
  }
  std::vector<flatbuffers::Offset<fb::RodataSegmentDef>> rodata;
  for (const auto& data : embedded_rodata) {
    rodata.push_back(fb::CreateRodataSegmentDef(builder, fb::CompressionTypeDef::NONE, 0,
                                                builder.CreateVector(data)));
  }
  flatbuffers::Offset<fb::ModuleStateDef> state;
  if (with_module_state) state = fb::CreateModuleStateDef(builder, global_bytes, global_refs);

  flatbuffers::Offset<fb::DebugDatabaseDef> debug_db;
  if (with_debug_database) {
    std::vector<fb::LocationTypeDef> kinds;
    std::vector<flatbuffers::Offset<void>> values;
    for (const LocEntry& e : location_table) {
      kinds.push_back(e.kind);
      switch (e.kind) {
        case fb::LocationTypeDef::FileLineColLocDef:
          values.push_back(
              fb::CreateFileLineColLocDef(builder, builder.CreateString(e.file), e.line, e.column)
                  .Union());
          break;
        case fb::LocationTypeDef::CallSiteLocDef:
          values.push_back(fb::CreateCallSiteLocDef(builder, e.first, e.second).Union());
          break;
        case fb::LocationTypeDef::FusedLocDef:
          values.push_back(
              fb::CreateFusedLocDef(builder, 0, builder.CreateVector(e.children)).Union());
          break;
        case fb::LocationTypeDef::NameLocDef:
          values.push_back(
              fb::CreateNameLocDef(builder, builder.CreateString("n"), e.first).Union());
          break;
        default:
          // The value of a NONE entry is never read; any valid offset will do.
          values.push_back(fb::CreateCallSiteLocDef(builder).Union());
          break;
      }
    }
    std::vector<flatbuffers::Offset<fb::FunctionSourceMapDef>> maps;
    for (int i = 0; i < debug_function_count; ++i) {
      maps.push_back(
          fb::CreateFunctionSourceMapDef(builder, builder.CreateString("fn" + std::to_string(i)),
                                         builder.CreateVectorOfStructs(debug_locations)));
    }
    debug_db = fb::CreateDebugDatabaseDef(builder, builder.CreateVector(kinds),
                                          builder.CreateVector(values), builder.CreateVector(maps));
  }

  std::vector<uint8_t> bytecode(static_cast<size_t>(bytecode_size), 0);
  auto name_offset = builder.CreateString(name);
  auto root = fb::CreateBytecodeModuleDef(
      builder, name_offset, /*version=*/0, static_cast<fb::FeatureBits>(requirements), /*attrs=*/0,
      types.empty() ? 0 : builder.CreateVector(types),
      deps.empty() ? 0 : builder.CreateVector(deps),
      imports.empty() ? 0 : builder.CreateVector(imports), builder.CreateVector(exports),
      builder.CreateVector(signatures), rodata.empty() ? 0 : builder.CreateVector(rodata),
      /*rwdata_segments=*/0, state, builder.CreateVectorOfStructs(descriptors), bytecode_version,
      builder.CreateVector(bytecode), debug_db);
  builder.FinishSizePrefixed(root, fb::BytecodeModuleDefIdentifier());
  std::vector<uint8_t> bytes(builder.GetBufferPointer(),
                             builder.GetBufferPointer() + builder.GetSize());
  if (omit_name) {
    // The builder asserts required fields in debug builds, so the name is written and then
    // unlinked: a zero in its vtable slot (the first field's) reads as absent.
    uint8_t* table = bytes.data() + 4 + flatbuffers::ReadScalar<uint32_t>(bytes.data() + 4);
    uint8_t* vtable = table - flatbuffers::ReadScalar<int32_t>(table);
    flatbuffers::WriteScalar<uint16_t>(vtable + 4, 0);
  }
  return bytes;
}

}  // namespace iree_rt::vm::bytecode::testing
