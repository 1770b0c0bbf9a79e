// docs/schema.md and the tables of `rmtsweep schema` (schema_doc.hpp). The prose is here, beside the
// tables it introduces; the tables themselves are read from the schema tables the writers use.
#include "schema_doc.hpp"

#include <nlohmann/json.hpp>
#include <string>

#include "rmtsweep/assemble/detection.hpp"
#include "rmtsweep/assemble/detection_tables.hpp"
#include "rmtsweep/sweep/schema.hpp"

namespace rmtsweep::app {
namespace {

const char* type_text(sweep::ColumnType type) {
  switch (type) {
    case sweep::ColumnType::real:
      return "float64";
    case sweep::ColumnType::integer:
      return "int64";
    case sweep::ColumnType::text:
      return "string";
  }
  return "?";
}

const char* shape_text(sweep::ColumnShape shape) {
  return shape == sweep::ColumnShape::top_k ? "points x k" : "points";
}

const char* phase_text(sweep::ColumnPhase phase) {
  return phase == sweep::ColumnPhase::parameter ? "at creation" : "when the point ends";
}

std::string width_text(const sweep::Column& c) {
  if (c.type != sweep::ColumnType::text) return "";
  return c.text_width > 0 ? " (fixed " + std::to_string(c.text_width) + " bytes)" : " (fixed, longest value)";
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

// The shapes below are those phase_file.cpp writes (test_docs_schema compares them with a file).
const std::vector<std::string_view> cells{"weighting", "d", "delta", "gamma", "snr"},
    lines{"weighting", "d", "delta", "gamma"}, size_lines{"weighting", "delta", "gamma"},
    size_cells{"weighting", "delta", "gamma", "snr"};

/// The edge rule's threshold errors, extrapolation and refined fit: at the top of /phase and in every
/// rule's group.
void add_rule_statistics(std::vector<PhaseDataset>& out, std::string_view group) {
  namespace p = assemble::phase;
  for (const auto* e : {&p::empirical_threshold_snr_err}) out.push_back({group, e, lines});
  for (const auto* e : {&p::extrapolated_threshold_snr, &p::extrapolated_threshold_snr_err,
                        &p::extrapolation_a, &p::extrapolation_b, &p::extrapolation_terms,
                        &p::extrapolation_chi2_per_dof, &p::extrapolation_sizes})
    out.push_back({group, e, size_lines});
  for (const auto* e : {&p::refined_threshold_snr, &p::refined_threshold_snr_err, &p::refined_resolution_err,
                        &p::refined_spread_err, &p::refined_trials, &p::refined_fit_threshold_snr,
                        &p::refined_fit_threshold_snr_err, &p::refined_width_snr, &p::refined_width_snr_err,
                        &p::refined_points})
    out.push_back({group, e, lines});
}

std::vector<PhaseDataset> make_phase_layout() {
  namespace p = assemble::phase;
  namespace t = assemble::phase_theory;
  namespace r = assemble::phase_detection;
  std::vector<PhaseDataset> out{{"phase", &p::weighting, {"weighting"}},
                                {"phase", &p::d, {"d"}},
                                {"phase", &p::delta, {"delta"}},
                                {"phase", &p::gamma, {"gamma"}},
                                {"phase", &p::snr, {"snr"}}};
  for (const auto* e :
       {&p::trials_done, &p::overlap_mean, &p::overlap_std, &p::top_eigenvalue_mean, &p::top_eigenvalue_std,
        &p::ridge_accuracy_mean, &p::ridge_accuracy_std, &p::detected_fraction, &p::detection_threshold,
        &p::theory_overlap, &p::theory_top_eigenvalue, &p::theory_detectable})
    out.push_back({"phase", e, cells});
  for (const auto* e :
       {&p::alpha, &p::kappa, &p::g, &p::effective_tokens, &p::theory_bulk_edge_left,
        &p::theory_bulk_edge_right, &p::theory_pop_threshold_snr, &p::theory_sample_threshold_snr,
        &p::empirical_threshold_snr, &p::empirical_threshold_bracket})
    out.push_back({"phase", e, lines});
  add_rule_statistics(out, "phase");
  for (const auto* e : {&p::extrapolated_overlap, &p::extrapolated_overlap_err})
    out.push_back({"phase", e, size_cells});
  out.push_back({"phase", &p::detection_margin_c, {"1"}});
  out.push_back({"phase", &p::points, {"3"}});

  const std::vector<std::string_view> curves{"weighting", "delta", "gamma", "fine_snr"},
      density{"weighting", "delta", "gamma", "density_x"};
  out.push_back({"phase/theory", &t::snr, {"fine_snr"}});
  out.push_back({"phase/theory", &t::overlap, curves});
  out.push_back({"phase/theory", &t::top_eigenvalue, curves});
  out.push_back({"phase/theory", &t::delta, {"fine_delta"}});
  out.push_back({"phase/theory", &t::pop_threshold_snr_vs_delta, {"weighting", "gamma", "fine_delta"}});
  out.push_back({"phase/theory", &t::sample_threshold_snr_vs_delta, {"weighting", "gamma", "fine_delta"}});
  out.push_back({"phase/theory", &t::gamma, {"fine_gamma"}});
  out.push_back({"phase/theory", &t::pop_threshold_snr_vs_gamma, {"weighting", "delta", "fine_gamma"}});
  out.push_back({"phase/theory", &t::sample_threshold_snr_vs_gamma, {"weighting", "delta", "fine_gamma"}});
  out.push_back({"phase/theory", &t::density_x, density});
  out.push_back({"phase/theory", &t::density, density});

  out.push_back({rule_group, &r::detected_fraction, cells});
  for (const auto* e : {&r::empirical_threshold_snr, &r::empirical_threshold_bracket,
                        &r::false_detection_rate, &r::threshold})
    out.push_back({rule_group, e, lines});
  add_rule_statistics(out, rule_group);
  return out;
}

void print_phase_table(std::ostream& out, std::string_view group) {
  out << "| dataset | shape | description |\n|---|---|---|\n";
  for (const PhaseDataset& set : phase_layout()) {
    if (set.group != group) continue;
    out << "| `" << set.entry->name << "` | " << dims_text(set.dims) << " | " << cell(set.entry->description)
        << " |\n";
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

**Safe to read at any moment.** `run` creates every dataset before any point is computed
(contiguous, early allocation, filled at allocation, no filters) and writes a point's `status` after
its data, so a process killed at any moment leaves a file that h5py opens. Beside the file, `run`
keeps the point journal `FILE.h5.journal/`, from which `rmtsweep recover` rebuilds a damaged file
([reliability.md](reliability.md)).

)";

constexpr std::string_view root_attributes = R"(
## Root attributes

- `schema_version` (written last at creation: a file without it was interrupted while being created),
  `point_count`, `point_order` (the formula of the flattened order, below), `config` (the resolved
  config as text: every key, axes as explicit lists; [config.md](config.md)).
- `sweep_id`: a random 128-bit identity given at creation, 32 hex digits, which the point journal
  carries (a file written before it gets one on its first resume).
- `rmtsweep_version`; `draws_version` and `draws_library`: the map from coordinates to random draws,
  and the Boost.Random whose ziggurat turns them into Gaussians (model.md 7); `--resume` refuses a
  file drawn with another.
- The first run: `created`, `command_line`, `mpi_ranks`, `ranks_per_point`, `eigensolver`; the
  libraries: `mpi_library_version`, `hdf5_version`, `blas_version`, `scalapack_library`.
- Every run (0 = the one that created the file, then each `--resume` and each `rmtsweep refine`):
  `runs`, and per run `run_<i>_started`, `run_<i>_command_line`, `run_<i>_mpi_ranks`,
  `run_<i>_ranks_per_point`, `run_<i>_eigensolver`.
- Only in some files: `recovered` (a file rebuilt by `rmtsweep recover`: when, by which rmtsweep,
  from how many points, and where the file it replaced was kept); `fault_injection` (a test sweep
  with injected failures).
)";

constexpr std::string_view points_intro = R"(
## /points

One row per point, in the flattened order

    index = ((((i_d·n_δ + i_δ)·n_γ + i_γ)·n_snr + i_snr)·n_w + i_w)·trials + trial

(trial fastest, d slowest: the points of one size are contiguous; `i_…` are positions in `/grid`).
`status` is 0 pending, 1 done, 2 failed, written after the point's data. The columns are one table
in the code (`src/sweep/schema.cpp`), from which the writer, the reader, `status`, `assemble`, the
point journal and this page derive; `rmtsweep schema` prints it (`--json` for scripts).

)";

constexpr std::string_view spectra_and_refine = R"(
## /spectra

For each size d whose spectra are stored (`store_spectra`, [config.md](config.md)), the group
`/spectra/d<d>` holds (sizes differ in length, so each has its own datasets):

| dataset | shape | description |
|---|---|---|
)";

constexpr std::string_view refine = R"(
`f["spectra/d1000/eigenvalues"][r]` is the spectrum of point `f["spectra/d1000/point"][r]`.

## /refine

Written by `rmtsweep refine` ([refinement.md](refinement.md)): the refined points, in blocks
`/refine/block_<i>/<name>`, each block holding every `/points` column above for its `rows` rows (the
block's attribute `rows`, written last at its creation). The rows of all blocks in order are the
refined rows; a row's parameter columns are written when the point is given the row, its measurements
and status as for `/points`. `status` is additionally −1 (`unused`) for a preallocated row not given
to a point yet; `snr_index` is −1 (the point's snr, in `snr`, is not on the grid) and `trial` may
exceed the grid's trials. Spectra of refined points are not stored. Each refine invocation is
recorded as a run (`run_<i>_command_line` says `refine`), and the `run` column of its points is that
index.
)";

constexpr std::string_view phase_intro = R"(
## /phase

Written by `rmtsweep assemble` ([commands.md](commands.md)). The axes are the weightings in grid
order and the numeric axes ascending; the shapes below name them (`weighting`, `d`, `delta`, `gamma`,
`snr`: the lengths of `/phase/weighting`, `/phase/d`, ...). A cell is one (weighting, d, δ, γ, snr),
a line one (weighting, d, δ, γ); the extrapolations to d → ∞ have no d axis. A schema_version 1 file
assembles with one size.

Only done points count: `assemble` may run on a partial file (while a sweep is pending) and again
later. A cell with no done trial (pending or failed points) has `trials_done` 0 and NaN statistics;
a line whose threshold depends on such a cell gets bracket 2 and a NaN threshold (the table on
stdout says `no data`), never an interpolation across the missing cell. Assembling twice leaves the
same bytes: datasets are rewritten in place and the file holds no timestamp of the assembly.

The top-level detection columns are the edge rule's (model.md 5.4; [detection.md](detection.md));
each rule's own are under `/phase/detection/<rule>` (below). Threshold errors, the extrapolation to
d → ∞ and the refined thresholds are explained in [finite_size.md](finite_size.md) and
[refinement.md](refinement.md). Attributes of `/phase`: `description`, `detection_rule`,
`figure_detection` (the rule the figures draw, `assemble --detection`), `assembled_by`.

)";

constexpr std::string_view theory_intro = R"(
### /phase/theory

The theory along fine axes, for smooth curves in the figures. The theory is the d → ∞ limit, so these
curves have no d axis (the per-cell and per-line theory above repeats along d, but for
`detection_threshold`, whose margin scales with d). `fine_snr` has 201 values; `density_x` holds 240
midpoints of each line's bulk support.

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

constexpr std::string_view versions = R"(
## Older files

This rmtsweep writes `schema_version` 2. Files of version 1 (before d was an axis: one size, no
`/grid/d` or `/points/d_index`, spectra as one dataset `/spectra/eigenvalues`, points × d) still open
in `status`, `assemble`, `plot` and `run --resume`, which continues them in their own layout;
`tests/data/sweep_schema1.h5` is such a file, kept for the tests. `/points/error` is 1024 bytes wide
in new files and 256 in files created before that width.
)";

}  // namespace

const std::vector<PhaseDataset>& phase_layout() {
  static const std::vector<PhaseDataset> layout = make_phase_layout();
  return layout;
}

void print_points_table(std::ostream& out) {
  out << "| column | type | shape | written | description |\n|---|---|---|---|---|\n";
  for (const sweep::Column* c : sweep::point_columns()) {
    out << "| `" << c->name << "` | " << type_text(c->type) << width_text(*c) << " | " << shape_text(c->shape)
        << " | " << phase_text(c->phase) << " | " << cell(c->description) << " |\n";
  }
}

void print_schema_json(std::ostream& out) {
  nlohmann::json columns = nlohmann::json::array();
  for (const sweep::Column* c : sweep::point_columns()) {
    columns.push_back({{"name", c->name},
                       {"type", type_text(c->type)},
                       {"shape", c->shape == sweep::ColumnShape::top_k ? "top_k" : "scalar"},
                       {"written", c->phase == sweep::ColumnPhase::parameter ? "parameter" : "measurement"},
                       {"description", c->description},
                       {"text_width", c->text_width}});
  }
  nlohmann::json phase = nlohmann::json::array();
  for (const PhaseDataset& set : phase_layout()) {
    nlohmann::json dims = nlohmann::json::array();
    for (const auto dim : set.dims) dims.push_back(dim);
    phase.push_back({{"group", set.group},
                     {"name", set.entry->name},
                     {"dims", dims},
                     {"description", set.entry->description}});
  }
  nlohmann::json rules = nlohmann::json::array();
  for (const assemble::Rule rule : assemble::all_rules) rules.push_back(assemble::to_string(rule));
  out << nlohmann::json{{"schema_version", sweep::schema_version},
                        {"points", columns},
                        {"phase", phase},
                        {"detection_rules", rules}}
             .dump()
      << "\n";
}

void print_schema_markdown(std::ostream& out) {
  out << header << "File layout, schema_version " << sweep::schema_version << ":\n\n"
      << "| group | what |\n|---|---|\n"
      << "| root attributes | the config, the versions, every run |\n"
      << "| `/grid` | the sweep's axes in config order |\n"
      << "| `/points` | one row per point: parameters, theory, measurements, status |\n"
      << "| `/spectra/d<d>` | all eigenvalues of the points of size d, where stored |\n"
      << "| `/refine/block_<i>` | points added by `rmtsweep refine` |\n"
      << "| `/phase` | phase tables by `rmtsweep assemble` |\n"
      << root_attributes << "\n## /grid\n\n| dataset | description |\n|---|---|\n";
  for (const sweep::DatasetEntry* e :
       {&sweep::grid_axis::d, &sweep::grid_axis::delta, &sweep::grid_axis::gamma, &sweep::grid_axis::snr,
        &sweep::grid_axis::weighting, &sweep::grid_axis::trial})
    out << "| `/" << e->path << "` | " << cell(e->description) << " |\n";
  out << points_intro;
  print_points_table(out);
  out << spectra_and_refine << "| `eigenvalues` | points of size d × d | "
      << cell(sweep::spectra_eigenvalues_description) << " |\n| `point` | points of size d | "
      << cell(sweep::spectra_points_description) << " |\n"
      << refine << phase_intro;
  print_phase_table(out, "phase");
  out << theory_intro;
  print_phase_table(out, "phase/theory");
  out << detection_intro;
  print_phase_table(out, rule_group);
  out << versions;
}

}  // namespace rmtsweep::app
