#pragma once
// Products of the d x V table (or the pooled vectors) with blocks of b vectors, without dgemm's
// packing (private to src/simulate). OpenBLAS 0.3.21's dgemm packs the whole d x V operand for
// every call; with b = 4-16 columns that copy, not the arithmetic, sets its time (measured at
// d = 4000, V = 8000 on 2 cores: b = 8 took 5.6 single-vector dgemv products). These kernels
// stream the table once per block and keep the block's lanes in registers (AVX2 + FMA).
//
// Layout: the table z is rows x m, column-major with leading dimension ld (a rank's rows of the
// table); the blocks are row-major with bp lanes (entry (i, j) at x[i bp + j]); bp is a multiple
// of 4 (pad with zero lanes).
#include <cstdint>

namespace rmtsweep::simulate {

/// Whether this CPU runs the kernels (AVX2 and FMA); otherwise the callers use dgemm.
bool table_kernels_available() noexcept;

/// u = z^T x: u is m x bp (entry (v, j) at u[v bp + j]), x is rows x bp. Each u[v, j] is summed
/// in one fixed order, whatever `threads` is.
void stream_transpose_times(const double* z, std::int64_t rows, std::int64_t m, std::int64_t ld,
                            const double* x, int bp, double* u, int threads);

/// y = z w: y is rows x bp, w is m x bp. Each y[i, j] is summed in one fixed order.
void stream_times(const double* z, std::int64_t rows, std::int64_t m, std::int64_t ld, const double* w,
                  int bp, double* y, int threads);

}  // namespace rmtsweep::simulate
