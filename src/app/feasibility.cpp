// Refusals of what would be accepted and then fail or run for days (src/app/feasibility.hpp).
#include "feasibility.hpp"

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/common/meminfo.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/parallel/collectives.hpp"

namespace rmtsweep::app {

double memory_per_rank(MPI_Comm comm) {
  const int on_node = parallel::ranks_on_this_node(comm);
  return parallel::decided_on_root(comm,
                                   [&] { return meminfo_bytes("MemTotal") / static_cast<double>(on_node); });
}

void require_ntest_consent(long long ntest, const std::string& given, bool forced, double seconds) {
  if (ntest <= max_unforced_ntest || forced) return;
  throw InvalidOption(
      "ntest", given,
      "allowed: 0 <= ntest <= " + std::to_string(max_unforced_ntest) +
          ", or up to 2^40 with --force-ntest: at 1e8 test sequences the test accuracy's standard error is "
          "below 5e-5 already, and these take about " +
          model::format_double(static_cast<double>(static_cast<long long>(seconds))) +
          " s for the costliest point (see --plan)");
}

}  // namespace rmtsweep::app
