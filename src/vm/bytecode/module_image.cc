// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/bytecode/module_image.h"

#include <flatbuffers/flatbuffers.h>

#include <string>
#include <utility>

#include "base/str_cat.h"
#include "vm/bytecode/archive.h"
#include "vm/bytecode/schema/module_def_generated.h"

namespace iree_rt::vm::bytecode {
namespace {

using base::IncompatibleError;
using base::InvalidArgumentError;
using base::Status;

// Register ordinals are u16 with the top bits used as flags (docs: vm_format_facts.md §3.2).
constexpr uint16_t kMaxI32RegisterCount = 0x7FFF;
constexpr uint16_t kMaxRefRegisterCount = 0x3FFF;
// Bounds the work of following location references (cycles, fan-out in fused locations).
constexpr int kMaxLocationVisits = 64;

std::string_view View(const flatbuffers::String* s) {
  return s ? std::string_view(s->data(), s->size()) : std::string_view();
}

template <typename T>
flatbuffers::uoffset_t SizeOf(const flatbuffers::Vector<T>* v) {
  return v ? v->size() : 0;
}

std::vector<Attr> ReadAttrs(const flatbuffers::Vector<flatbuffers::Offset<fb::AttrDef>>* attrs) {
  std::vector<Attr> out;
  if (!attrs) return out;
  out.reserve(attrs->size());
  for (const fb::AttrDef* attr : *attrs) {
    if (attr) out.push_back({View(attr->key()), View(attr->value())});
  }
  return out;
}

Status CheckFeatures(uint32_t required, uint32_t available, std::string_view what) {
  const uint32_t missing = required & ~available;
  if (missing == 0) return Status::Ok();
  return IncompatibleError(
      what, " requires features this runtime does not provide: ", FormatFeatureBits(missing),
      " (required ", FormatFeatureBits(required), ", available ", FormatFeatureBits(available),
      ")");
}

// Names the first field of the module table that fails BytecodeModuleDef::Verify ("field
// 'types' element 3"), checking the fields in the generated verifier's order, for the error
// message of a module that failed structural verification; "" if none is found. Field offsets
// are bounds-checked here by hand because Table's accessors do not check them.
std::string FindBadModuleField(std::span<const uint8_t> prefixed) {
  const uint8_t* begin = prefixed.data();
  const uint8_t* end = begin + prefixed.size();
  if (prefixed.size() < 8) return "the root table offset";
  const uint8_t* root = begin + 4 + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(begin + 4);
  flatbuffers::Verifier verifier(begin, prefixed.size());
  if (root >= end || !verifier.VerifyTableStart(root)) return "the module table or its vtable";
  const uint8_t* vtable = root - flatbuffers::ReadScalar<flatbuffers::soffset_t>(root);
  const auto vtable_size = flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable);
  const auto* module = reinterpret_cast<const fb::BytecodeModuleDef*>(root);
  using M = fb::BytecodeModuleDef;
  // Where the field's offset leads, or why it cannot be followed; null target = absent field.
  auto follow = [&](flatbuffers::voffset_t slot, const uint8_t** target) -> bool {
    *target = nullptr;
    if (slot >= vtable_size) return true;
    const auto field = flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable + slot);
    if (field == 0) return true;
    const uint8_t* at = root + field;
    if (at + 4 > end || (at - begin) % 4 != 0) return false;
    const uint64_t offset = flatbuffers::ReadScalar<flatbuffers::uoffset_t>(at);
    if (offset == 0 || offset > static_cast<uint64_t>(end - at) - 4) return false;
    *target = at + offset;
    return true;
  };
  // |get| reads the field, so it runs only once follow() has checked the offset.
  auto tables = [&](const char* name, flatbuffers::voffset_t slot, auto get) {
    const uint8_t* target;
    if (!follow(slot, &target)) return base::StrCat("field '", name, "' (offset out of range)");
    if (!target) return std::string();
    const auto* vector = get();
    if (!verifier.VerifyVector(vector)) {
      return base::StrCat("field '", name, "' (vector length out of range)");
    }
    for (uint32_t i = 0; i < vector->size(); ++i) {
      if (!verifier.VerifyTable(vector->Get(i))) {
        return base::StrCat("field '", name, "' element ", i);
      }
    }
    return std::string();
  };
  auto vector = [&](const char* name, flatbuffers::voffset_t slot, auto verify) {
    const uint8_t* target;
    if (!follow(slot, &target)) return base::StrCat("field '", name, "' (offset out of range)");
    if (target && !verify()) return base::StrCat("field '", name, "' (out of range)");
    return std::string();
  };
  const uint8_t* name_target;
  if (!follow(M::VT_NAME, &name_target)) return "field 'name' (offset out of range)";
  if (!name_target) return "field 'name' (required, missing)";
  if (!verifier.VerifyString(module->name())) return "field 'name' (length out of range)";
  if (std::string bad = tables("attrs", M::VT_ATTRS, [&] { return module->attrs(); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad = tables("types", M::VT_TYPES, [&] { return module->types(); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad =
          tables("dependencies", M::VT_DEPENDENCIES, [&] { return module->dependencies(); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad = tables("imported_functions", M::VT_IMPORTED_FUNCTIONS,
                               [&] { return module->imported_functions(); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad = tables("exported_functions", M::VT_EXPORTED_FUNCTIONS,
                               [&] { return module->exported_functions(); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad = tables("function_signatures", M::VT_FUNCTION_SIGNATURES,
                               [&] { return module->function_signatures(); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad = tables("rodata_segments", M::VT_RODATA_SEGMENTS,
                               [&] { return module->rodata_segments(); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad = tables("rwdata_segments", M::VT_RWDATA_SEGMENTS,
                               [&] { return module->rwdata_segments(); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad = vector("module_state", M::VT_MODULE_STATE,
                               [&] { return verifier.VerifyTable(module->module_state()); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad =
          vector("function_descriptors", M::VT_FUNCTION_DESCRIPTORS,
                 [&] { return verifier.VerifyVector(module->function_descriptors()); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad = vector("bytecode_data", M::VT_BYTECODE_DATA,
                               [&] { return verifier.VerifyVector(module->bytecode_data()); });
      !bad.empty()) {
    return bad;
  }
  if (std::string bad = vector("debug_database", M::VT_DEBUG_DATABASE,
                               [&] { return verifier.VerifyTable(module->debug_database()); });
      !bad.empty()) {
    return bad;
  }
  return std::string();
}

// Appends "file:line:col" for location |index|, following references; false if none found.
bool ResolveLocation(const fb::DebugDatabaseDef& db, int32_t index, int& visits, std::string& out) {
  const auto* types = db.location_table_type();
  const auto* values = db.location_table();
  // The verifier guarantees both vectors are present together with equal sizes.
  if (!types || !values || index < 0 || static_cast<uint32_t>(index) >= values->size())
    return false;
  if (++visits > kMaxLocationVisits) return false;
  const void* value = values->Get(static_cast<uint32_t>(index));
  switch (types->Get(static_cast<uint32_t>(index))) {
    case fb::LocationTypeDef::FileLineColLocDef: {
      const auto* loc = static_cast<const fb::FileLineColLocDef*>(value);
      if (!loc->filename() || loc->filename()->size() == 0) return false;
      out = base::StrCat(View(loc->filename()), ":", loc->line(), ":", loc->column());
      return true;
    }
    case fb::LocationTypeDef::CallSiteLocDef: {
      // The callee is where the op's code came from; the caller is the fallback.
      const auto* loc = static_cast<const fb::CallSiteLocDef*>(value);
      return ResolveLocation(db, loc->callee(), visits, out) ||
             ResolveLocation(db, loc->caller(), visits, out);
    }
    case fb::LocationTypeDef::FusedLocDef: {
      const auto* loc = static_cast<const fb::FusedLocDef*>(value);
      if (!loc->locations()) return false;
      for (int32_t child : *loc->locations()) {
        if (ResolveLocation(db, child, visits, out)) return true;
      }
      return false;
    }
    case fb::LocationTypeDef::NameLocDef: {
      // An absent child reads as 0, which the compiler reserves for "unknown" when needed.
      const auto* loc = static_cast<const fb::NameLocDef*>(value);
      return ResolveLocation(db, loc->child_location(), visits, out);
    }
    default:
      return false;  // NONE, or a tag the verifier could not check.
  }
}

}  // namespace

std::string FormatFeatureBits(uint32_t bits) {
  static constexpr std::pair<uint32_t, const char*> kNames[] = {{kFeatureExtF32, "EXT_F32"},
                                                                {kFeatureExtF64, "EXT_F64"},
                                                                {kFeatureYield, "YIELD"},
                                                                {kFeatureUnwind, "UNWIND"}};
  if (bits == 0) return "none";
  std::string text;
  for (uint32_t bit = 0; bit < 32; ++bit) {
    const uint32_t mask = 1u << bit;
    if (!(bits & mask)) continue;
    if (!text.empty()) text += '|';
    const char* name = nullptr;
    for (const auto& [value, value_name] : kNames) {
      if (value == mask) name = value_name;
    }
    text += name ? std::string(name) : base::StrCat("bit", bit);
  }
  return text;
}

ModuleImage::~ModuleImage() = default;

base::StatusOr<std::unique_ptr<ModuleImage>> ModuleImage::Parse(std::span<const uint8_t> bytes,
                                                                uint32_t available_features) {
  RT_ASSIGN_OR_RETURN(ArchiveLayout layout, ParseArchive(bytes));
  const std::span<const uint8_t> flatbuffer = layout.size_prefixed_flatbuffer;
  flatbuffers::Verifier verifier(flatbuffer.data(), flatbuffer.size());
  if (!fb::VerifySizePrefixedBytecodeModuleDefBuffer(verifier)) {
    return InvalidArgumentError(
        "module FlatBuffer (", flatbuffer.size() - 4, " bytes at offset ", layout.prefix_offset + 4,
        ") failed structural verification: a table, vector or string is out of bounds or "
        "misaligned, or the required module name is missing",
        [&] {
          const std::string field = FindBadModuleField(flatbuffer);
          return field.empty() ? std::string() : base::StrCat(" (first bad: ", field, ")");
        }());
  }
  std::unique_ptr<ModuleImage> image(new ModuleImage());
  image->bytes_ = bytes;
  image->flatbuffer_ = flatbuffer.data();
  image->is_zip_ = layout.is_zip;
  RT_RETURN_IF_ERROR(image->Build(available_features, layout.rodata));
  return image;
}

namespace {

using Module = fb::BytecodeModuleDef;

Status ReadTypeNames(const Module& module, std::vector<std::string_view>& out) {
  const auto* types = module.types();
  for (uint32_t i = 0; i < SizeOf(types); ++i) {
    const fb::TypeDef* type = types->Get(i);
    const std::string_view name = type ? View(type->full_name()) : std::string_view();
    if (name.empty()) return InvalidArgumentError("type ", i, " has an empty name");
    out.push_back(name);
  }
  return Status::Ok();
}

Status ReadRodata(const Module& module, std::span<const uint8_t> external,
                  std::vector<std::span<const uint8_t>>& out) {
  const auto* segments = module.rodata_segments();
  for (uint32_t i = 0; i < SizeOf(segments); ++i) {
    const fb::RodataSegmentDef* segment = segments->Get(i);
    if (!segment) return InvalidArgumentError("rodata segment ", i, " is missing");
    if (const auto* embedded = segment->embedded_data()) {
      out.emplace_back(embedded->data(), embedded->size());
      continue;
    }
    const uint64_t offset = segment->external_data_offset();
    const uint64_t length = segment->external_data_length();
    const uint64_t available = external.size();
    if (offset > available || length > available - offset) {
      return InvalidArgumentError("rodata segment ", i, " (external, offset ", offset, ", length ",
                                  length, ") extends past the end of the module file (", available,
                                  " bytes after the rodata base)");
    }
    out.push_back(external.subspan(static_cast<size_t>(offset), static_cast<size_t>(length)));
  }
  return Status::Ok();
}

Status ReadDependencies(const Module& module, std::vector<DependencyInfo>& out) {
  const auto* deps = module.dependencies();
  for (uint32_t i = 0; i < SizeOf(deps); ++i) {
    const fb::ModuleDependencyDef* dep = deps->Get(i);
    const std::string_view name = dep ? View(dep->name()) : std::string_view();
    if (name.empty()) return InvalidArgumentError("dependency ", i, " has an empty module name");
    const bool optional = (static_cast<uint32_t>(dep->flags()) &
                           static_cast<uint32_t>(fb::ModuleDependencyFlagBits::OPTIONAL)) != 0;
    out.push_back({name, dep->minimum_version(), optional});
  }
  return Status::Ok();
}

Status ReadImports(const Module& module, std::vector<ImportInfo>& out) {
  const auto* imports = module.imported_functions();
  for (uint32_t i = 0; i < SizeOf(imports); ++i) {
    const fb::ImportFunctionDef* import = imports->Get(i);
    const std::string_view full_name = import ? View(import->full_name()) : std::string_view();
    if (full_name.empty()) return InvalidArgumentError("import ", i, " has an empty name");
    // Resolution splits at the first dot; reject names that cannot resolve now, not at link time.
    const size_t dot = full_name.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == full_name.size()) {
      return InvalidArgumentError("import ", i, " name '", full_name,
                                  "' is not of the form 'module.function'");
    }
    ImportInfo info;
    info.full_name = full_name;
    info.module_name = full_name.substr(0, dot);
    info.function_name = full_name.substr(dot + 1);
    if (import->signature()) info.cconv = View(import->signature()->calling_convention());
    info.optional = (static_cast<uint32_t>(import->flags()) &
                     static_cast<uint32_t>(fb::ImportFlagBits::OPTIONAL)) != 0;
    out.push_back(info);
  }
  return Status::Ok();
}

Status ReadExports(const Module& module, uint32_t function_count, std::vector<ExportInfo>& out) {
  const auto* exports = module.exported_functions();
  for (uint32_t i = 0; i < SizeOf(exports); ++i) {
    const fb::ExportFunctionDef* exp = exports->Get(i);
    const std::string_view name = exp ? View(exp->local_name()) : std::string_view();
    if (name.empty()) return InvalidArgumentError("export ", i, " has an empty name");
    const int32_t ordinal = exp->internal_ordinal();
    if (ordinal < 0 || static_cast<uint32_t>(ordinal) >= function_count) {
      return InvalidArgumentError("export ", i, " ('", name, "') refers to internal function ",
                                  ordinal, " but the module has ", function_count, " functions");
    }
    out.push_back({name, static_cast<uint32_t>(ordinal)});
  }
  return Status::Ok();
}

// Fills |info| from descriptor |i| and checks it against the bytecode data and limits.
Status ReadDescriptor(const Module& module, uint32_t i, uint32_t available_features,
                      FunctionInfo& info) {
  const fb::FunctionDescriptor& d = *module.function_descriptors()->Get(i);
  info.requirements = static_cast<uint32_t>(d.requirements());
  info.block_count = static_cast<uint16_t>(d.block_count());
  info.i32_register_count = static_cast<uint16_t>(d.i32_register_count());
  info.ref_register_count = static_cast<uint16_t>(d.ref_register_count());
  const int32_t offset = d.bytecode_offset();
  const int32_t length = d.bytecode_length();
  const uint64_t bytecode_size = SizeOf(module.bytecode_data());
  if (offset < 0 || length <= 0 || uint64_t(offset) + uint64_t(length) > bytecode_size) {
    return InvalidArgumentError("function ", i, " bytecode (offset ", offset, ", length ", length,
                                ") is outside the ", bytecode_size, "-byte bytecode data");
  }
  if (info.block_count == 0) return InvalidArgumentError("function ", i, " has no blocks");
  if (info.i32_register_count > kMaxI32RegisterCount ||
      info.ref_register_count > kMaxRefRegisterCount) {
    return InvalidArgumentError("function ", i, " uses ", info.i32_register_count, " i32 and ",
                                info.ref_register_count, " ref registers; the limits are ",
                                kMaxI32RegisterCount, " and ", kMaxRefRegisterCount);
  }
  RT_RETURN_IF_ERROR(
      CheckFeatures(info.requirements, available_features, base::StrCat("function ", i)));
  info.bytecode = std::span<const uint8_t>(module.bytecode_data()->data() + offset,
                                           static_cast<size_t>(length));
  return Status::Ok();
}

}  // namespace

Status ModuleImage::Build(uint32_t available_features, std::span<const uint8_t> external_rodata) {
  const Module& module = *fb::GetSizePrefixedBytecodeModuleDef(flatbuffer_);

  // The version comes first (the reference checks it later): a module of another ISA may fail
  // any later check, and this message is the one that explains it.
  bytecode_version_ = module.bytecode_version();
  const uint32_t major = bytecode_version_ >> 16;
  const uint32_t minor = bytecode_version_ & 0xFFFF;
  if (major != kBytecodeVersionMajor || minor > kBytecodeVersionMinor) {
    return IncompatibleError("bytecode version mismatch; runtime supports ", kBytecodeVersionMajor,
                             ".", kBytecodeVersionMinor, ", module has ", major, ".", minor,
                             " (modules of iree-base-compiler ", kCompilerVersion, " load)");
  }

  requirements_ = static_cast<uint32_t>(module.requirements());
  RT_RETURN_IF_ERROR(CheckFeatures(requirements_, available_features, "module"));
  name_ = View(module.name());
  if (name_.empty()) return InvalidArgumentError("module name is empty");
  version_ = module.version();
  attrs_ = ReadAttrs(module.attrs());
  RT_RETURN_IF_ERROR(ReadTypeNames(module, type_names_));
  RT_RETURN_IF_ERROR(ReadRodata(module, external_rodata, rodata_));
  RT_RETURN_IF_ERROR(ReadDependencies(module, dependencies_));
  RT_RETURN_IF_ERROR(ReadImports(module, imports_));

  const auto* signatures = module.function_signatures();
  const uint32_t function_count = SizeOf(module.function_descriptors());
  for (uint32_t i = 0; i < SizeOf(signatures); ++i) {
    if (!signatures->Get(i)) return InvalidArgumentError("function signature ", i, " is missing");
  }
  if (SizeOf(signatures) != function_count) {
    return InvalidArgumentError("module has ", SizeOf(signatures), " function signatures but ",
                                function_count, " function descriptors; they must match 1:1");
  }
  RT_RETURN_IF_ERROR(ReadExports(module, function_count, exports_));

  // iree-compile 3.13.0 files every function's source map under ordinal 0, so only a map
  // list that is 1:1 with the functions can be trusted.
  const fb::DebugDatabaseDef* debug_db = module.debug_database();
  const auto* debug_functions = debug_db ? debug_db->functions() : nullptr;
  has_function_debug_info_ = function_count > 0 && SizeOf(debug_functions) == function_count;

  functions_.resize(function_count);
  for (uint32_t i = 0; i < function_count; ++i) {
    FunctionInfo& info = functions_[i];
    RT_RETURN_IF_ERROR(ReadDescriptor(module, i, available_features, info));
    const fb::FunctionSignatureDef* signature = signatures->Get(i);
    info.cconv = View(signature->calling_convention());
    info.attrs = ReadAttrs(signature->attrs());
    if (has_function_debug_info_ && debug_functions->Get(i)) {
      info.debug_name = View(debug_functions->Get(i)->local_name());
    }
  }

  if (const fb::ModuleStateDef* state = module.module_state()) {
    if (state->global_bytes_capacity() < 0 || state->global_ref_count() < 0) {
      return InvalidArgumentError("module state has negative sizes (",
                                  state->global_bytes_capacity(), " global bytes, ",
                                  state->global_ref_count(), " global refs)");
    }
    global_bytes_capacity_ = static_cast<uint32_t>(state->global_bytes_capacity());
    global_ref_count_ = static_cast<uint32_t>(state->global_ref_count());
  }
  return Status::Ok();
}

std::string ModuleImage::SourceLocation(uint32_t function_ordinal, uint32_t pc) const {
  if (!has_function_debug_info_ || function_ordinal >= functions_.size() ||
      pc >= functions_[function_ordinal].bytecode.size()) {
    return {};
  }
  const fb::DebugDatabaseDef& db =
      *fb::GetSizePrefixedBytecodeModuleDef(flatbuffer_)->debug_database();
  const fb::FunctionSourceMapDef* map = db.functions()->Get(function_ordinal);
  if (!map || !map->locations()) return {};
  // The op at |pc| is described by the last entry starting at or before it; entries are in
  // bytecode order, but scan them all rather than trust that.
  int64_t best_offset = -1;
  int32_t best_location = -1;
  for (const fb::BytecodeLocationDef* entry : *map->locations()) {
    const int64_t offset = entry->bytecode_offset();
    if (offset >= 0 && offset <= int64_t{pc} && offset > best_offset) {
      best_offset = offset;
      best_location = entry->location();
    }
  }
  std::string out;
  int visits = 0;
  if (best_location < 0 || !ResolveLocation(db, best_location, visits, out)) return {};
  return out;
}

}  // namespace iree_rt::vm::bytecode
