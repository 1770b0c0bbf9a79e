#pragma once
// The ELPA path of symmetric_eigen (rmtsweep/parallel/eigen.hpp). Private to src/parallel.
#include "rmtsweep/parallel/eigen.hpp"

namespace rmtsweep::parallel::detail {

/// symmetric_eigen of A (its lower triangle; destroyed) through ELPA's two-stage solver, with
/// the shifted system solved by pdposv first when `system` is not null. A must satisfy
/// elpa_applies and 0 <= k <= n (checked by the caller). Collective over A's grid.
EigenResult elpa_eigen(DistributedMatrix& a, int k, const ShiftedSystem* system);

}  // namespace rmtsweep::parallel::detail
