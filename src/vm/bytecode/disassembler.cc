// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vm/bytecode/disassembler.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "base/status.h"

namespace iree_rt::vm::bytecode {

namespace {

void AppendRegister(std::string& out, uint16_t raw, uint8_t width) {
  char buffer[32];
  if (raw & kRegisterRefBit) {
    std::snprintf(buffer, sizeof(buffer), "%%r%u%s", raw & kRefOrdinalMask,
                  (raw & kRegisterMoveBit) ? "(move)" : "");
  } else if (width == 2) {
    std::snprintf(buffer, sizeof(buffer), "%%i%u:%u", raw, raw + 1u);
  } else {
    std::snprintf(buffer, sizeof(buffer), "%%i%u", raw);
  }
  out += buffer;
}

void AppendList(std::string& out, std::span<const uint8_t> code, const OperandValue& list,
                uint8_t width) {
  out += '[';
  for (uint32_t i = 0; i < list.count; ++i) {
    if (i) out += ", ";
    AppendRegister(out, ReadU16(code, list.offset + 2 * i), width);
  }
  out += ']';
}

void AppendRemap(std::string& out, std::span<const uint8_t> code, const OperandValue& remap) {
  if (remap.count == 0) return;
  out += '(';
  for (uint32_t i = 0; i < remap.count; ++i) {
    if (i) out += ", ";
    AppendRegister(out, ReadU16(code, remap.offset + 4 * i), 1);
    out += " -> ";
    AppendRegister(out, ReadU16(code, remap.offset + 4 * i + 2), 1);
  }
  out += ')';
}

void AppendString(std::string& out, std::span<const uint8_t> code, const OperandValue& str) {
  out += '"';
  for (uint32_t i = 0; i < str.count; ++i) {
    const unsigned char c = code[str.offset + i];
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      char buffer[8];
      std::snprintf(buffer, sizeof(buffer), "\\x%02X", c);
      out += buffer;
    }
  }
  out += '"';
}

void AppendFunction(std::string& out, const ModuleImage& image, uint32_t function) {
  if (function & kFunctionImportBit) {
    const uint32_t ordinal = function & ~kFunctionImportBit;
    if (ordinal < image.imports().size()) {
      out += base::StrCat("@", image.imports()[ordinal].full_name);
    } else {
      out += base::StrCat("@import", ordinal);
    }
    return;
  }
  std::string_view name;
  if (function < image.functions().size()) name = image.functions()[function].debug_name;
  if (name.empty()) {
    for (const ExportInfo& exported : image.exports()) {
      if (exported.internal_ordinal == function) {
        name = exported.name;
        break;
      }
    }
  }
  out += name.empty() ? base::StrCat("@function", function) : base::StrCat("@", name);
}

}  // namespace

std::string FormatInstruction(const ModuleImage& image, std::span<const uint8_t> code,
                              const Instruction& inst) {
  const OpSpec& spec = *inst.spec;
  std::string out(spec.mnemonic);
  bool first = true;
  for (int i = 0; i < spec.operand_count; ++i) {
    const OperandSpec& op = spec.operands[i];
    const OperandValue& value = inst.operands[i];
    // Fields printed as part of their neighbour.
    if (op.kind == OperandKind::kRemap || op.kind == OperandKind::kCaseCount) {
      if (op.kind == OperandKind::kRemap) AppendRemap(out, code, value);
      continue;
    }
    const bool is_result =
        op.write && (op.kind == OperandKind::kRegister || op.kind == OperandKind::kRegisterList);
    out += first ? " " : (is_result ? " -> " : ", ");
    first = false;
    char buffer[64];
    switch (op.kind) {
      case OperandKind::kRegister:
        AppendRegister(out, static_cast<uint16_t>(value.value), op.width);
        break;
      case OperandKind::kImmediate32:
        if (op.is_float) {
          float f;
          const uint32_t bits = static_cast<uint32_t>(value.value);
          std::memcpy(&f, &bits, sizeof(f));
          std::snprintf(buffer, sizeof(buffer), "%.9g", f);
        } else {
          std::snprintf(buffer, sizeof(buffer), "%" PRId32, static_cast<int32_t>(value.value));
        }
        out += buffer;
        break;
      case OperandKind::kImmediate64:
        if (op.is_float) {
          double d;
          std::memcpy(&d, &value.value, sizeof(d));
          std::snprintf(buffer, sizeof(buffer), "%.17g", d);
        } else {
          std::snprintf(buffer, sizeof(buffer), "%" PRId64, static_cast<int64_t>(value.value));
        }
        out += buffer;
        break;
      case OperandKind::kGlobal:
        out += base::StrCat(op.global_bytes ? "@global[" : "@ref_global[", value.value, "]");
        break;
      case OperandKind::kFunction:
        AppendFunction(out, image, static_cast<uint32_t>(value.value));
        break;
      case OperandKind::kRodata:
        out += base::StrCat("@rodata[", value.value, "]");
        break;
      case OperandKind::kType:
        if (value.value < image.type_names().size()) {
          out += image.type_names()[value.value];
        } else {
          out += base::StrCat("!type[", value.value, "]");
        }
        break;
      case OperandKind::kString:
        AppendString(out, code, value);
        break;
      case OperandKind::kBranchTarget:
        out += base::StrCat("^", value.value);
        break;
      case OperandKind::kCases: {
        out += '[';
        CaseCursor cursor(code, value);
        uint32_t target;
        OperandValue remap;
        for (bool first_case = true; cursor.Next(&target, &remap); first_case = false) {
          if (!first_case) out += ", ";
          out += base::StrCat("^", target);
          AppendRemap(out, code, remap);
        }
        out += ']';
        break;
      }
      case OperandKind::kSegments:
        out += "segments[";
        for (uint32_t s = 0; s < value.count; ++s) {
          const uint16_t segment = ReadU16(code, value.offset + 2 * s);
          out += s ? ", " : "";
          out += segment == kSegmentScalar ? std::string("_") : std::to_string(segment);
        }
        out += ']';
        break;
      case OperandKind::kRegisterList:
        AppendList(out, code, value, op.width);
        break;
      case OperandKind::kRemap:
      case OperandKind::kCaseCount:
        break;
    }
  }
  return out;
}

std::string Disassemble(const ModuleImage& image, uint32_t function_ordinal) {
  if (function_ordinal >= image.functions().size()) return {};
  const std::span<const uint8_t> code = image.functions()[function_ordinal].bytecode;
  std::string out;
  Instruction inst;
  for (uint32_t pc = 0; pc < code.size(); pc = inst.next_pc) {
    uint32_t error_pc = 0;
    switch (DecodeInstruction(code, pc, &inst, &error_pc)) {
      case DecodeError::kNone:
        out += base::StrCat(pc, ": ", FormatInstruction(image, code, inst), "\n");
        continue;
      case DecodeError::kUnknownOpcode: {
        char buffer[64];
        std::snprintf(buffer, sizeof(buffer), "%u: <unknown opcode 0x%02X%s>\n", pc, inst.opcode,
                      inst.set == OpSet::kCore ? "" : " (extension set)");
        out += buffer;
        return out;
      }
      case DecodeError::kOverrun:
        out +=
            base::StrCat(pc, ": <truncated ",
                         inst.spec ? inst.spec->mnemonic : std::string_view("instruction"), ">\n");
        return out;
    }
  }
  return out;
}

}  // namespace iree_rt::vm::bytecode
