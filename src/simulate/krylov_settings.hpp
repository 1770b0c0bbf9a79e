#pragma once
// The Krylov engine's tolerances and sizes, shared by a point's solver (krylov_point.cpp) and a line's
// (krylov_line.cpp). Private to src/simulate.

namespace rmtsweep::simulate {

/// The eigen solver's residual r = ||S x - theta x|| <= eigen_tolerance kappa: eigenvalues then carry
/// errors of about r^2 / gap (below 1e-15 relative for gaps of 1e-3 lambda), eigenvectors about
/// r / gap, and an overlap about 2 |x^T u| r / gap: for gaps of 1e-3 lambda at most 5e-7 at
/// delta 0.5, gamma 0.25 (the top eigenvalues there lie above 3.7 kappa), 2e-6 where they were near
/// kappa. Tighter costs blocks for digits no stored number shows (the agreement with the dense path, and
/// what 1e-10 cost: docs/performance.md, "Top eigenpairs without forming S").
inline constexpr double eigen_tolerance = 1e-9;
/// The ridge stops at ||r|| <= 1e-9 ||b||: beta's relative error is at most cond(S + lambda I) times
/// that, about 3e-8 for cond near 30 (lambda = 0.1 kappa; 1e-7 for a strong outlier, cond near 100),
/// so a test sequence is scored differently only if its margin is within that of the boundary. Much
/// tighter, the ridge alone would set the iteration's length (docs/performance.md).
inline constexpr double ridge_tolerance = 1e-9;
/// A returned pair is accepted when its measured ||S x - lambda x|| / |lambda| is at most 10 x
/// eigen_tolerance (the solver aimed at eigen_tolerance kappa, and the top eigenvalues lie above
/// kappa), beta when ||(S + lambda I) beta - b|| / ||b|| is at most 10 x ridge_tolerance: the solver
/// tests the recurrence's residuals, which rounding can flatter.
inline constexpr double accepted_residual = 10 * eigen_tolerance;
inline constexpr double accepted_ridge_residual = 10 * ridge_tolerance;
/// Blocks of 8 (the ridge's right side and 7 more): larger blocks converge in fewer block products but each
/// costs more, and 8 spends the least (the products per block size and the cost of a pass:
/// docs/performance.md, "Top eigenpairs without forming S").
inline constexpr int default_block = 8;

/// Products go through the pooled vectors C = E A (4 d N flops) instead of the table (4 d V) where
/// N <= 0.3 V: C (8 d N bytes) then adds at most 0.3 of the table's memory (target: 1.3 x the table).
inline constexpr double compress_fraction = 0.3;

/// The most products of S (each vector of a block counted) before giving up, where options.krylov_budget is
/// 0.
inline long long default_budget(int k) { return 2000 + 100LL * k; }

}  // namespace rmtsweep::simulate
