// The options of a point and of a sweep, each once (include/rmtsweep/config/option_table.hpp).
#include "rmtsweep/config/option_table.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "rmtsweep/config/config.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/parse_number.hpp"
#include "rmtsweep/simulate/options.hpp"

namespace rmtsweep::config {
namespace {

constexpr unsigned everywhere = in_sweep | in_point | in_theory, simulated = in_sweep | in_point;

std::vector<OptionSpec> build_table() {
  // The defaults, each from where its value is declared.
  const model::PointParams point;
  const simulate::SimulationOptions measured;
  const SweepConfig sweep;
  const std::string k = std::to_string(measured.k);
  return {
      // what defines a point (model.md section 1); in a sweep delta, gamma, snr and weighting are axes
      {"d", std::to_string(point.d),
       "embedding dimension d: an integer >= 1; in a sweep an axis of distinct integers: a,b,c | "
       "start:stop:count | log:start:stop:count (values rounded to integers)",
       everywhere},
      {"T", std::to_string(point.T),
       "sequence length T: an integer 1 <= T <= " + std::to_string(model::max_sequence_length), everywhere},
      {"delta", model::format_double(point.delta),
       "delta = d/V > 0 (vocabulary V = 2 round(d/(2 delta))); in a sweep an axis: a,b,c | start:stop:count "
       "| "
       "log:start:stop:count",
       everywhere},
      {"gamma", model::format_double(point.gamma),
       "gamma = d/N > 0 (sequences N = round(d/gamma)); in a sweep an axis, same syntax", everywhere},
      {"snr", model::format_double(point.snr),
       "signal strength ||mu||^2, 0 <= snr <= 1e12; in a sweep an axis, same syntax", everywhere},
      {"weighting", model::to_string(point.weighting),
       "pooling: mean | last | optimal | harmonic | causal:tau | custom:w1,...,wT; in a sweep a list, where "
       "plain numbers continue a custom: item",
       everywhere},
      {"correlation", model::to_string(point.correlation),
       "positional sign correlation R: iid | prefix:L (1 <= L <= T) | markov:phi (-1 < phi < 1)", everywhere},
      {"table", model::to_string(point.table),
       "embedding table: iid | centered (noise mean and class-mean difference removed)", everywhere},
      {"seed", std::to_string(point.seed),
       "random seed: an integer 0 <= seed < 2^64; every draw derives from (seed, trial, ...)", everywhere},
      {"trial", std::to_string(point.trial), "which independent draw: an integer >= 0", in_point | in_theory},
      {"trials", std::to_string(sweep.trials),
       "independent draws per (d, delta, gamma, snr, weighting): an integer 1 <= trials <= " +
           std::to_string(max_trials),
       in_sweep},
      // what is measured
      {"k", k,
       "top eigenvalues/overlaps measured per point: an integer min(4, d) <= k <= d (in a sweep d is the "
       "smallest d); the default is taken as min(" +
           k + ", d)",
       simulated},
      {"ridge", model::format_double(measured.ridge),
       "ridge lambda in units of kappa (docs/model.md section 6); a sweep needs ridge > 0", simulated},
      {"ntest", std::to_string(measured.ntest),
       "ridge test sequences: an integer 0 <= ntest <= 1e8, up to 2^40 with --force-ntest; 0 means N",
       simulated},
      {"store_spectra", spectra_setting(sweep.store_spectra),
       "store all d eigenvalues per point: true, false or auto = for the sizes d <= " +
           std::to_string(max_auto_spectrum_d),
       in_sweep},
      // how it is computed (not part of the resolved config)
      {"ranks_per_point", std::to_string(sweep.ranks_per_point),
       "ranks computing one point together: an integer >= 1 that divides the ranks", in_sweep, true},
      {"eigensolver", eigensolver_setting(sweep.eigensolver),
       "how the eigenpairs are computed: auto (matrix-free Krylov where no spectrum is stored and it is "
       "faster, else dense), dense (S formed and reduced: LAPACK, or ELPA where it applies on groups of "
       "several ranks), krylov (S never formed: the top k only) or scalapack (dense, always pdsytrd on "
       "groups: less memory)",
       simulated, true},
      {"lines", lines_setting(sweep.lines),
       "compute the snr values of a line (all but snr fixed) from one factorization: auto (every weighting "
       "but "
       "causal:tau, where the snr axis has 2 or more values) or off (each point alone, as before lines)",
       in_sweep, true},
      {"fail_points", "", "TEST ONLY fault injection: point indices whose engine call throws", in_sweep, true,
       true},
      {"unit_pause", "", "TEST ONLY: seconds each group waits after each unit it computed (0 to 10)",
       in_sweep, true, true},
  };
}

}  // namespace

std::span<const OptionSpec> option_table() {
  static const std::vector<OptionSpec> table = build_table();
  return table;
}

std::string command_line_name(std::string_view name) {
  std::string spelled(name);
  std::replace(spelled.begin(), spelled.end(), '_', '-');
  return spelled;
}

const OptionSpec& option_spec(std::string_view name) {
  for (const OptionSpec& spec : option_table()) {
    if (spec.name == name) return spec;
  }
  throw std::logic_error("no option " + std::string(name));
}

}  // namespace rmtsweep::config
