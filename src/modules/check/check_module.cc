// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/check/check_module.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "hal/buffer_view.h"
#include "hal/device.h"
#include "hal/element_type.h"
#include "modules/check/host_view.h"
#include "vm/instance.h"
#include "hal/utils/buffer_view_text.h"
#include "hal/utils/element_value.h"
#include "vm/native_module.h"

namespace iree_rt::modules::check {

namespace {

// modules::hal (the ref types) would otherwise shadow the HAL namespace here.
namespace hal = ::iree_rt::hal;

using base::Ref;
using base::Status;
using base::StatusOr;

// The reference prints at most this many elements of each operand in a failure message.
constexpr size_t kMaxPrintedElements = 1024;

// The hal types are the instance's registered descriptors, not vm::RefTypeOf<>: this module is
// also built into libiree_rt_tooling, whose own copies of the descriptors have other addresses
// than those of the library that made the refs (src/api/check_plugin.h).
class CheckState final : public vm::ModuleState {
 public:
  explicit CheckState(const vm::Instance& instance)
      : device_type_(instance.LookupType("hal.device")),
        buffer_view_type_(instance.LookupType("hal.buffer_view")) {}

  void Record(std::string message) { failures_.push_back(std::move(message)); }
  const vm::RefType* device_type() const { return device_type_; }
  const vm::RefType* buffer_view_type() const { return buffer_view_type_; }

  Status TakeRecordedFailures() override {
    if (failures_.empty()) return Status();
    std::string joined;
    for (const std::string& failure : failures_) {
      if (!joined.empty()) joined += '\n';
      joined += failure;
    }
    failures_.clear();
    return base::FailedPreconditionError(joined);
  }

 private:
  const vm::RefType* device_type_;
  const vm::RefType* buffer_view_type_;
  std::vector<std::string> failures_;
};

StatusOr<CheckState*> GetState(vm::ModuleState& state) {
  auto* check_state = dynamic_cast<CheckState*>(&state);
  if (!check_state) return base::InternalError("module state was not created by the check module");
  return check_state;
}

std::string RefTypeName(vm::RefView ref) {
  return ref.type() ? std::string(ref.type()->name) : std::string("an untyped ref");
}

// A device argument may be null: it is needed only to read buffers the host cannot map.
StatusOr<hal::Device*> DeviceArg(const CheckState& state, const vm::Arg& value) {
  const vm::RefView ref = value.ref();
  if (ref.is_null()) return static_cast<hal::Device*>(nullptr);
  auto* device = ref.type() == state.device_type() ? static_cast<hal::Device*>(ref.object()) : nullptr;
  if (!device) {
    return base::InvalidArgumentError("device: expected a hal.device, got ", RefTypeName(ref));
  }
  return device;
}

StatusOr<HostView> ViewArg(const CheckState& state, hal::Device* device, const vm::Arg& value,
                           const char* what) {
  const vm::RefView ref = value.ref();
  if (ref.is_null()) return base::InvalidArgumentError(what, ": the buffer view is null");
  Ref<hal::BufferView> view = Ref<hal::BufferView>::Retain(
      ref.type() == state.buffer_view_type() ? static_cast<hal::BufferView*>(ref.object()) : nullptr);
  if (!view) {
    return base::InvalidArgumentError(what, ": expected a hal.buffer_view, got ", RefTypeName(ref));
  }
  return MapViewOnHost(device, view);
}

Status UnsupportedElementType(hal::ElementType type) {
  return base::InvalidArgumentError("unsupported element type ", hal::ElementTypeName(type));
}

bool SameShape(const hal::BufferView& lhs, const hal::BufferView& rhs) {
  return std::equal(lhs.shape().begin(), lhs.shape().end(), rhs.shape().begin(), rhs.shape().end());
}

Status AppendOperand(std::ostringstream& os, const char* label, const HostView& operand) {
  RT_ASSIGN_OR_RETURN(std::string text,
                      hal::utils::FormatBufferView(*operand.view, kMaxPrintedElements));
  os << "\n  " << label << ":\n    " << text;
  return Status();
}

//===------------------------------------------------------------------------------------------===//
// expect_true / expect_false
//===------------------------------------------------------------------------------------------===//

Status ExpectTrue(vm::ModuleState& state, std::span<const vm::Arg> args, std::span<vm::Value>) {
  RT_ASSIGN_OR_RETURN(CheckState * check, GetState(state));
  const int32_t operand = args[0].i32();
  if (operand == 0) check->Record(base::StrCat("Expected ", operand, " to be nonzero."));
  return Status();
}

Status ExpectFalse(vm::ModuleState& state, std::span<const vm::Arg> args, std::span<vm::Value>) {
  RT_ASSIGN_OR_RETURN(CheckState * check, GetState(state));
  const int32_t operand = args[0].i32();
  if (operand != 0) check->Record(base::StrCat("Expected ", operand, " to be zero."));
  return Status();
}

//===------------------------------------------------------------------------------------------===//
// expect_all_true
//===------------------------------------------------------------------------------------------===//

template <typename T>
std::optional<uint64_t> FirstZero(std::span<const uint8_t> bytes) {
  const uint64_t count = bytes.size() / sizeof(T);
  for (uint64_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    if (value == T(0)) return i;
  }
  return std::nullopt;
}

// Index of the first zero element; nullopt when all are nonzero. Signedness does not matter for
// a comparison with zero, so integers are read as unsigned of their width.
StatusOr<std::optional<uint64_t>> FindFirstZero(hal::ElementType type,
                                                std::span<const uint8_t> bytes) {
  namespace nt = hal::NumericalType;
  const uint32_t numerical = hal::ElementNumericalType(type);
  const uint32_t bits = hal::ElementBitCount(type);
  const bool integer = numerical == nt::kInteger || numerical == nt::kIntegerSigned ||
                       numerical == nt::kIntegerUnsigned;
  if ((type & 0x00FFFF00u) == 0) {
    if (integer || (numerical == nt::kBoolean && bits == 8)) {
      switch (bits) {
        case 8: return FirstZero<uint8_t>(bytes);
        case 16: return FirstZero<uint16_t>(bytes);
        case 32: return FirstZero<uint32_t>(bytes);
        case 64: return FirstZero<uint64_t>(bytes);
        default: break;
      }
    } else if (numerical == nt::kFloatIeee && bits == 32) {
      return FirstZero<float>(bytes);
    } else if (numerical == nt::kFloatIeee && bits == 64) {
      return FirstZero<double>(bytes);
    }
  }
  return UnsupportedElementType(type);
}

Status ExpectAllTrue(vm::ModuleState& state, std::span<const vm::Arg> args,
                     std::span<vm::Value>) {
  RT_ASSIGN_OR_RETURN(CheckState * check, GetState(state));
  RT_ASSIGN_OR_RETURN(hal::Device * device, DeviceArg(*check, args[0]));
  RT_ASSIGN_OR_RETURN(HostView operand, ViewArg(*check, device, args[1], "operand"));
  RT_ASSIGN_OR_RETURN(std::optional<uint64_t> zero,
                      FindFirstZero(operand.view->element_type(), operand.data));
  if (!zero) return Status();
  std::ostringstream os;
  os << "Expected all elements to be true (nonzero). The first zero element is at index " << *zero
     << ".";
  RT_RETURN_IF_ERROR(AppendOperand(os, "operand", operand));
  check->Record(os.str());
  return Status();
}

//===------------------------------------------------------------------------------------------===//
// expect_eq
//===------------------------------------------------------------------------------------------===//

struct Operands {
  HostView lhs;
  HostView rhs;
  bool types_match = false;
  bool shapes_match = false;
};

StatusOr<Operands> ReadOperands(const CheckState& state, std::span<const vm::Arg> args) {
  Operands operands;
  RT_ASSIGN_OR_RETURN(hal::Device * device, DeviceArg(state, args[0]));
  RT_ASSIGN_OR_RETURN(operands.lhs, ViewArg(state, device, args[1], "lhs"));
  RT_ASSIGN_OR_RETURN(operands.rhs, ViewArg(state, device, args[2], "rhs"));
  operands.types_match = operands.lhs.view->element_type() == operands.rhs.view->element_type();
  operands.shapes_match = SameShape(*operands.lhs.view, *operands.rhs.view);
  return operands;
}

Status AppendOperands(std::ostringstream& os, const Operands& operands) {
  RT_RETURN_IF_ERROR(AppendOperand(os, "lhs", operands.lhs));
  return AppendOperand(os, "rhs", operands.rhs);
}

Status ExpectEq(vm::ModuleState& state, std::span<const vm::Arg> args, std::span<vm::Value>) {
  RT_ASSIGN_OR_RETURN(CheckState * check, GetState(state));
  RT_ASSIGN_OR_RETURN(Operands operands, ReadOperands(*check, args));
  // Like the reference, contents are compared bytewise even when type or shape differ.
  const std::span<const uint8_t> lhs = operands.lhs.data;
  const std::span<const uint8_t> rhs = operands.rhs.data;
  const bool contents_match = std::equal(lhs.begin(), lhs.end(), rhs.begin(), rhs.end());
  if (operands.types_match && operands.shapes_match && contents_match) return Status();

  std::ostringstream os;
  os << "Expected equality of these values.";
  if (!operands.types_match) os << " Element types do not match.";
  if (!operands.shapes_match) os << " Shapes do not match.";
  if (!contents_match) os << " Contents does not match.";
  RT_RETURN_IF_ERROR(AppendOperands(os, operands));
  check->Record(os.str());
  return Status();
}

//===------------------------------------------------------------------------------------------===//
// expect_almost_eq
//===------------------------------------------------------------------------------------------===//

// NumPy isclose with rhs as the reference value, except that two NaNs compare equal.
bool AlmostEqual(double lhs, double rhs, double atol, double rtol) {
  if (lhs == rhs) return true;  // also +inf vs +inf, where lhs - rhs would be NaN
  if (std::isnan(lhs) && std::isnan(rhs)) return true;
  if (!std::isfinite(rhs)) return false;
  return std::fabs(lhs - rhs) <= atol + rtol * std::fabs(rhs);
}

struct Mismatch {
  uint64_t index = 0;
  double lhs = 0.0;
  double rhs = 0.0;
};

// The first element pair that is not AlmostEqual. Both spans hold the same type and shape.
StatusOr<std::optional<Mismatch>> FindFirstMismatch(hal::ElementType type,
                                                    std::span<const uint8_t> lhs,
                                                    std::span<const uint8_t> rhs, double atol,
                                                    double rtol) {
  if (hal::utils::ClassifyElement(type) != hal::utils::ElementClass::kFloat) {
    return UnsupportedElementType(type);
  }
  const size_t size = hal::ElementBitCount(type) / 8;
  const uint64_t count = std::min(lhs.size(), rhs.size()) / size;
  for (uint64_t i = 0; i < count; ++i) {
    const double l = hal::utils::LoadFloatElement(type, lhs.data() + i * size);
    const double r = hal::utils::LoadFloatElement(type, rhs.data() + i * size);
    if (!AlmostEqual(l, r, atol, rtol)) return std::optional<Mismatch>(Mismatch{i, l, r});
  }
  return std::optional<Mismatch>();
}

Status ExpectAlmostEq(vm::ModuleState& state, std::span<const vm::Arg> args,
                      std::span<vm::Value>) {
  RT_ASSIGN_OR_RETURN(CheckState * check, GetState(state));
  RT_ASSIGN_OR_RETURN(Operands operands, ReadOperands(*check, args));
  const float atol = args[3].f32();
  const float rtol = args[4].f32();
  // Contents (and the element type) are looked at only when type and shape agree.
  std::optional<Mismatch> mismatch;
  if (operands.types_match && operands.shapes_match) {
    RT_ASSIGN_OR_RETURN(mismatch, FindFirstMismatch(operands.lhs.view->element_type(),
                                                    operands.lhs.data, operands.rhs.data, atol,
                                                    rtol));
    if (!mismatch) return Status();
  }

  // Numbers print as the reference's stream output does: tolerances and values with the default
  // 6 significant digits, the difference rhs - lhs in scientific notation with 3 decimals.
  std::ostringstream os;
  os << "Expected near equality of these values.";
  if (!operands.types_match) os << " Element types do not match.";
  if (!operands.shapes_match) os << " Shapes do not match.";
  if (mismatch) {
    os << " Contents does not match to tolerance parameters atol=" << atol << ", rtol=" << rtol
       << ". The first failure occurs at index " << mismatch->index << " as the lhs value "
       << mismatch->lhs << " differs from the rhs value " << mismatch->rhs << " by "
       << std::scientific << std::setprecision(3) << (mismatch->rhs - mismatch->lhs) << ".";
  }
  RT_RETURN_IF_ERROR(AppendOperands(os, operands));
  check->Record(os.str());
  return Status();
}

//===------------------------------------------------------------------------------------------===//
// The module
//===------------------------------------------------------------------------------------------===//

class CheckModule final : public vm::NativeModule {
 public:
  static StatusOr<Ref<vm::Module>> Create() {
    Ref<CheckModule> module = Ref<CheckModule>::Adopt(new CheckModule());
    RT_RETURN_IF_ERROR(module->Validate());
    return Ref<vm::Module>(std::move(module));
  }

  StatusOr<std::unique_ptr<vm::ModuleState>> CreateState(vm::Instance& instance) override {
    return std::unique_ptr<vm::ModuleState>(std::make_unique<CheckState>(instance));
  }

 private:
  CheckModule() : NativeModule("check", /*version=*/0, Functions()) {}

  // The cconvs are what iree-compile 3.13.0 records for the check.* imports
  // (docs/facts_corrections.md, "check module").
  static std::vector<FunctionDef> Functions() {
    std::vector<FunctionDef> functions;
    functions.push_back({"expect_true", "0i_v", ExpectTrue, {}});
    functions.push_back({"expect_false", "0i_v", ExpectFalse, {}});
    functions.push_back({"expect_all_true", "0rr_v", ExpectAllTrue, {}});
    functions.push_back({"expect_eq", "0rrr_v", ExpectEq, {}});
    functions.push_back({"expect_almost_eq", "0rrrff_v", ExpectAlmostEq, {}});
    return functions;
  }
};

}  // namespace

StatusOr<Ref<vm::Module>> CreateCheckModule() { return CheckModule::Create(); }

}  // namespace iree_rt::modules::check
