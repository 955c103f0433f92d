// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "tooling/function_io.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "hal/buffer_view.h"
#include "modules/hal/ref_types.h"
#include "hal/utils/buffer_view_text.h"
#include "hal/utils/file_streams.h"
#include "tooling/npy.h"
#include "vm/buffer.h"
#include "vm/cconv.h"
#include "vm/list.h"

namespace iree_rt::tooling {

using base::Status;
using base::StatusOr;
using hal::utils::FileStreams;
using hal::utils::FormatBufferView;
using hal::utils::ParseBufferView;

namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

bool IsNullSpec(std::string_view spec) { return spec == "(null)" || spec == "(ignored)"; }

// Scalars parse as C's strtol/strtod do (base prefix auto-detected, trailing text ignored), but
// a spec with no number at all is an error rather than a silent 0.
StatusOr<vm::Value> ParseScalar(std::string_view spec, vm::ValueType type) {
  const std::string text(Trim(spec));
  if (IsNullSpec(text)) {
    switch (type) {
      case vm::ValueType::kI64: return vm::Value::I64(0);
      case vm::ValueType::kF32: return vm::Value::F32(0);
      case vm::ValueType::kF64: return vm::Value::F64(0);
      default: return vm::Value::I32(0);
    }
  }
  char* end = nullptr;
  errno = 0;
  vm::Value value;
  switch (type) {
    case vm::ValueType::kI32: value = vm::Value::I32(static_cast<int32_t>(std::strtol(text.c_str(), &end, 0))); break;
    case vm::ValueType::kI64: value = vm::Value::I64(std::strtoll(text.c_str(), &end, 0)); break;
    case vm::ValueType::kF32: value = vm::Value::F32(std::strtof(text.c_str(), &end)); break;
    case vm::ValueType::kF64: value = vm::Value::F64(std::strtod(text.c_str(), &end)); break;
    default: return base::InternalError("not a scalar type");
  }
  if (end == text.c_str()) {
    return base::InvalidArgumentError("input `", spec, "` is not a number");
  }
  return value;
}

bool IsNpySpec(std::string_view spec) {
  return spec.size() > 5 && (spec[0] == '@' || spec[0] == '+' || spec[0] == '*') &&
         spec.substr(spec.size() - 4) == ".npy";
}

bool IsNpyPath(std::string_view path) {
  return path.size() >= 4 && path.substr(path.size() - 4) == ".npy";
}

// Scalars become 0-D arrays, refs their contents (buffer views as arrays, vm.buffers as bytes),
// and a null ref an empty byte array, as iree-run-module writes them.
Status WriteNpyValue(const vm::Value& value, std::ostream& stream) {
  auto scalar = [&](hal::ElementType type, const void* data, size_t size) {
    return WriteNpyArray(type, {}, std::span(static_cast<const uint8_t*>(data), size), stream);
  };
  const int64_t i64 = value.i64();
  const int32_t i32 = value.i32();
  const int16_t i16 = static_cast<int16_t>(i32);
  const int8_t i8 = static_cast<int8_t>(i32);
  const float f32 = value.f32();
  const double f64 = value.f64();
  switch (value.type()) {
    case vm::ValueType::kI8: return scalar(hal::ElementTypes::kInt8, &i8, 1);
    case vm::ValueType::kI16: return scalar(hal::ElementTypes::kInt16, &i16, 2);
    case vm::ValueType::kI32: return scalar(hal::ElementTypes::kInt32, &i32, 4);
    case vm::ValueType::kI64: return scalar(hal::ElementTypes::kInt64, &i64, 8);
    case vm::ValueType::kF32: return scalar(hal::ElementTypes::kFloat32, &f32, 4);
    case vm::ValueType::kF64: return scalar(hal::ElementTypes::kFloat64, &f64, 8);
    default: break;
  }
  const vm::Ref& ref = value.ref();
  if (ref.is_null()) return WriteNpyBytes({}, stream);
  if (hal::BufferView* view = ref.Get<hal::BufferView>()) return WriteNpy(*view, stream);
  if (vm::Buffer* buffer = ref.Get<vm::Buffer>()) return WriteNpyBytes(buffer->bytes(), stream);
  return base::UnimplementedError("a ", ref.type()->name, " cannot be written to a .npy file");
}

// Raw bytes: a scalar's little-endian value, a buffer view's or vm.buffer's contents.
Status WriteRawValue(const vm::Value& value, std::ostream& stream) {
  const int64_t i64 = value.i64();
  const float f32 = value.f32();
  const double f64 = value.f64();
  auto write = [&](const void* data, size_t size) {
    stream.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    return Status::Ok();
  };
  switch (value.type()) {
    case vm::ValueType::kI8: return write(&i64, 1);
    case vm::ValueType::kI16: return write(&i64, 2);
    case vm::ValueType::kI32: return write(&i64, 4);
    case vm::ValueType::kI64: return write(&i64, 8);
    case vm::ValueType::kF32: return write(&f32, 4);
    case vm::ValueType::kF64: return write(&f64, 8);
    default: break;
  }
  const vm::Ref& ref = value.ref();
  if (ref.is_null()) return Status::Ok();
  if (vm::Buffer* buffer = ref.Get<vm::Buffer>()) {
    return write(buffer->bytes().data(), buffer->bytes().size());
  }
  if (hal::BufferView* view = ref.Get<hal::BufferView>()) {
    std::ostringstream npy;
    RT_RETURN_IF_ERROR(WriteNpy(*view, npy));
    // The raw bytes are the array data after the .npy header (whose length it records).
    const std::string text = npy.str();
    if (text.size() < 10) return base::InternalError("short .npy encoding");
    const size_t header_length = static_cast<uint8_t>(text[8]) | (static_cast<uint8_t>(text[9]) << 8);
    return write(text.data() + 10 + header_length, text.size() - 10 - header_length);
  }
  return base::UnimplementedError("a ", ref.type()->name, " has no raw byte form");
}

}  // namespace

StatusOr<std::vector<vm::Value>> ParseInputs(std::span<const std::string> specs,
                                             std::string_view cconv, hal::Allocator* allocator) {
  RT_ASSIGN_OR_RETURN(vm::Cconv parsed, vm::ParseCconv(cconv));
  const std::vector<vm::CconvItem>& arguments = parsed.arguments;
  std::vector<vm::Value> values;
  FileStreams streams;
  for (size_t spec_index = 0; spec_index < specs.size(); ++spec_index) {
    const std::string_view spec = specs[spec_index];
    auto annotate = [&](Status status) {
      return status.Annotate(base::StrCat("parsing input ", spec_index, " `", spec, "`"));
    };
    if (values.size() >= arguments.size()) {
      return annotate(base::InvalidArgumentError("function (", cconv, ") expects ",
                                                 arguments.size(), " inputs; this one is extra"));
    }
    const vm::CconvItem& item = arguments[values.size()];
    if (item.is_span()) {
      return annotate(base::UnimplementedError("variadic arguments cannot be given as inputs"));
    }
    if (item.type != vm::ValueType::kRef) {
      auto value = ParseScalar(spec, item.type);
      if (!value.ok()) return annotate(value.status());
      values.push_back(std::move(value).value());
      continue;
    }
    if (IsNullSpec(Trim(spec))) {
      values.push_back(vm::Value::FromRef(vm::Ref()));
      continue;
    }
    if (!allocator) {
      return annotate(base::FailedPreconditionError("tensor inputs need a device (--device=)"));
    }
    if (IsNpySpec(spec)) {
      auto views = ReadNpyInput(spec, *allocator, streams);
      if (!views.ok()) return annotate(views.status());
      for (auto& view : *views) {
        if (values.size() >= arguments.size() || arguments[values.size()].type != vm::ValueType::kRef) {
          return annotate(base::InvalidArgumentError(
              "the arrays of the file do not match the function's arguments (", cconv, ")"));
        }
        values.push_back(vm::Value::FromRef(vm::Ref::Make(std::move(view))));
      }
      continue;
    }
    auto view = ParseBufferView(spec, *allocator, &streams);
    if (!view.ok()) return annotate(view.status());
    values.push_back(vm::Value::FromRef(vm::Ref::Make(std::move(view).value())));
  }
  if (values.size() != arguments.size()) {
    return base::InvalidArgumentError("function (", cconv, ") expects ", arguments.size(),
                                      " inputs but ", values.size(), " were given");
  }
  return values;
}

StatusOr<std::string> FormatValue(const vm::Value& value, size_t max_element_count) {
  char text[64];
  switch (value.type()) {
    case vm::ValueType::kNone: return std::string("(null)");
    case vm::ValueType::kI8: return base::StrCat("i8=", value.i32());
    case vm::ValueType::kI16: return base::StrCat("i16=", value.i32());
    case vm::ValueType::kI32: return base::StrCat("i32=", value.i32());
    case vm::ValueType::kI64: return base::StrCat("i64=", value.i64());
    case vm::ValueType::kF32:
      std::snprintf(text, sizeof(text), "f32=%g", static_cast<double>(value.f32()));
      return std::string(text);
    case vm::ValueType::kF64:
      std::snprintf(text, sizeof(text), "f64=%g", value.f64());
      return std::string(text);
    case vm::ValueType::kRef: break;
  }
  const vm::Ref& ref = value.ref();
  if (ref.is_null()) return std::string("(null)");
  if (hal::BufferView* view = ref.Get<hal::BufferView>()) {
    RT_ASSIGN_OR_RETURN(std::string body, FormatBufferView(*view, max_element_count));
    return "hal.buffer_view\n" + body;
  }
  if (vm::List* list = ref.Get<vm::List>()) {
    std::string body = "vm.list\n";
    for (size_t index = 0; index < list->size(); ++index) {
      RT_ASSIGN_OR_RETURN(vm::Value element, list->GetVariant(index));
      RT_ASSIGN_OR_RETURN(std::string element_text, FormatValue(element, max_element_count));
      body += base::StrCat("child_list[", index, "]: ", element_text, "\n");
    }
    return body;
  }
  return base::StrCat(ref.type()->name, "\n(no printer)");
}

StatusOr<std::string> FormatResults(std::span<const vm::Value> results, size_t max_element_count) {
  std::string text;
  for (size_t index = 0; index < results.size(); ++index) {
    RT_ASSIGN_OR_RETURN(std::string value, FormatValue(results[index], max_element_count));
    text += base::StrCat("result[", index, "]: ", value, "\n");
  }
  return text;
}

Status WriteOutputs(std::span<const vm::Value> results, std::span<const std::string> specs,
                    size_t max_element_count, std::string* out) {
  if (specs.size() != results.size()) {
    return base::OutOfRangeError(specs.size(), " --output flags given but the function returns ",
                                 results.size(), " results; give one per result");
  }
  for (size_t index = 0; index < results.size(); ++index) {
    const std::string& spec = specs[index];
    if (spec.empty()) continue;
    if (spec == "-") {
      // iree-run-module prints the bare value here, without the "result[i]: " prefix.
      RT_ASSIGN_OR_RETURN(std::string value, FormatValue(results[index], max_element_count));
      *out += value + "\n";
      continue;
    }
    if (spec[0] != '@' && spec[0] != '+') {
      return base::InvalidArgumentError("--output `", spec, "`: expected '', '-', @path or +path");
    }
    const std::string path = spec.substr(1);
    const bool append = spec[0] == '+';
    std::ofstream stream(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
    if (!stream) {
      return base::MakeStatus(base::StatusCode::kPermissionDenied, "cannot open '", path, "' for writing result ", index);
    }
    Status status = IsNpyPath(path) ? WriteNpyValue(results[index], stream)
                                    : WriteRawValue(results[index], stream);
    stream.flush();
    if (status.ok() && !stream) status = base::MakeStatus(base::StatusCode::kDataLoss, "writing '", path, "' failed");
    if (!status.ok()) return status.Annotate(base::StrCat("writing result ", index, " to ", path));
  }
  return Status::Ok();
}

}  // namespace iree_rt::tooling
