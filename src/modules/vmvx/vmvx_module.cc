// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/vmvx/vmvx_module.h"

#include "modules/vmvx/kernels.h"
#include "modules/vmvx/strided_view.h"
#include "vm/native_module.h"

namespace iree_rt::modules::vmvx {

namespace {

using base::Status;
using base::StatusOr;
using vm::Arg;

constexpr uint32_t kTypeMask = 0xFF;
constexpr uint32_t kMmt4dAccumulate = 0x100;
constexpr uint32_t kTransposeInner = 0x100;
constexpr uint32_t kTransposeOuter = 0x200;

// Maps the plain 2-D operand whose ref is args[first] followed by offset, stride0, stride1.
StatusOr<StridedView> Map2D(std::span<const Arg> args, size_t first, const char* operand,
                            uint32_t element_size, Access access, int64_t size0, int64_t size1) {
  return MapView(args[first].ref(), operand, element_size, access, args[first + 1].i64(),
                 args[first + 2].i64(), args[first + 3].i64(), size0, size1);
}

template <BinaryOp op>
Status Binary(vm::ModuleState&, std::span<const Arg> args, std::span<vm::Value>) {
  const int64_t size0 = args[12].i64(), size1 = args[13].i64();
  RT_ASSIGN_OR_RETURN(StridedView lhs, Map2D(args, 0, "lhs", 4, Access::kRead, size0, size1));
  RT_ASSIGN_OR_RETURN(StridedView rhs, Map2D(args, 4, "rhs", 4, Access::kRead, size0, size1));
  RT_ASSIGN_OR_RETURN(StridedView out, Map2D(args, 8, "out", 4, Access::kWrite, size0, size1));
  return Binary32(op, lhs, rhs, out);
}

template <UnaryOp op>
Status Unary(vm::ModuleState&, std::span<const Arg> args, std::span<vm::Value>) {
  const int64_t size0 = args[8].i64(), size1 = args[9].i64();
  RT_ASSIGN_OR_RETURN(StridedView in, Map2D(args, 0, "in", 4, Access::kRead, size0, size1));
  RT_ASSIGN_OR_RETURN(StridedView out, Map2D(args, 4, "out", 4, Access::kWrite, size0, size1));
  Unary32(op, in, out);
  return Status();
}

template <uint32_t kElementSize>
Status Copy(vm::ModuleState&, std::span<const Arg> args, std::span<vm::Value>) {
  const int64_t size0 = args[8].i64(), size1 = args[9].i64();
  RT_ASSIGN_OR_RETURN(StridedView in, Map2D(args, 0, "in", kElementSize, Access::kRead, size0, size1));
  RT_ASSIGN_OR_RETURN(StridedView out,
                      Map2D(args, 4, "out", kElementSize, Access::kWrite, size0, size1));
  Copy2D(in, out);
  return Status();
}

Status Fill(vm::ModuleState&, std::span<const Arg> args, std::span<vm::Value>) {
  RT_ASSIGN_OR_RETURN(StridedView out,
                      MapView(args[1].ref(), "out", 4, Access::kWrite, args[2].i64(), args[3].i64(),
                              1, args[4].i64(), args[5].i64()));
  Fill2D32(static_cast<uint32_t>(args[0].i32()), out);
  return Status();
}

// a * b for a program's sizes; INVALID_ARGUMENT when negative or past int64.
StatusOr<int64_t> Product(int64_t a, int64_t b, const char* what) {
  int64_t product = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &product)) {
    return base::InvalidArgumentError(what, " ", a, " x ", b, " is negative or overflows");
  }
  return product;
}

Status Mmt4dFn(vm::ModuleState&, std::span<const Arg> args, std::span<vm::Value>) {
  const int64_t m = args[9].i64(), n = args[10].i64(), k = args[11].i64();
  const int64_t m0 = args[12].i32(), n0 = args[13].i32(), k0 = args[14].i32();
  const uint32_t flags = static_cast<uint32_t>(args[15].i32());
  Mmt4dType type;
  uint32_t in_size = 0;
  switch (flags & kTypeMask) {
    case 1: type = Mmt4dType::kF32F32F32, in_size = 4; break;
    case 2: type = Mmt4dType::kS8S8S32, in_size = 1; break;
    default:
      return base::UnimplementedError("vmvx.mmt4d: element types 0x", std::hex, flags & kTypeMask,
                                      " (flags 0x", flags, ") are not supported");
  }
  if (m < 0 || n < 0 || k < 0) {
    return base::InvalidArgumentError("vmvx.mmt4d: negative size ", m, "x", n, "x", k);
  }
  RT_ASSIGN_OR_RETURN(int64_t lhs_tile, Product(m0, k0, "vmvx.mmt4d lhs tile"));
  RT_ASSIGN_OR_RETURN(int64_t rhs_tile, Product(n0, k0, "vmvx.mmt4d rhs tile"));
  RT_ASSIGN_OR_RETURN(int64_t out_tile, Product(m0, n0, "vmvx.mmt4d out tile"));
  RT_ASSIGN_OR_RETURN(StridedView lhs, MapView(args[0].ref(), "lhs", in_size, Access::kRead,
                                               args[1].i64(), args[2].i64(), lhs_tile, m, k, lhs_tile));
  RT_ASSIGN_OR_RETURN(StridedView rhs, MapView(args[3].ref(), "rhs", in_size, Access::kRead,
                                               args[4].i64(), args[5].i64(), rhs_tile, n, k, rhs_tile));
  RT_ASSIGN_OR_RETURN(StridedView out, MapView(args[6].ref(), "out", 4, Access::kWrite,
                                               args[7].i64(), args[8].i64(), out_tile, m, n, out_tile));
  Mmt4dShape shape{static_cast<uint64_t>(m), static_cast<uint64_t>(n), static_cast<uint64_t>(k),
                   static_cast<uint64_t>(m0), static_cast<uint64_t>(n0), static_cast<uint64_t>(k0),
                   (flags & kMmt4dAccumulate) != 0};
  Mmt4d(type, shape, lhs, rhs, out);
  return Status();
}

// Element size of a pack/unpack type; 0 when unsupported.
uint32_t PackElementSize(uint32_t type, bool allow_i8) {
  switch (type) {
    case 1: case 3: return 4;  // f32, i32
    case 2: return allow_i8 ? 1 : 0;
    case 4: case 5: return 2;  // f16, bf16: moved as bits
    default: return 0;
  }
}

Status PackFn(vm::ModuleState&, std::span<const Arg> args, std::span<vm::Value>) {
  const uint32_t flags = static_cast<uint32_t>(args[15].i32());
  const uint32_t size = PackElementSize(flags & kTypeMask, /*allow_i8=*/true);
  if (size == 0) {
    return base::UnimplementedError("vmvx.pack: element type 0x", std::hex, flags & kTypeMask,
                                    " is not supported");
  }
  const int64_t tile0 = args[12].i64(), tile1 = args[13].i64();
  RT_ASSIGN_OR_RETURN(int64_t tile, Product(tile0, tile1, "vmvx.pack tile"));
  RT_ASSIGN_OR_RETURN(StridedView in, Map2D(args, 0, "in", size, Access::kRead, args[8].i64(),
                                            args[9].i64()));
  RT_ASSIGN_OR_RETURN(StridedView out, MapView(args[4].ref(), "out", size, Access::kWrite,
                                               args[5].i64(), args[6].i64(), args[7].i64(),
                                               args[10].i64(), args[11].i64(), tile));
  TileShape tiles{static_cast<uint64_t>(tile0), static_cast<uint64_t>(tile1),
                  (flags & kTransposeOuter) != 0, (flags & kTransposeInner) != 0};
  Pack(in, out, tiles, static_cast<uint64_t>(args[14].i64()));
  return Status();
}

Status UnpackFn(vm::ModuleState&, std::span<const Arg> args, std::span<vm::Value>) {
  const uint32_t flags = static_cast<uint32_t>(args[14].i32());
  const uint32_t size = PackElementSize(flags & kTypeMask, /*allow_i8=*/false);
  if (size == 0) {
    return base::UnimplementedError("vmvx.unpack: element type 0x", std::hex, flags & kTypeMask,
                                    " is not supported");
  }
  const int64_t tile0 = args[10].i64(), tile1 = args[11].i64();
  RT_ASSIGN_OR_RETURN(int64_t tile, Product(tile0, tile1, "vmvx.unpack tile"));
  RT_ASSIGN_OR_RETURN(StridedView in, MapView(args[0].ref(), "in", size, Access::kRead,
                                              args[1].i64(), args[2].i64(), args[3].i64(),
                                              args[8].i64(), args[9].i64(), tile));
  RT_ASSIGN_OR_RETURN(StridedView out, Map2D(args, 4, "out", size, Access::kWrite, args[12].i64(),
                                             args[13].i64()));
  TileShape tiles{static_cast<uint64_t>(tile0), static_cast<uint64_t>(tile1),
                  (flags & kTransposeOuter) != 0, (flags & kTransposeInner) != 0};
  return Unpack(in, out, tiles);
}

class VmvxModule final : public vm::NativeModule {
 public:
  static StatusOr<base::Ref<vm::Module>> Create() {
    base::Ref<VmvxModule> module = base::Ref<VmvxModule>::Adopt(new VmvxModule());
    RT_RETURN_IF_ERROR(module->Validate());
    return base::Ref<vm::Module>(std::move(module));
  }

 private:
  VmvxModule() : NativeModule("vmvx", /*version=*/0, Functions()) {}

  static std::vector<FunctionDef> Functions() {
    constexpr const char* kBinary = "0rIIIrIIIrIIIII_v";
    constexpr const char* kUnary = "0rIIIrIIIII_v";
    std::vector<FunctionDef> f;
    f.push_back({"abs.2d.f32", kUnary, Unary<UnaryOp::kAbsF>, {}});
    f.push_back({"add.2d.f32", kBinary, Binary<BinaryOp::kAddF>, {}});
    f.push_back({"add.2d.i32", kBinary, Binary<BinaryOp::kAddI>, {}});
    f.push_back({"and.2d.i32", kBinary, Binary<BinaryOp::kAndI>, {}});
    f.push_back({"ceil.2d.f32", kUnary, Unary<UnaryOp::kCeilF>, {}});
    f.push_back({"copy.2d.x16", kUnary, Copy<2>, {}});
    f.push_back({"copy.2d.x32", kUnary, Copy<4>, {}});
    f.push_back({"copy.2d.x64", kUnary, Copy<8>, {}});
    f.push_back({"copy.2d.x8", kUnary, Copy<1>, {}});
    f.push_back({"ctlz.2d.i32", kUnary, Unary<UnaryOp::kCtlz>, {}});
    f.push_back({"div.2d.f32", kBinary, Binary<BinaryOp::kDivF>, {}});
    f.push_back({"divs.2d.i32", kBinary, Binary<BinaryOp::kDivSI>, {}});
    f.push_back({"divu.2d.i32", kBinary, Binary<BinaryOp::kDivUI>, {}});
    f.push_back({"exp.2d.f32", kUnary, Unary<UnaryOp::kExpF>, {}});
    f.push_back({"fill.2d.x32", "0irIIII_v", Fill, {}});
    f.push_back({"floor.2d.f32", kUnary, Unary<UnaryOp::kFloorF>, {}});
    f.push_back({"log.2d.f32", kUnary, Unary<UnaryOp::kLogF>, {}});
    f.push_back({"mmt4d", "0rIIrIIrIIIIIiiii_v", Mmt4dFn, {}});
    f.push_back({"mul.2d.f32", kBinary, Binary<BinaryOp::kMulF>, {}});
    f.push_back({"mul.2d.i32", kBinary, Binary<BinaryOp::kMulI>, {}});
    f.push_back({"neg.2d.f32", kUnary, Unary<UnaryOp::kNegF>, {}});
    f.push_back({"or.2d.i32", kBinary, Binary<BinaryOp::kOrI>, {}});
    f.push_back({"pack", "0rIIIrIIIIIIIIIIi_v", PackFn, {}});
    f.push_back({"rsqrt.2d.f32", kUnary, Unary<UnaryOp::kRsqrtF>, {}});
    f.push_back({"shl.2d.i32", kBinary, Binary<BinaryOp::kShlI>, {}});
    f.push_back({"shrs.2d.i32", kBinary, Binary<BinaryOp::kShrSI>, {}});
    f.push_back({"shru.2d.i32", kBinary, Binary<BinaryOp::kShrUI>, {}});
    f.push_back({"sub.2d.f32", kBinary, Binary<BinaryOp::kSubF>, {}});
    f.push_back({"sub.2d.i32", kBinary, Binary<BinaryOp::kSubI>, {}});
    f.push_back({"unpack", "0rIIIrIIIIIIIIIi_v", UnpackFn, {}});
    f.push_back({"xor.2d.i32", kBinary, Binary<BinaryOp::kXorI>, {}});
    return f;
  }
};

}  // namespace

StatusOr<base::Ref<vm::Module>> CreateVmvxModule() { return VmvxModule::Create(); }

}  // namespace iree_rt::modules::vmvx
