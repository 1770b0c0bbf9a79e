#pragma once
/// The parsers of the options' values (option_table.hpp), shared by `rmtsweep run` (its config
/// keys), `rmtsweep point` and `rmtsweep theory`: one definition of what each option allows. Each
/// throws InvalidOption naming the option, the value and what is allowed.
#include <cstdint>
#include <string>

#include "rmtsweep/parallel/eigen_kinds.hpp"
#include "rmtsweep/simulate/options.hpp"

namespace rmtsweep::config {

/// d: an integer 1 <= d <= 2^31 - 1.
int parse_d(const std::string& text);
/// T: an integer 1 <= T <= model::max_sequence_length.
int parse_T(const std::string& text);
/// seed: an integer 0 <= seed < 2^64.
std::uint64_t parse_seed(const std::string& text);
/// trial (one point): an integer 0 <= trial <= 2^31 - 1.
int parse_trial(const std::string& text);
/// The most trials a sweep may have.
inline constexpr int max_trials = 1000000;
/// trials (a sweep): an integer 1 <= trials <= max_trials.
int parse_trials(const std::string& text);
/// k for dimension d: an integer 1 <= k <= d (a new sweep or a point then needs k >= min(4, d):
/// require_top_four). The default, 4, shrinks to d when d < 4.
int parse_k(const std::string& text, int d, bool is_default);
/// ridge: a finite number (lambda = ridge kappa; a sweep needs ridge > 0: parse_sweep_ridge).
double parse_ridge(const std::string& text);
/// ridge of a sweep: a finite number > 0 (every point's S + lambda I is then positive definite).
double parse_sweep_ridge(const std::string& text);
/// ntest: an integer 0 <= ntest <= 2^40, 0 meaning N.
long long parse_ntest(const std::string& text);
/// The `eigensolver` setting: how a point's eigenpairs are computed.
enum class EigenSetting {
  automatic,  ///< "auto": the engine policy decides (simulate/engine.hpp: choose_engine)
  dense,      ///< "dense": S formed and reduced (LAPACK; ELPA or ScaLAPACK on groups, by elpa_applies)
  krylov,     ///< "krylov": matrix-free, S never formed (top k only: refuses a stored spectrum)
  scalapack,  ///< "scalapack": dense, and pdsytrd on groups (about half ELPA's memory per rank)
};
/// eigensolver: auto | dense | krylov | scalapack.
EigenSetting parse_eigensolver(const std::string& text);
/// The setting's text, as parse_eigensolver reads it.
const char* eigensolver_setting(EigenSetting setting) noexcept;
/// The engine and the dense reducer a setting asks simulate_point for.
simulate::Engine engine_of(EigenSetting setting) noexcept;
parallel::EigenSolver reducer_of(EigenSetting setting) noexcept;
/// The rule between the engine and a spectrum (simulate::gives_spectrum: the Krylov engine gives the top k
/// eigenvalues only), said once for the options: refuses `setting` (`given`: the eigensolver as written)
/// where a spectrum is asked for (`spectrum`; `asked_by` says where: "--spectrum", "store_spectra = true (a
/// spectrum stored for d = 40)"; `instead` what asks for none: "store_spectra = false").
void require_spectrum_engine(EigenSetting setting, bool spectrum, const std::string& given,
                             const std::string& asked_by, const std::string& instead);
/// The `lines` setting: whether the points along snr are computed as one line (simulate/line.hpp).
enum class LinesSetting {
  automatic,  ///< "auto": as a line wherever simulate::line_applies and the snr axis has >= 2 values
  off,        ///< "off": every point alone (simulate_point)
};
/// lines: auto | off.
LinesSetting parse_lines(const std::string& text);
/// The setting's text, as parse_lines reads it.
const char* lines_setting(LinesSetting setting) noexcept;
/// What k may be for dimension d, as an InvalidOption's "allowed" text.
std::string k_allowed(int d);

}  // namespace rmtsweep::config
