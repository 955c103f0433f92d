// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "modules/vmvx/kernels.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace iree_rt::modules::vmvx {

namespace {

float AsF32(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t Bits(float value) { return std::bit_cast<uint32_t>(value); }

// The division ops fail instead of trapping, as the interpreter's div.i32 does.
base::Status DivisionByZero(BinaryOp op) {
  return base::InvalidArgumentError("integer division by zero in vmvx.",
                                    op == BinaryOp::kDivSI ? "divs" : "divu", ".2d.i32");
}

template <BinaryOp op>
base::Status BinaryLoop(const StridedView& lhs, const StridedView& rhs, const StridedView& out) {
  for (uint64_t i = 0; i < out.size0; ++i) {
    for (uint64_t j = 0; j < out.size1; ++j) {
      const uint32_t a = lhs.Load<uint32_t>(i, j), b = rhs.Load<uint32_t>(i, j);
      uint32_t r = 0;
      if constexpr (op == BinaryOp::kAddF) r = Bits(AsF32(a) + AsF32(b));
      if constexpr (op == BinaryOp::kAddI) r = a + b;
      if constexpr (op == BinaryOp::kAndI) r = a & b;
      if constexpr (op == BinaryOp::kDivF) r = Bits(AsF32(a) / AsF32(b));
      if constexpr (op == BinaryOp::kDivSI) {
        if (b == 0) return DivisionByZero(op);
        // INT_MIN / -1 wraps to INT_MIN instead of trapping.
        r = static_cast<int32_t>(b) == -1 ? 0u - a
                                          : static_cast<uint32_t>(static_cast<int32_t>(a) /
                                                                  static_cast<int32_t>(b));
      }
      if constexpr (op == BinaryOp::kDivUI) {
        if (b == 0) return DivisionByZero(op);
        r = a / b;
      }
      if constexpr (op == BinaryOp::kMulF) r = Bits(AsF32(a) * AsF32(b));
      if constexpr (op == BinaryOp::kMulI) r = a * b;
      if constexpr (op == BinaryOp::kOrI) r = a | b;
      if constexpr (op == BinaryOp::kShlI) r = a << (b & 31);
      if constexpr (op == BinaryOp::kShrSI) {
        r = static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31));
      }
      if constexpr (op == BinaryOp::kShrUI) r = a >> (b & 31);
      if constexpr (op == BinaryOp::kSubF) r = Bits(AsF32(a) - AsF32(b));
      if constexpr (op == BinaryOp::kSubI) r = a - b;
      if constexpr (op == BinaryOp::kXorI) r = a ^ b;
      out.Store<uint32_t>(i, j, r);
    }
  }
  return base::Status();
}

template <UnaryOp op>
void UnaryLoop(const StridedView& in, const StridedView& out) {
  for (uint64_t i = 0; i < out.size0; ++i) {
    for (uint64_t j = 0; j < out.size1; ++j) {
      const uint32_t a = in.Load<uint32_t>(i, j);
      const float x = AsF32(a);
      uint32_t r = 0;
      if constexpr (op == UnaryOp::kAbsF) r = Bits(std::fabs(x));
      if constexpr (op == UnaryOp::kCeilF) r = Bits(std::ceil(x));
      if constexpr (op == UnaryOp::kCtlz) r = static_cast<uint32_t>(std::countl_zero(a));
      if constexpr (op == UnaryOp::kExpF) r = Bits(std::exp(x));
      if constexpr (op == UnaryOp::kFloorF) r = Bits(std::floor(x));
      if constexpr (op == UnaryOp::kLogF) r = Bits(std::log(x));
      if constexpr (op == UnaryOp::kNegF) r = Bits(-x);
      if constexpr (op == UnaryOp::kRsqrtF) r = Bits(1.0f / std::sqrt(x));
      out.Store<uint32_t>(i, j, r);
    }
  }
}

template <typename T>
void CopyLoop(const StridedView& in, const StridedView& out) {
  for (uint64_t i = 0; i < out.size0; ++i) {
    for (uint64_t j = 0; j < out.size1; ++j) out.Store<T>(i, j, in.Load<T>(i, j));
  }
}

// The matrix's tile sizes (rows, columns) for a tiled layout.
void MatrixTile(const TileShape& tiles, uint64_t* rows, uint64_t* cols) {
  *rows = tiles.transpose_inner ? tiles.tile1 : tiles.tile0;
  *cols = tiles.transpose_inner ? tiles.tile0 : tiles.tile1;
}

}  // namespace

base::Status Binary32(BinaryOp op, const StridedView& lhs, const StridedView& rhs,
                      const StridedView& out) {
  if (out.empty()) return base::Status();
  switch (op) {
#define RT_VMVX_CASE(name) \
  case BinaryOp::name: return BinaryLoop<BinaryOp::name>(lhs, rhs, out);
    RT_VMVX_CASE(kAddF) RT_VMVX_CASE(kAddI) RT_VMVX_CASE(kAndI) RT_VMVX_CASE(kDivF)
    RT_VMVX_CASE(kDivSI) RT_VMVX_CASE(kDivUI) RT_VMVX_CASE(kMulF) RT_VMVX_CASE(kMulI)
    RT_VMVX_CASE(kOrI) RT_VMVX_CASE(kShlI) RT_VMVX_CASE(kShrSI) RT_VMVX_CASE(kShrUI)
    RT_VMVX_CASE(kSubF) RT_VMVX_CASE(kSubI) RT_VMVX_CASE(kXorI)
#undef RT_VMVX_CASE
  }
  return base::InternalError("unknown vmvx binary op");
}

void Unary32(UnaryOp op, const StridedView& in, const StridedView& out) {
  if (out.empty()) return;
  switch (op) {
#define RT_VMVX_CASE(name) \
  case UnaryOp::name: return UnaryLoop<UnaryOp::name>(in, out);
    RT_VMVX_CASE(kAbsF) RT_VMVX_CASE(kCeilF) RT_VMVX_CASE(kCtlz) RT_VMVX_CASE(kExpF)
    RT_VMVX_CASE(kFloorF) RT_VMVX_CASE(kLogF) RT_VMVX_CASE(kNegF) RT_VMVX_CASE(kRsqrtF)
#undef RT_VMVX_CASE
  }
}

void Copy2D(const StridedView& in, const StridedView& out) {
  if (out.empty()) return;
  switch (out.element_size) {
    case 1: return CopyLoop<uint8_t>(in, out);
    case 2: return CopyLoop<uint16_t>(in, out);
    case 4: return CopyLoop<uint32_t>(in, out);
    default: return CopyLoop<uint64_t>(in, out);
  }
}

void Fill2D32(uint32_t value, const StridedView& out) {
  for (uint64_t i = 0; i < out.size0 && !out.empty(); ++i) {
    for (uint64_t j = 0; j < out.size1; ++j) out.Store<uint32_t>(i, j, value);
  }
}

void Mmt4d(Mmt4dType type, const Mmt4dShape& s, const StridedView& lhs, const StridedView& rhs,
           const StridedView& out) {
  if (out.empty()) return;
  // The reduction runs k-major then k0, one product added at a time: the order (and so the
  // rounding) of IREE's portable tile function.
  for (uint64_t m = 0; m < s.m; ++m) {
    for (uint64_t n = 0; n < s.n; ++n) {
      for (uint64_t i0 = 0; i0 < s.m0; ++i0) {
        for (uint64_t j0 = 0; j0 < s.n0; ++j0) {
          const uint64_t o = i0 * s.n0 + j0;
          if (type == Mmt4dType::kF32F32F32) {
            float acc = s.accumulate ? out.Load<float>(m, n, o) : 0.0f;
            for (uint64_t k = 0; k < s.k; ++k) {
              for (uint64_t k0 = 0; k0 < s.k0; ++k0) {
                const float a = lhs.Load<float>(m, k, i0 * s.k0 + k0);
                const float b = rhs.Load<float>(n, k, j0 * s.k0 + k0);
                const float product = a * b;
                acc = acc + product;
              }
            }
            out.Store<float>(m, n, o, acc);
          } else {
            uint32_t acc = s.accumulate ? out.Load<uint32_t>(m, n, o) : 0u;
            for (uint64_t k = 0; k < s.k; ++k) {
              for (uint64_t k0 = 0; k0 < s.k0; ++k0) {
                const int32_t a = lhs.Load<int8_t>(m, k, i0 * s.k0 + k0);
                const int32_t b = rhs.Load<int8_t>(n, k, j0 * s.k0 + k0);
                acc += static_cast<uint32_t>(a * b);  // |a*b| <= 2^14: no overflow
              }
            }
            out.Store<uint32_t>(m, n, o, acc);
          }
        }
      }
    }
  }
}

void Pack(const StridedView& in, const StridedView& out, const TileShape& tiles,
          uint64_t padding) {
  if (out.empty()) return;
  uint64_t tile_rows = 0, tile_cols = 0;
  MatrixTile(tiles, &tile_rows, &tile_cols);
  const uint32_t size = out.element_size;
  for (uint64_t o0 = 0; o0 < out.size0; ++o0) {
    for (uint64_t o1 = 0; o1 < out.size1; ++o1) {
      const uint64_t a = tiles.transpose_outer ? o1 : o0, b = tiles.transpose_outer ? o0 : o1;
      for (uint64_t t0 = 0; t0 < tiles.tile0; ++t0) {
        for (uint64_t t1 = 0; t1 < tiles.tile1; ++t1) {
          const uint64_t r = tiles.transpose_inner ? t1 : t0, c = tiles.transpose_inner ? t0 : t1;
          // 128-bit: a tile index times a tile size may pass 2^64 with zero strides.
          const unsigned __int128 row = static_cast<unsigned __int128>(a) * tile_rows + r;
          const unsigned __int128 col = static_cast<unsigned __int128>(b) * tile_cols + c;
          uint8_t* target = out.At(o0, o1, t0 * tiles.tile1 + t1);
          if (row < in.size0 && col < in.size1) {
            std::memcpy(target, in.At(static_cast<uint64_t>(row), static_cast<uint64_t>(col)), size);
          } else {
            std::memcpy(target, &padding, size);  // little-endian: the low bytes
          }
        }
      }
    }
  }
}

base::Status Unpack(const StridedView& in, const StridedView& out, const TileShape& tiles) {
  if (out.empty()) return base::Status();
  uint64_t tile_rows = 0, tile_cols = 0;
  MatrixTile(tiles, &tile_rows, &tile_cols);
  const uint64_t outer_rows = tiles.transpose_outer ? in.size1 : in.size0;
  const uint64_t outer_cols = tiles.transpose_outer ? in.size0 : in.size1;
  if (in.empty() || tile_rows == 0 || tile_cols == 0 ||
      (out.size0 - 1) / tile_rows >= outer_rows || (out.size1 - 1) / tile_cols >= outer_cols) {
    return base::FailedPreconditionError(
        "vmvx.unpack: the tiled input (", in.size0, "x", in.size1, " tiles of ", tiles.tile0, "x",
        tiles.tile1, ") does not cover the ", out.size0, "x", out.size1, " output");
  }
  const uint32_t size = out.element_size;
  for (uint64_t row = 0; row < out.size0; ++row) {
    for (uint64_t col = 0; col < out.size1; ++col) {
      const uint64_t a = row / tile_rows, r = row % tile_rows;
      const uint64_t b = col / tile_cols, c = col % tile_cols;
      const uint64_t o0 = tiles.transpose_outer ? b : a, o1 = tiles.transpose_outer ? a : b;
      const uint64_t t0 = tiles.transpose_inner ? c : r, t1 = tiles.transpose_inner ? r : c;
      std::memcpy(out.At(row, col), in.At(o0, o1, t0 * tiles.tile1 + t1), size);
    }
  }
  return base::Status();
}

}  // namespace iree_rt::modules::vmvx
