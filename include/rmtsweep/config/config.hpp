#pragma once
/// The typed, validated configuration of a sweep. Built once from the text values
/// of the keys (INI file and command line, see src/app/sweep_options.hpp); the rest of the
/// program never sees strings.
///
/// Axis syntax (keys d, delta, gamma, snr):
///   a,b,c                 an explicit list
///   start:stop:count      count values evenly spaced from start to stop (both included), each the
///                         decimal the range's digits imply (0.2:1.6:8 holds 0.6, not 0.6000000000000001:
///                         start + i step computed in decimal, converted once); a step that is no
///                         finite decimal (0:1:4) is computed in binary
///   log:start:stop:count  count values evenly spaced in log from start to stop (start, stop > 0):
///                         10^(log10 start + i (log10 stop - log10 start) / (count - 1)), so
///                         both ends are exactly as given and exact decades come out exact
/// The weighting axis is a comma-separated list of weightings (model.md section 3). Because
/// `custom:w1,...,wT` itself contains commas, the rule is: a token that is a plain number
/// continues the `custom:` item before it. So `mean,custom:1,0,0,optimal` is the three
/// weightings mean, custom:1,0,0 and optimal; a number after any other item is rejected.
/// `causal:tau` and `markov:phi` contain colons but are single tokens.
/// The d axis takes the same syntax; its values are rounded to the nearest integer (a list must
/// hold integers) and must be distinct after rounding.
/// Values of an axis must be distinct.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rmtsweep/config/option_values.hpp"
#include "rmtsweep/model/correlation.hpp"
#include "rmtsweep/model/params.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/eigen_kinds.hpp"
#include "rmtsweep/simulate/options.hpp"

namespace rmtsweep::config {

/// Every key of a sweep config (the options of option_table() used in_sweep), in the order the
/// resolved config text lists them. The execution settings among them (`ranks_per_point`,
/// `eigensolver`, `fail_points`) are not part of the resolved config text that --resume compares.
const std::vector<std::string>& config_keys();

/// The keys a message lists as allowed: config_keys() but the test-only ones (fault injection).
std::vector<std::string> shown_config_keys();

/// store_spectra: every size, none, or auto = the sizes d <= max_auto_spectrum_d.
enum class SpectraSetting { automatic, always, never };
inline constexpr int max_auto_spectrum_d = 4096;
/// The setting's text as a config gives it: auto, true (every size) or false (none).
const char* spectra_setting(SpectraSetting setting) noexcept;

/// A sweep's config. Its defaults are those of one point (model::PointParams: each axis holds the default
/// point's value) and of its measurement (simulate::SimulationOptions: k, ridge, ntest); the settings that
/// only a sweep has (trials, store_spectra, ...) have theirs here. option_table() gives them as text.
struct SweepConfig {
  std::vector<int> d{model::PointParams{}.d};  ///< the d axis, in config order
  int T = model::PointParams{}.T;
  model::Correlation correlation = model::PointParams{}.correlation;
  model::Table table = model::PointParams{}.table;
  std::uint64_t seed = model::PointParams{}.seed;
  int trials = 1;
  std::vector<double> delta{model::PointParams{}.delta};
  std::vector<double> gamma{model::PointParams{}.gamma};
  std::vector<double> snr{model::PointParams{}.snr};
  std::vector<model::Weighting> weighting{model::PointParams{}.weighting};
  /// top eigenvalues/overlaps stored per point; ridge lambda in units of kappa (model.md section 6); test
  /// sequences of the ridge classifier, 0 meaning N
  int k = simulate::SimulationOptions{}.k;
  double ridge = simulate::SimulationOptions{}.ridge;
  long long ntest = simulate::SimulationOptions{}.ntest;
  SpectraSetting store_spectra = SpectraSetting::automatic;  ///< which sizes store all d eigenvalues
  int ranks_per_point = 1;                                   ///< ranks of one group computing one point
  /// automatic ("auto"): groups of several ranks reduce S with ELPA where parallel::elpa_applies
  /// (faster; a second d x d matrix per group); scalapack: always pdsytrd (less memory).
  EigenSetting eigensolver = EigenSetting::automatic;
  /// auto: the snr values of each line (all but snr fixed) from one factorization (simulate_line) where
  /// lines_apply; off: every point alone.
  LinesSetting lines = LinesSetting::automatic;
  /// FAULT INJECTION, for tests only: flattened indices of points whose engine call is made
  /// to throw on the last rank of the group, so that the failure paths of a sweep can be
  /// exercised on a real run (1-rank groups record it; larger groups end the job).
  std::vector<std::int64_t> fail_points;
  /// FOR TESTS only: seconds each group waits after each unit it computed (no CPU), so that a sweep of small
  /// points is still running when a test signals or kills it. Not part of the resolved config.
  double unit_pause = 0.0;

  /// Number of points: |d| |delta| |gamma| |snr| |weighting| trials.
  std::int64_t point_count() const;
  /// Points per size (the flattened order holds them contiguously): point_count() / |d|.
  std::int64_t points_per_d() const;
  /// Whether the points of size `d` store all d eigenvalues (store_spectra).
  bool spectra_stored(int d) const noexcept;
  /// Whether any size stores its spectra.
  bool any_spectra() const noexcept;
  /// The smallest size of the d axis (k <= it).
  int smallest_d() const noexcept;
  /// Whether the points of `weighting` are computed as lines: lines auto, an snr axis of 2 or more values
  /// and weights that do not depend on the data.
  bool lines_apply(const model::Weighting& weighting) const noexcept;
};

/// What simulate_point is asked to measure for the points of size `d` (k, ridge, ntest, the
/// spectrum where spectra_stored(d), the engine and the dense reducer of the eigensolver setting);
/// no table cache.
simulate::SimulationOptions simulation_options(const SweepConfig& config, int d);

/// Parses the d axis (syntax above); InvalidOption("d", ...) for non-integers, d < 1, repeats.
std::vector<int> parse_d_axis(const std::string& text);

/// Builds and validates a config from key -> text; missing keys take their defaults.
/// Unknown keys, bad values and points that model::validate rejects (e.g. prefix:L with
/// L > T, custom weights of the wrong length, V < 2) throw InvalidOption naming key, value
/// and what is allowed.
SweepConfig parse_sweep_config(const std::map<std::string, std::string>& values);

/// A new sweep records at least the top min(4, d) eigenvalues (model.md 1.2); parse_sweep_config
/// reads k >= 1, so that a file written before this rule still assembles and resumes. Throws
/// InvalidOption("k", ...) otherwise.
void require_top_four(const SweepConfig& config);
/// The same for k eigenvalues of a d-dimensional point (`rmtsweep point`).
void require_top_four(int k, int d);

/// The most points a sweep may have: the point order is broadcast with an int count.
inline constexpr std::int64_t max_sweep_points = 2147483647;

/// The longest resolved config text parse_sweep_config accepts: it is stored as one HDF5
/// attribute, whose message in the default file format holds at most 64 KiB.
inline constexpr std::size_t max_resolved_config_bytes = 64000;

/// The canonical text of the scientific part of a config: one `key = value` line per key of
/// config_keys() except ranks_per_point and fail_points, axes written as explicit lists of
/// shortest round-trip numbers; store_spectra as true (every size stores), false (none) or auto
/// (some), so that a one-size config reads as it did before d was an axis. It is itself a valid config file,
/// and two configs describe the same points exactly when their texts are equal (what --resume compares).
std::string resolved_config_text(const SweepConfig& config);

/// The config as one JSON object, typed (root attribute `config_json` of a sweep file): the keys of
/// resolved_config_text with the same values (the axes as lists of numbers, weighting a list of texts,
/// store_spectra true, false or "auto"), then the settings of how it was computed that a file's runs record,
/// ranks_per_point and eigensolver (lines is recorded nowhere: `merge` and `recover` could not restore it;
/// fail_points, a test's, is the attribute fault_injection). Numbers round-trip.
std::string resolved_config_json(const SweepConfig& config);

/// Lines of `a` and `b` that differ, as "- line" (only in a) and "+ line" (only in b); axis lines
/// that same_sweep takes as equal are not listed.
std::vector<std::string> config_differences(const std::string& a, const std::string& b);

/// Whether the resolved config text stored in a sweep file and the given one describe the same
/// sweep (what --resume checks): every line equal, except that values of an axis (delta, gamma,
/// snr) may differ by rounding, at most 1e-12 relative. So a file written while log ranges were
/// computed with exp/log (log:1:100:3 gave 1,10.000000000000002,100; now 1,10,100) resumes with
/// its config; resume it with with_stored_axes, so that its points are computed as stored.
bool same_sweep(const std::string& stored, const std::string& given);

/// `config` with the axis values (delta, gamma, snr) of the resolved config text `stored`, which
/// same_sweep found to describe the same sweep: a resumed run computes exactly the file's points.
SweepConfig with_stored_axes(SweepConfig config, const std::string& stored);

/// Parses one numeric axis (syntax above); `option` names it in errors.
std::vector<double> parse_axis(const std::string& text, const std::string& option);

/// Splits a weighting axis into its items (rule above); each item is then parsed with
/// model::parse_weighting.
std::vector<std::string> split_weighting_list(const std::string& text);

}  // namespace rmtsweep::config
