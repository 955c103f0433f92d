// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The arithmetic of the `vmvx` module's functions, on windows StridedView::Map has already
// bounds-checked. Each function loops over its output window only, so its work is bounded by
// the output buffer's size (see MapView). Integer arithmetic wraps; float arithmetic is plain
// IEEE single precision without contraction (the library is built with -ffp-contract=off), the
// way IREE's portable C kernels compute.
#ifndef IREE_RT_MODULES_VMVX_KERNELS_H_
#define IREE_RT_MODULES_VMVX_KERNELS_H_

#include <cstdint>

#include "base/status.h"
#include "modules/vmvx/strided_view.h"

namespace iree_rt::modules::vmvx {

enum class BinaryOp { kAddF, kAddI, kAndI, kDivF, kDivSI, kDivUI, kMulF, kMulI, kOrI, kShlI,
                      kShrSI, kShrUI, kSubF, kSubI, kXorI };
enum class UnaryOp { kAbsF, kCeilF, kCtlz, kExpF, kFloorF, kLogF, kNegF, kRsqrtF };

// 32-bit elementwise ops over size0 x size1 (all three views share the sizes). Shift amounts are
// taken mod 32, as the VM's own shifts. INVALID_ARGUMENT on an integer division by zero (output
// elements before it are already written).
base::Status Binary32(BinaryOp op, const StridedView& lhs, const StridedView& rhs,
                      const StridedView& out);
void Unary32(UnaryOp op, const StridedView& in, const StridedView& out);
// Copies elements of in.element_size bytes (1, 2, 4 or 8).
void Copy2D(const StridedView& in, const StridedView& out);
void Fill2D32(uint32_t value, const StridedView& out);

// mmt4d: out[m][n][m0][n0] (+)= sum over k, k0 of lhs[m][k][m0][k0] * rhs[n][k][n0][k0]. Views
// are (M x K tiles of M0*K0), (N x K tiles of N0*K0), (M x N tiles of M0*N0), inner = tile.
enum class Mmt4dType { kF32F32F32, kS8S8S32 };
struct Mmt4dShape {
  uint64_t m, n, k, m0, n0, k0;
  bool accumulate;
};
void Mmt4d(Mmt4dType type, const Mmt4dShape& shape, const StridedView& lhs,
           const StridedView& rhs, const StridedView& out);

// pack / unpack between a 2-D matrix and a 4-D tiled layout [outer0][outer1][tile0][tile1]
// (views of the tiled operand: outer0 x outer1 positions, inner = tile0*tile1). With
// |transpose_outer| the outer dimensions of the tiled layout are swapped relative to the
// matrix, with |transpose_inner| the tile dimensions. pack pads rows/columns past the matrix
// with the low element_size bytes of |padding|.
struct TileShape {
  uint64_t tile0, tile1;  // the tiled layout's inner sizes, as stored
  bool transpose_outer, transpose_inner;
};
void Pack(const StridedView& in, const StridedView& out, const TileShape& tiles, uint64_t padding);
// FAILED_PRECONDITION (before writing) when the tiled input does not cover the output matrix.
base::Status Unpack(const StridedView& in, const StridedView& out, const TileShape& tiles);

}  // namespace iree_rt::modules::vmvx

#endif  // IREE_RT_MODULES_VMVX_KERNELS_H_
