// Multi-vector products with the table without dgemm's packing (table_kernels.hpp). Every kernel
// here is compiled for AVX2 + FMA through its target attribute (not a flag for the whole file, so no
// AVX2 copy of an inline function shared with other files can be picked by the linker); callers
// check table_kernels_available() first.
#include "table_kernels.hpp"

#include <omp.h>

#include <algorithm>
#include <type_traits>

namespace rmtsweep::simulate {
namespace {

using v4 = double __attribute__((vector_size(32)));

__attribute__((target("avx2,fma"))) inline v4 load(const double* p) noexcept {
  v4 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
__attribute__((target("avx2,fma"))) inline void store(double* p, v4 v) noexcept {
  __builtin_memcpy(p, &v, sizeof v);
}
__attribute__((target("avx2,fma"))) inline v4 splat(double x) noexcept { return v4{x, x, x, x}; }

/// u[v, lane0 + 0..B) (+)= sum_{i in [r0, r1)} z[i, v] x[i, lane0 + 0..B) for v in [v0, v1): C columns
/// at a time, B lanes in B / 4 registers each.
template <int B, int C>
__attribute__((always_inline, target("avx2,fma"))) inline void dot_columns(const double* z, std::int64_t ld,
                                                                           std::int64_t r0, std::int64_t r1,
                                                                           std::int64_t v0, std::int64_t v1,
                                                                           const double* x, int bp, int lane0,
                                                                           double* u, bool add) {
  constexpr int R = B / 4;
  std::int64_t v = v0;
  for (; v + C <= v1; v += C) {
    v4 acc[C][R] = {};
    const double* col[C];
    for (int c = 0; c < C; ++c) col[c] = z + (v + c) * ld;
    for (std::int64_t i = r0; i < r1; ++i) {
      v4 xi[R];
      for (int r = 0; r < R; ++r) xi[r] = load(x + i * bp + lane0 + 4 * r);
      for (int c = 0; c < C; ++c) {
        const v4 zc = splat(col[c][i]);
        for (int r = 0; r < R; ++r) acc[c][r] += zc * xi[r];
      }
    }
    for (int c = 0; c < C; ++c) {
      double* out = u + (v + c) * bp + lane0;
      for (int r = 0; r < R; ++r) store(out + 4 * r, add ? load(out + 4 * r) + acc[c][r] : acc[c][r]);
    }
  }
  for (; v < v1; ++v) dot_columns<B, 1>(z, ld, r0, r1, v, v + 1, x, bp, lane0, u, add);
}

/// y[i, lane0 + 0..B) += sum_v z[i, v] w[v, lane0 + 0..B) for i in [r0, r1), v in [v0, v1).
template <int B, int C>
__attribute__((always_inline, target("avx2,fma"))) inline void axpy_columns(const double* z, std::int64_t ld,
                                                                            std::int64_t r0, std::int64_t r1,
                                                                            std::int64_t v0, std::int64_t v1,
                                                                            const double* w, int bp,
                                                                            int lane0, double* y) {
  constexpr int R = B / 4;
  std::int64_t v = v0;
  for (; v + C <= v1; v += C) {
    v4 wc[C][R];
    const double* col[C];
    for (int c = 0; c < C; ++c) {
      col[c] = z + (v + c) * ld;
      for (int r = 0; r < R; ++r) wc[c][r] = load(w + (v + c) * bp + lane0 + 4 * r);
    }
    for (std::int64_t i = r0; i < r1; ++i) {
      v4 yi[R];
      for (int r = 0; r < R; ++r) yi[r] = load(y + i * bp + lane0 + 4 * r);
      for (int c = 0; c < C; ++c) {
        const v4 zc = splat(col[c][i]);
        for (int r = 0; r < R; ++r) yi[r] += zc * wc[c][r];
      }
      for (int r = 0; r < R; ++r) store(y + i * bp + lane0 + 4 * r, yi[r]);
    }
  }
  for (; v < v1; ++v) axpy_columns<B, 1>(z, ld, r0, r1, v, v + 1, w, bp, lane0, y);
}

/// Rows of x per chunk: a chunk of x (rows x 16 lanes) stays in a core's L2 beside the streamed table.
constexpr std::int64_t dot_chunk_bytes = 128 * 1024;
/// Columns per unit of work of the dot form. Units are handed out dynamically, so a thread whose
/// core is busy with something else (a laptop, a shared node) holds the others up by one unit, not
/// by its whole share; each entry is still summed by one thread in one fixed order, so the bits do
/// not depend on the threads (nor on the unit sizes).
constexpr std::int64_t dot_unit_columns = 256;

/// Rows per unit of the axpy form: about two units per thread, 512-2048 rows (4-16 KiB runs of
/// each column). Long runs are what the hardware prefetcher needs: measured at d = 4000, V = 8000,
/// 8 lanes (the Krylov block), the pass took 25 ms with 512-row units and 4 columns per sweep of y
/// against 15-18 ms with 1024-2048 rows and 6 columns, on 2 threads; on 1 thread 52 against 29-33 ms.
std::int64_t axpy_unit_rows(std::int64_t rows, int threads) {
  const std::int64_t share = (rows + 2 * threads - 1) / (2 * threads);
  return std::clamp<std::int64_t>((share + 63) / 64 * 64, 512, 2048);
}

template <int B>
__attribute__((target("avx2,fma"))) void transpose_times_group(const double* z, std::int64_t rows,
                                                               std::int64_t m, std::int64_t ld,
                                                               const double* x, int bp, int lane0, double* u,
                                                               int threads) {
  // Columns at a time: C x B / 4 accumulators (of the 16 registers) beside B / 4 of x. Measured at
  // B = 8: 5 columns (10 accumulators) took 14.0 ms where 4 took 15.4-16.8 (d = 4000, V = 8000).
  constexpr int C = B <= 4 ? 6 : (B == 8 ? 5 : (B == 12 ? 3 : 2));
  const std::int64_t chunk = std::max<std::int64_t>(64, dot_chunk_bytes / (8 * B));
  const std::int64_t units = (m + dot_unit_columns - 1) / dot_unit_columns;
#pragma omp parallel num_threads(threads)
  for (std::int64_t r0 = 0; r0 < std::max<std::int64_t>(rows, 1); r0 += chunk) {
    // The implied barrier after each chunk keeps every u[v] summed chunk by chunk, in order.
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t unit = 0; unit < units; ++unit) {
      const std::int64_t v0 = unit * dot_unit_columns, v1 = std::min(m, v0 + dot_unit_columns);
      dot_columns<B, C>(z, ld, r0, std::min(rows, r0 + chunk), v0, v1, x, bp, lane0, u, r0 > 0);
    }
  }
}

template <int B>
__attribute__((target("avx2,fma"))) void times_group(const double* z, std::int64_t rows, std::int64_t m,
                                                     std::int64_t ld, const double* w, int bp, int lane0,
                                                     double* y, int threads) {
  constexpr int H = B % 8 == 0 ? 8 : 4;  // lanes per sweep over a unit: 2 registers (or 1) of y
  // Columns per sweep of y: C x H / 4 registers of w beside H / 4 of y (6 columns: 12 + 2 of 16).
  // Each sweep loads and stores y: 6 columns per sweep cut that traffic to 2/3 of 4's (8 columns,
  // for 4-lane groups, to 1/2).
  constexpr int C = H == 8 ? 6 : 8;
  const std::int64_t unit_rows = axpy_unit_rows(rows, threads);
  const std::int64_t units = (rows + unit_rows - 1) / unit_rows;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (std::int64_t unit = 0; unit < units; ++unit) {
    const std::int64_t a = unit * unit_rows, b = std::min(rows, a + unit_rows);
    for (std::int64_t i = a; i < b; ++i) std::fill(y + i * bp + lane0, y + i * bp + lane0 + B, 0.0);
    for (std::int64_t v = 0; v < m; v += C) {
      for (int h = 0; h < B; h += H)
        axpy_columns<H, C>(z, ld, a, b, v, std::min(m, v + C), w, bp, lane0 + h, y);
    }
  }
}

}  // namespace

bool table_kernels_available() noexcept {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

namespace {

/// Calls group(std::integral_constant<int, B>{}, lane0) for each group of at most 16 of the bp lanes
/// (B = 4, 8, 12 or 16; bp a multiple of 4).
template <class Group>
void for_lane_groups(int bp, Group&& group) {
  for (int lane0 = 0; lane0 < bp; lane0 += 16) {
    switch (std::min(16, bp - lane0)) {
      case 4:
        group(std::integral_constant<int, 4>{}, lane0);
        break;
      case 8:
        group(std::integral_constant<int, 8>{}, lane0);
        break;
      case 12:
        group(std::integral_constant<int, 12>{}, lane0);
        break;
      default:
        group(std::integral_constant<int, 16>{}, lane0);
        break;
    }
  }
}

}  // namespace

void stream_transpose_times(const double* z, std::int64_t rows, std::int64_t m, std::int64_t ld,
                            const double* x, int bp, double* u, int threads) {
  for_lane_groups(bp, [&](auto lanes, int lane0) {
    transpose_times_group<decltype(lanes)::value>(z, rows, m, ld, x, bp, lane0, u, threads);
  });
}

void stream_times(const double* z, std::int64_t rows, std::int64_t m, std::int64_t ld, const double* w,
                  int bp, double* y, int threads) {
  for_lane_groups(bp, [&](auto lanes, int lane0) {
    times_group<decltype(lanes)::value>(z, rows, m, ld, w, bp, lane0, y, threads);
  });
}

}  // namespace rmtsweep::simulate
