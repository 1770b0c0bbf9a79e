// docs/schema.md and the tables of `rmtsweep schema` (schema_doc.hpp). The prose is here, beside the
// tables it introduces; the tables themselves are read from the schema tables the writers use.
#include "schema_doc.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "rmtsweep/assemble/detection.hpp"
#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/store/line_store.hpp"
#include "rmtsweep/store/schema.hpp"

namespace rmtsweep::app {
namespace {

const char* type_text(store::ColumnType type) {
  switch (type) {
    case store::ColumnType::real:
      return "float64";
    case store::ColumnType::integer:
      return "int64";
    case store::ColumnType::text:
      return "string";
  }
  return "?";
}

const char* shape_text(store::ColumnShape shape) {
  return shape == store::ColumnShape::top_k ? "points x k" : "points";
}

const char* phase_text(store::ColumnPhase phase) {
  return phase == store::ColumnPhase::parameter ? "at creation" : "when the point ends";
}

std::string width_text(const store::Column& c) {
  if (c.type != store::ColumnType::text) return "";
  if (c.text_width == store::variable_length) return " (variable length)";
  return c.text_width > 0 ? " (fixed " + std::to_string(c.text_width) + " bytes)" : " (fixed, longest value)";
}

/// When a column's cells reach the file: a variable-length text when its run closes it
/// (failure_messages.hpp).
const char* written_text(const store::Column& c) {
  return c.text_width == store::variable_length ? "when its run closes the file" : phase_text(c.phase);
}

nlohmann::json names_of(const std::vector<const store::Dimension*>& dims) {
  nlohmann::json names = nlohmann::json::array();
  for (const store::Dimension* dim : dims) names.push_back(dim->name);
  return names;
}

/// A table cell's text: '|' would end the cell.
std::string cell(std::string_view text) {
  std::string out;
  for (const char ch : text) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

std::string dims_text(const std::vector<std::string_view>& dims) {
  std::string out;
  for (const auto dim : dims) out += (out.empty() ? "" : " × ") + std::string(dim);
  return out;
}

constexpr std::string_view rule_group = "phase/detection/<rule>";

/// A rule's threshold errors, extrapolations, residuals, consistency, flags and refined fit: in every rule's
/// group, and at the top of /phase the default rule's.
void add_rule_statistics(std::vector<PhaseDataset>& out, std::string_view group) {
  namespace p = assemble::phase;
  for (const auto* e : {&p::empirical_threshold_snr_err,
                        &p::extrapolated_threshold_snr,
                        &p::extrapolated_threshold_snr_err,
                        &p::extrapolation_a,
                        &p::extrapolation_b,
                        &p::extrapolation_terms,
                        &p::extrapolation_chi2_per_dof,
                        &p::extrapolation_sizes,
                        &p::extrapolated_threshold_snr_alternative,
                        &p::extrapolated_threshold_snr_err_alternative,
                        &p::extrapolation_a_alternative,
                        &p::extrapolation_b_alternative,
                        &p::extrapolation_terms_alternative,
                        &p::extrapolation_chi2_per_dof_alternative,
                        &p::extrapolation_quadratic_p_value,
                        &p::residual_snr,
                        &p::residual_snr_err,
                        &p::extrapolated_residual_snr,
                        &p::extrapolated_residual_snr_err,
                        &p::residual_extrapolation_terms,
                        &p::residual_extrapolation_chi2_per_dof,
                        &p::consistent,
                        &p::consistency_p_value,
                        &p::threshold_flags,
                        &p::refined_threshold_snr,
                        &p::refined_threshold_snr_err,
                        &p::refined_threshold_exact,
                        &p::refined_resolution_err,
                        &p::refined_spread_err,
                        &p::refined_trials,
                        &p::refined_fit_threshold_snr,
                        &p::refined_fit_threshold_snr_err,
                        &p::refined_width_snr,
                        &p::refined_width_snr_err,
                        &p::refined_points})
    out.push_back({group, e});
}

std::vector<PhaseDataset> make_phase_layout() {
  namespace p = assemble::phase;
  namespace t = assemble::phase_theory;
  namespace r = assemble::phase_detection;
  std::vector<PhaseDataset> out;
  for (const auto* e : {&p::weighting,
                        &p::d,
                        &p::delta,
                        &p::gamma,
                        &p::snr,
                        &p::trial,
                        &p::trials_done,
                        &p::overlap_mean,
                        &p::overlap_std,
                        &p::top_eigenvalue_mean,
                        &p::top_eigenvalue_std,
                        &p::ridge_accuracy_mean,
                        &p::ridge_accuracy_std,
                        &p::detected_fraction,
                        &p::detection_threshold,
                        &p::theory_overlap,
                        &p::theory_top_eigenvalue,
                        &p::theory_detectable,
                        &p::theory_finite_t_top_eigenvalue,
                        &p::theory_finite_t_overlap,
                        &p::theory_finite_t_threshold_snr,
                        &p::theory_finite_t_threshold_snr_std,
                        &p::theory_finite_t_bulk_edge_right,
                        &p::theory_finite_t_trials,
                        &p::alpha,
                        &p::kappa,
                        &p::g,
                        &p::effective_tokens,
                        &p::theory_bulk_edge_left,
                        &p::theory_bulk_edge_right,
                        &p::theory_pop_threshold_snr,
                        &p::theory_sample_threshold_snr,
                        &p::empirical_threshold_snr,
                        &p::empirical_threshold_bracket,
                        &p::default_detection_rule,
                        &p::target_converges,
                        &p::target_convergence_p_value})
    out.push_back({"phase", e});
  add_rule_statistics(out, "phase");
  for (const auto* e : {&p::extrapolated_overlap, &p::extrapolated_overlap_err, &p::detection_margin_c,
                        &p::count_of, &p::points})
    out.push_back({"phase", e});
  for (const auto* e : {&t::snr_fine, &t::delta_fine, &t::gamma_fine, &t::density_index, &t::snr, &t::overlap,
                        &t::top_eigenvalue, &t::delta, &t::pop_threshold_snr_vs_delta,
                        &t::sample_threshold_snr_vs_delta, &t::gamma, &t::pop_threshold_snr_vs_gamma,
                        &t::sample_threshold_snr_vs_gamma, &t::density_x, &t::density})
    out.push_back({"phase/theory", e});
  for (const auto* e : {&r::detected_fraction, &r::empirical_threshold_snr, &r::empirical_threshold_bracket,
                        &r::false_detection_rate, &r::threshold, &r::empirical_threshold_exact, &r::trial_threshold_snr})
    out.push_back({rule_group, e});
  add_rule_statistics(out, rule_group);
  return out;
}

/// " Flags: -1 below_grid, 0 found, ..." of a flag variable (CF flag_values, flag_meanings), " Flag bits: 1
/// below_grid, 2 ..." of a mask (CF flag_masks), else "".
std::string flags_text(const store::Flags& flags) {
  if (flags.empty()) return {};
  std::istringstream words{std::string(flags.meanings)};
  const std::string head = flags.masks ? " Flag bits:" : " Flags:";
  std::string text = head, word;
  for (const std::int64_t value : flags.values) {
    words >> word;
    text += (text.size() > head.size() ? ", " : " ") + std::to_string(value) + " `" + word + "`";
  }
  return text + ".";
}

void print_phase_table(std::ostream& out, std::string_view group) {
  out << "| dataset | long_name | shape | description |\n|---|---|---|---|\n";
  for (const PhaseDataset& set : phase_layout()) {
    if (set.group != group) continue;
    out << "| `" << set.entry->name << "` | " << cell(set.entry->long_name) << " | " << dims_text(set.dims())
        << " | " << cell(set.entry->description) << flags_text(set.entry->flags) << " |\n";
  }
}

constexpr std::string_view header =
    R"(<!-- Generated by `rmtsweep schema --markdown` (src/app/schema_doc.cpp) from the schema tables the
     writers use: do not edit it here. Change the code, then run
     build/rmtsweep schema --markdown > docs/schema.md
     (the test test_docs_schema fails while the two differ). -->
# The sweep file (HDF5 schema)

One HDF5 file per sweep. This page lists everything in it: the root attributes, the axes (`/grid`),
one row per point (`/points`), the spectra, the refined points (`/refine`) and the phase tables that
`rmtsweep assemble` adds (`/phase`). How to read them in Python is in [python.md](python.md). Every
dataset has a `description` attribute, the text of the tables below; "model.md N" in a description
is section N of [model.md](model.md).

**Named dimensions.** Every dataset's axes are named dimensions with coordinates (netCDF-4 dimension
scales), so that xarray labels them: `xarray.open_dataset(path, group="phase", engine="h5netcdf")`
gives the phase tables over `weighting`, `d`, `delta`, `gamma` and `snr`, and the groups `points`,
`grid`, `spectra/d<d>`, `phase/theory` and `phase/detection/<rule>` open alike
([python.md](python.md)). The shapes below are these dimensions, slowest first. A dimension is a
dataset of its name, in the dataset's group or a group above it: a coordinate (its values) or, marked
"no values", a dimension only. Coordinates carry `long_name` and `units` ("1": dimensionless), /points'
and /grid's numeric datasets `units`; every variable of /phase carries `long_name` (what xarray's `.plot()`
labels an axis with) and no `units`, its quantities being dimensionless (CF asks units of dimensional ones).
Flag variables carry CF's `flag_values` (or, for bits of a mask, `flag_masks`) and `flag_meanings`. Text datasets are fixed-length ASCII with
`_Encoding` = `utf-8`, but for `/points/error`, a variable-length UTF-8 string; text attributes are
variable-length UTF-8 strings (str in h5py and xarray).

**Safe to read at any moment.** `run` creates every dataset before any point is computed
(contiguous, early allocation, filled at allocation, no filters) and writes a point's `status` after
its data, so a process killed at any moment leaves a file that h5py opens. Beside the file, `run`
keeps the point journal `FILE.h5.journal/`, from which `rmtsweep recover` rebuilds a damaged file
([reliability.md](reliability.md)). The one exception is the failed points' messages (`/points/error`):
parallel HDF5 cannot write a variable-length string, so they are written when the run closes the file;
until then they are in the journal, where `rmtsweep status` reads them.

)";

constexpr std::string_view root_attributes = R"(
## Root attributes

- `schema_version` (written last at creation: a file without it was interrupted while being created),
  `point_count`, `point_order` (the formula of the flattened order, below), `config` (the resolved
  config as text: every key, axes as explicit lists; [config.md](config.md)), `config_json` (the same
  config as one JSON object, typed: `d` a list of integers, `delta`, `gamma`, `snr` lists of numbers,
  `weighting` a list of texts, `store_spectra` true, false or "auto", then the settings of the run that
  created the file, `ranks_per_point` and `eigensolver`; `rmtsweep.read_config` reads it).
- `Conventions` = "CF-1.10" and `history`, CF's: one line per run, "<started>: <command line>"
  (assemble adds none: assembling twice leaves the same bytes).
- `sweep_id`: a random 128-bit identity given at creation, 32 hex digits, which the point journal
  carries (a file written before it gets one on its first resume).
- `rmtsweep_version`; `draws_version` and `draws_library`: the map from coordinates to random draws,
  and the Boost.Random whose ziggurat turns them into Gaussians (model.md 7); `--resume` refuses a
  file drawn with another.
- The first run: `created`, `command_line`, `mpi_ranks`, `ranks_per_point`, `eigensolver`; the
  libraries: `mpi_library_version`, `hdf5_version`, `blas_version`, `scalapack_library`.
- Every run (0 = the one that created the file, then each `--resume` and each `rmtsweep refine`):
  `runs`, their count, and `run_table`, a JSON array of one object per run: `run` (its number, as
  `/points/run` names it), `started`, `command_line`, `mpi_ranks`, `ranks_per_point`, `eigensolver`
  and `shard` ("2/3" for a run of one shard, `run --shard i/n`; in a merged file, the shard each of the
  shards' runs computed; "" otherwise). `rmtsweep.read_runs` gives it as a pandas DataFrame.
- Only in some files: `recovered` (a file rebuilt by `rmtsweep recover`: when, by which rmtsweep,
  from how many points, and where the file it replaced was kept); `fault_injection` (a test sweep
  with injected failures); `shard_index` and `shard_count` (the file of shard i of n, `run --shard i/n`:
  grid line L belongs to shard L mod n + 1, the other points are pending; [cluster.md](cluster.md));
  `merged` (a file written by `rmtsweep merge`: when, by which rmtsweep and command, from which files,
  each with its shard, sweep_id and the numbers its runs have here; its `/points/run` numbers the
  shards' runs one after the other); `messages_run` (schema_version 3: the latest run whose close wrote
  the failed points' messages into `/points/error`; a point of a later run, killed before its close, has
  its message in the journal only).
)";

constexpr std::string_view points_intro = R"(
## /points

One row per point, in the flattened order

    index = ((((i_d·n_δ + i_δ)·n_γ + i_γ)·n_snr + i_snr)·n_w + i_w)·trials + trial

(trial fastest, d slowest: the points of one size are contiguous; `i_…` are positions in `/grid`).
`status` is 0 pending, 1 done, 2 failed, written after the point's data. The columns are one table
in the code (`src/store/schema.cpp`), from which the writer, the reader, `status`, `assemble`, the
point journal and this page derive; `rmtsweep schema` prints it (`--json` for scripts). Every column
has the dimension `point` (its coordinate `/points/point` holds 0..points−1), the k-valued ones also
`k` (`/points/k`, no values); `rmtsweep.read_points(path)` gives the table as a pandas DataFrame.

)";

constexpr std::string_view spectra_and_refine = R"(
## /spectra

For each size d whose spectra are stored (`store_spectra`, [config.md](config.md)), the group
`/spectra/d<d>` holds (sizes differ in length, so each has its own datasets):

| dataset | shape | description |
|---|---|---|
)";

constexpr std::string_view lines_intro = R"(
## /lines

Where the points along snr are computed as lines (`lines = auto`, [config.md](config.md); every weighting
but `causal:τ`, an snr axis of two or more values), the group `/lines/d<d>` holds for each size one row per
grid line (everything of a point but snr): its snr-free part's eigenvalues and the rank-one update that each
snr adds, in that eigenbasis (docs/model.md §9, [model.md](model.md#9-a-line-of-snr-values-from-one-factorization)).
`assemble` takes each trial's exact detection threshold from it (`/phase/detection/<rule>/trial_threshold_snr`).
The width is d where a line of the size may take the dense engine, else the Krylov budget's vectors; a row is
written before its points, and journaled, so `recover` restores it.

| dataset | shape | description |
|---|---|---|
)";

constexpr std::string_view spectra_example = R"(
`f["spectra/d1000/eigenvalues"][r]` is the spectrum of point `f["spectra/d1000/point"][r]`.
)";

constexpr std::string_view refine = R"(
## /refine

Written by `rmtsweep refine` ([refinement.md](refinement.md)): the refined points, in blocks
`/refine/block_<i>/<name>`, each block holding every `/points` column above for its `rows` rows (the
block's attribute `rows`, written last at its creation). The rows of all blocks in order are the
refined rows; a row's parameter columns are written when the point is given the row, its measurements
and status as for `/points`. `status` is additionally −1 (`unused`) for a preallocated row not given
to a point yet; `snr_index` is −1 (the point's snr, in `snr`, is not on the grid) and `trial` may
exceed the grid's trials. Spectra of refined points are not stored. Each refine invocation is
recorded as a run (its `command_line` in `run_table` says `refine`), and the `run` column of its points
is that index.

On lines whose trials have exact thresholds refine adds whole trials, each a line over the grid's snr
values: their points are rows of `/refine/block_<i>` (at grid snr values), and their secular forms
([model.md](model.md) section 9) are rows of `/refine/lines/block_<b>`, blocks of one size each (attribute `d`)
and `rows` rows (attribute, written last at creation). Per row: `weighting_index`, `d_index`,
`delta_index`, `gamma_index` (the line's grid positions) and `trial` (−1 for a row not given yet), then
`count` (poles held; 0 until the line is computed), `poles`, `signal`, `offset` (row × `pole_index`),
`rho`, `form` and `converged`: M(r) = diag(poles) + rho (r g + a)(r g + a)ᵀ with g = `signal`,
a = `offset`, r = √snr, as for the grid's lines. Their dimensions are `row` and `pole_index` (no values).
)";

constexpr std::string_view phase_intro = R"(
## /phase

Written by `rmtsweep assemble` ([commands.md](commands.md)). The axes are the weightings in grid
order and the numeric axes ascending; the shapes below name them (`weighting`, `d`, `delta`, `gamma`,
`snr`: the lengths of `/phase/weighting`, `/phase/d`, ...). A cell is one (weighting, d, δ, γ, snr),
a line one (weighting, d, δ, γ); the extrapolations to d → ∞ have no d axis. A schema_version 1 file
assembles with one size. `detection_margin_c` is a dimension of one value (the c of the detection
rule) and `points` counts along `count_of` (total, done, failed).

Only done points count: `assemble` may run on a partial file (while a sweep is pending) and again
later. A cell with no done trial (pending or failed points) has `trials_done` 0 and NaN statistics;
a line whose threshold depends on such a cell gets bracket 2 and a NaN threshold (the table on
stdout says `no data`), never an interpolation across the missing cell. Assembling twice leaves the
same bytes: datasets are rewritten in place and the file holds no timestamp of the assembly.

The top-level detection columns (`detected_fraction`, the thresholds, their extrapolations, residuals
and flags, `refined_*`) are the default rule's, per (weighting, δ, γ) the one `default_detection_rule`
names: `null` where every size has at least 19 snr = 0 trials, else `finite_t_edge`, else the paper's
`edge` rule, the first of them that is not inconsistent along d ([detection.md](detection.md), "The
default rule"). Files assembled before it (before issue 18) carry the edge rule's there and have no
`default_detection_rule`; `detection_threshold` is the edge rule's level in both. Each rule's own
columns are under `/phase/detection/<rule>` (below). Threshold errors, the extrapolation to d → ∞, the
residuals against the finite-T thresholds and the refined thresholds are explained in
[finite_size.md](finite_size.md) and [refinement.md](refinement.md). Attributes of `/phase`:
`description`, `detection_rule`, `figure_detection` (the rule the figures draw, `assemble
--detection`), `assembled_by`.

)";

constexpr std::string_view theory_intro = R"(
### /phase/theory

The theory along fine axes, for smooth curves in the figures. The theory is the d → ∞ limit, so these
curves have no d axis (the per-cell and per-line theory above repeats along d, but for
`detection_threshold`, whose margin scales with d). Their fine axes are the dimensions `snr_fine`
(201 values), `delta_fine` and `gamma_fine`, whose values are also `snr`, `delta` and `gamma`, their
names from before dimensions; `density_x` holds 240 midpoints of each line's bulk support along
`density_index`. `weighting`, `delta` and `gamma` are /phase's dimensions: their coordinates are in
/phase (`rmtsweep.open_phase(path, "theory")` attaches them).

)";

constexpr std::string_view detection_intro = R"(
### /phase/detection/&lt;rule&gt;

One group per detection rule ([detection.md](detection.md)): `edge` (λ₁ above the right bulk edge by
the margin of `detection_threshold`), `eigengap` (Onatski's ratio of the top three eigenvalues above
its calibrated 95 % value), `null` (λ₁ above the conformal 95 % quantile of the line's snr = 0 trials)
and `finite_t_edge` (λ₁ above the finite-T bulk edge of the trial's own token draws by the edge rule's
margin: each trial's own edge where the paper's law is measurably off for the line's T_eff, trial 0's
for all trials elsewhere; NaN where min(V, N) > 6400). Each group holds:

)";

constexpr std::string_view netcdf_cf = R"(
## netCDF and CF

The file is netCDF-4 (an HDF5 file with named dimensions: `ncdump -h FILE.h5` reads every group) and
declares `Conventions` = "CF-1.10". Debian packages no CF checker (cfchecker, cf-checker), so the rules
are checked by hand, in `tests/python/schema/test_netcdf_cf.py`, on every build:

- the root holds `Conventions` and `history` (one line per run, "<started>: <command line>");
- every text attribute is a variable-length UTF-8 string (but the attributes HDF5's dimension scales
  write themselves: `CLASS`, `NAME`, `DIMENSION_LIST`, `REFERENCE_LIST`);
- every variable of /phase and its groups, coordinates included, has a `long_name`; none has `units`,
  all being dimensionless (CF 1.10 §3.1: units are required of dimensional quantities);
- every flag variable has `flag_values` of the variable's own type, distinct, as many as the words of
  `flag_meanings`, each word of letters, digits and `_.+-@` (CF §3.5), and every stored value is one of
  its `flag_values`: /points `status`, `theory_detectable`, `solver_fell_back`, /phase
  `theory_detectable`, `empirical_threshold_bracket`, `extrapolation_terms`, `refined_threshold_exact`,
  and each rule's `empirical_threshold_bracket`, `empirical_threshold_exact`, `extrapolation_terms`,
  `refined_threshold_exact`;
- every axis is a named dimension (no phony dimension), a variable's dimensions have different names
  (CF §2.4), and the numeric coordinate variables of /phase are strictly monotonic (§1.3);
- the names of variables and dimensions begin with a letter and hold letters, digits and underscores, and
  no two of a group are equal ignoring case (§2.3);
- xarray's own `.plot()` labels a /phase variable by its `long_name` and titles a slice by its
  coordinates, and `to_netcdf` of `rmtsweep.open_phase` reopens with `weighting` as str.

Known departures: `weighting` and `count_of` are coordinate variables of strings (netCDF-4 strings, so
that `.sel(weighting="optimal")` works), where CF §1.3 asks coordinate variables to be numeric and would
have them as auxiliary labels (§6.1); files are named `.h5`, where CF §2.1 asks `.nc` (`assemble --output`
takes `.nc`); NaN marks a value not defined (no `_FillValue`); /points and /grid keep `units` = "1" on their
dimensionless datasets, as earlier files have it.
)";

constexpr std::string_view versions = R"(
## Older files

This rmtsweep writes `schema_version` 3. Files of versions 1 and 2 still open in `status`, `assemble`,
`plot`, `run --resume` (which continues them in their own layout) and `rmtsweep.read_points`:

- Version 2 differs only in `/points/error` (and each `/refine/block_<i>/error`): fixed-length, 1024
  bytes per row (256 in files created before that width; a longer message was cut there), written with
  the point. At 1024 bytes it took a third of a large file (about 60 of the 176 MiB of
  `jobs/configs/phase_transitions_cluster.ini`'s 62 000 points); the variable-length string of
  version 3 takes 16 bytes a row and keeps a message whole. `tests/data/sweep_schema2.h5` is such a file.
- Version 1 also had no d axis (one size, no `/grid/d` or `/points/d_index`) and its spectra as one
  dataset `/spectra/eigenvalues`, points × d; `tests/data/sweep_schema1.h5` is such a file.

Files written before `run_table` (same schema_version) record each run as root attributes
`run_<i>_started`, `run_<i>_command_line`, `run_<i>_mpi_ranks`, `run_<i>_ranks_per_point`,
`run_<i>_eigensolver` and `run_<i>_shard`, which every command and `rmtsweep.read_runs` read alike, and a
resume continues; they have no `Conventions`, `history` or `config_json` (`rmtsweep.read_config` parses
their `config` text), their text attributes are fixed-length ASCII, and an assembly before these
attributes left `units` = "1" on /phase's datasets (assembling again removes it).

`rmtsweep recover` and `rmtsweep merge` write version 3 only: they refuse a journal or shards of an
earlier version (finish those with the rmtsweep that started them).

Files written before named dimensions (same schema_version; `tests/data/sweep_noscales.h5` is one)
have none of the datasets `point`, `k`, `eigenvalue_index`, `count_of`, `snr_fine`, `delta_fine`,
`gamma_fine`, `density_index` and no scales; they read, assemble, plot and resume as before, and
assembling them again gives their /phase the dimensions xarray needs (`rmtsweep.open_phase` asks for
that). Their linear ranges may hold binary rounding (`0.6000000000000001` for 0.2:1.6:8, now `0.6`):
`--resume` takes the file's own values.
)";

}  // namespace

const std::vector<PhaseDataset>& phase_layout() {
  static const std::vector<PhaseDataset> layout = make_phase_layout();
  return layout;
}

void print_points_table(std::ostream& out) {
  out << "| column | type | shape | written | description |\n|---|---|---|---|---|\n";
  for (const store::Column* c : store::point_columns()) {
    out << "| `" << c->name << "` | " << type_text(c->type) << width_text(*c) << " | " << shape_text(c->shape)
        << " | " << written_text(*c) << " | " << cell(c->description) << flags_text(c->flags) << " |\n";
  }
}

nlohmann::json flag_values_json(const store::Flags& flags) {
  return nlohmann::json(std::vector<std::int64_t>(flags.values.begin(), flags.values.end()));
}

void print_schema_json(std::ostream& out) {
  nlohmann::json columns = nlohmann::json::array();
  for (const store::Column* c : store::point_columns()) {
    columns.push_back(
        {{"name", c->name},
         {"type", type_text(c->type)},
         {"shape", c->shape == store::ColumnShape::top_k ? "top_k" : "scalar"},
         {"written", c->phase == store::ColumnPhase::parameter ? "parameter" : "measurement"},
         {"description", c->description},
         {"text_width", c->text_width == store::variable_length ? nlohmann::json()  // null: variable
                                                                : nlohmann::json(c->text_width)},
         {"dimensions", names_of(store::dimensions_of(*c))},
         {"units", c->type == store::ColumnType::text ? nlohmann::json() : nlohmann::json(c->units)},
         {"flag_values", flag_values_json(c->flags)},
         {"flag_meanings", c->flags.meanings}});
  }
  // The scales of /points beside its columns: the coordinate point and the dimension k.
  nlohmann::json scales = nlohmann::json::array();
  for (const auto& [entry, dim] : {std::pair{&store::points_dimension::point, &store::dimension::point},
                                   std::pair{&store::points_dimension::k, &store::dimension::k}})
    scales.push_back({{"name", dim->name}, {"path", entry->path}, {"description", entry->description}});
  nlohmann::json phase = nlohmann::json::array();
  for (const PhaseDataset& set : phase_layout()) {
    nlohmann::json dims = nlohmann::json::array();
    for (const auto dim : set.dims()) dims.push_back(dim);
    phase.push_back({{"group", set.group},
                     {"name", set.entry->name},
                     {"dims", dims},
                     {"long_name", set.entry->long_name},
                     {"units", set.entry->units},
                     {"flag_values", set.entry->flags.masks ? nlohmann::json::array()
                                                            : flag_values_json(set.entry->flags)},
                     {"flag_masks", set.entry->flags.masks ? flag_values_json(set.entry->flags)
                                                           : nlohmann::json::array()},
                     {"flag_meanings", set.entry->flags.meanings},
                     {"description", set.entry->description}});
  }
  nlohmann::json rules = nlohmann::json::array();
  for (const assemble::Rule rule : assemble::all_rules) rules.push_back(assemble::to_string(rule));
  out << nlohmann::json{{"schema_version", store::schema_version},
                        {"points", columns},
                        {"points_dimensions", scales},
                        {"phase", phase},
                        {"detection_rules", rules}}
             .dump()
      << "\n";
}

void print_schema_markdown(std::ostream& out) {
  out << header << "File layout, schema_version " << store::schema_version << ":\n\n"
      << "| group | what |\n|---|---|\n"
      << "| root attributes | the config, the versions, every run |\n"
      << "| `/grid` | the sweep's axes in config order |\n"
      << "| `/points` | one row per point: parameters, theory, measurements, status |\n"
      << "| `/spectra/d<d>` | all eigenvalues of the points of size d, where stored |\n"
      << "| `/lines/d<d>` | the secular form of every line computed as a line |\n"
      << "| `/refine/block_<i>` | points added by `rmtsweep refine` |\n"
      << "| `/refine/lines/block_<b>` | secular forms of the trials `rmtsweep refine` adds as whole lines |\n"
      << "| `/phase` | phase tables by `rmtsweep assemble` |\n"
      << root_attributes << "\n## /grid\n\n| dataset | description |\n|---|---|\n";
  for (const store::DatasetEntry* e :
       {&store::grid_axis::d, &store::grid_axis::delta, &store::grid_axis::gamma, &store::grid_axis::snr,
        &store::grid_axis::weighting, &store::grid_axis::trial})
    out << "| `/" << e->path << "` | " << cell(e->description) << " |\n";
  out << "\nEach is the coordinate of its own dimension (`/grid/delta` of `delta`, ...).\n";
  out << points_intro;
  print_points_table(out);
  out << spectra_and_refine << "| `eigenvalues` | points of size d × d | "
      << cell(store::spectra_eigenvalues_description) << " |\n| `point` | points of size d | "
      << cell(store::spectra_points_description) << " (the coordinate of dimension `point` here) |\n"
      << "| `eigenvalue_index` | d (no values) | " << cell(store::spectra_eigenvalue_index_description)
      << " |\n"
      << spectra_example << lines_intro;
  for (const store::LineDatasetEntry& e : store::line_datasets())
    out << "| `" << e.name << "` | " << e.shape << " | " << cell(e.description) << " |\n";
  out << refine << phase_intro;
  print_phase_table(out, "phase");
  out << theory_intro;
  print_phase_table(out, "phase/theory");
  out << detection_intro;
  print_phase_table(out, rule_group);
  out << netcdf_cf << versions;
}

}  // namespace rmtsweep::app
