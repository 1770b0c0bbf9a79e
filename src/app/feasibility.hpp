#pragma once
/// What `run` and `point` refuse before anything is computed because it would be accepted and then fail or
/// run for days: a point that cannot fit in a rank's memory (the estimate of `run --plan`), and
/// a test set of the ridge classifier far beyond any statistical use. Each with its consent option.
#include <mpi.h>

#include <string>

namespace rmtsweep::app {

/// The memory one rank of this node may use: the node's MemTotal over the ranks on it, as rank 0 of `comm`
/// reads it (broadcast; 0 where it is unknown).
double memory_per_rank(MPI_Comm comm);

/// Test sequences (ntest) above which `run` and `point` want --force-ntest: at 1e8 the test accuracy's
/// standard error is below 0.5/sqrt(1e8) = 5e-5, far under its trial-to-trial scatter (about 1/sqrt(N)
/// for N training sequences), while each test sequence costs the pooling of T vectors of d entries.
inline constexpr long long max_unforced_ntest = 100000000;

/// Refuses (InvalidOption on --ntest, `given` as the value) an ntest above max_unforced_ntest without
/// --force-ntest; `seconds` is the estimated time of the costliest point, said in the message.
void require_ntest_consent(long long ntest, const std::string& given, bool forced, double seconds);

}  // namespace rmtsweep::app
