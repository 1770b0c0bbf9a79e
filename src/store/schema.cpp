// The sweep file's schema table (include/rmtsweep/store/schema.hpp): each /points column once,
// with its meaning (units in brackets) and where its value comes from.
#include "rmtsweep/store/schema.hpp"

#include <limits>
#include <stdexcept>

#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/parallel/eigen.hpp"

namespace rmtsweep::store {
namespace {

using enum ColumnType;
using enum ColumnShape;
using enum ColumnPhase;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

using F = const PointFacts&;
using O = const PointOutcome&;

/// A measured scalar, NaN for a failed point.
template <class Get>
Cell measured(O o, Get get) {
  return o.result ? Cell(get(*o.result)) : Cell(nan);
}

/// k values, NaN-padded (fewer were measured when d < k) and NaN for a failed point.
Cell k_values(O o, const std::vector<double>* values) {
  std::vector<double> row = values ? *values : std::vector<double>{};
  row.resize(static_cast<std::size_t>(o.k), nan);
  return row;
}

/// A field of the finite-T prediction, NaN for a failed point or where it was not computed.
Cell finite_t(O o, double theory::FiniteTPrediction::*field) {
  return o.result && o.result->finite_t ? Cell((*o.result->finite_t).*field) : Cell(nan);
}

/// A field of the finite-d model of the top levels, NaN for a failed point or where it was not computed.
Cell finite_t_levels(O o, double theory::TopLevelPrediction::*field) {
  return o.result && o.result->finite_t_levels ? Cell((*o.result->finite_t_levels).*field) : Cell(nan);
}

/// solver_fell_back: whether the Krylov engine's point was recomputed with S formed.
constexpr Flags fell_back_flags{flag_values::no_yes, "krylov_converged recomputed_with_s_formed"};

constexpr Column table[] = {
    // parameters of the point (model.md section 1), written at creation
    {"delta", real, scalar, parameter, "delta = d/V of the point (model.md section 1)",
     [](F f) -> Cell { return f.params.delta; }},
    {"gamma", real, scalar, parameter, "gamma = d/N of the point (model.md section 1)",
     [](F f) -> Cell { return f.params.gamma; }},
    {"snr", real, scalar, parameter, "snr = ||mu||^2, raw signal strength of the embedding table",
     [](F f) -> Cell { return f.params.snr; }},
    {"weighting", text, scalar, parameter,
     "pooling weighting of the point, canonical text (model.md section 3)",
     [](F f) -> Cell { return model::to_string(f.params.weighting); }},
    {"trial", integer, scalar, parameter, "trial number: which independent draw (0-based)",
     [](F f) -> Cell { return std::int64_t{f.params.trial}; }},
    {"delta_index", integer, scalar, parameter, "position of delta in /grid/delta",
     [](F f) -> Cell { return static_cast<std::int64_t>(f.at.delta); }},
    {"gamma_index", integer, scalar, parameter, "position of gamma in /grid/gamma",
     [](F f) -> Cell { return static_cast<std::int64_t>(f.at.gamma); }},
    {"snr_index", integer, scalar, parameter, "position of snr in /grid/snr",
     [](F f) -> Cell { return static_cast<std::int64_t>(f.at.snr); }},
    {"weighting_index", integer, scalar, parameter, "position of the weighting in /grid/weighting",
     [](F f) -> Cell { return static_cast<std::int64_t>(f.at.weighting); }},
    {"d_index", integer, scalar, parameter,
     "position of d in /grid/d (schema_version 2; a version 1 file has one size and no d_index)",
     [](F f) -> Cell { return static_cast<std::int64_t>(f.at.d); }},
    {"d", integer, scalar, parameter, "embedding dimension",
     [](F f) -> Cell { return std::int64_t{f.params.d}; }},
    {"V", integer, scalar, parameter, "vocabulary size V = 2 round(d/(2 delta))",
     [](F f) -> Cell { return f.params.vocabulary(); }},
    {"N", integer, scalar, parameter, "number of sequences N = round(d/gamma)",
     [](F f) -> Cell { return f.params.sequences(); }},
    {"T", integer, scalar, parameter, "sequence length",
     [](F f) -> Cell { return std::int64_t{f.params.T}; }},
    // the theory's predictions (model.md sections 4-5), written at creation
    {"alpha", real, scalar, parameter, "alpha = w^T R w, signal kept by pooling (model.md section 4)",
     [](F f) -> Cell { return f.prediction.alpha; }},
    {"kappa", real, scalar, parameter, "kappa = ||w||^2, noise kept by pooling (model.md section 4)",
     [](F f) -> Cell { return f.prediction.kappa; }},
    {"theta", real, scalar, parameter,
     "theta = g (snr + delta) (iid table) or g snr (centered table) (model.md 5.2)",
     [](F f) -> Cell { return f.prediction.theta; }},
    {"theory_bulk_edge_left", real, scalar, parameter,
     "left edge of the continuous bulk of kappa (MP_delta [x] MP_gamma) (5.1)",
     [](F f) -> Cell { return f.prediction.bulk_edge_left; }},
    {"theory_bulk_edge_right", real, scalar, parameter,
     "right edge of the bulk kappa (MP_delta [x] MP_gamma) (model.md 5.1)",
     [](F f) -> Cell { return f.prediction.bulk_edge_right; }},
    {"theory_pop_threshold_snr", real, scalar, parameter,
     "snr above which the population covariance has an outlier, clipped at 0",
     [](F f) -> Cell { return f.prediction.pop_threshold_snr; }},
    {"theory_sample_threshold_snr", real, scalar, parameter,
     "snr above which S has an outlier (detectable), clipped at 0",
     [](F f) -> Cell { return f.prediction.sample_threshold_snr; }},
    {"theory_pop_outlier", real, scalar, parameter,
     "population outlier lambda_pop; NaN below the population threshold",
     [](F f) -> Cell { return f.prediction.pop_outlier.value_or(nan); }},
    {"theory_pop_overlap", real, scalar, parameter,
     "population overlap cap (1 - delta/s^2); 0 below the population threshold",
     [](F f) -> Cell { return f.prediction.pop_overlap; }},
    {"theory_top_eigenvalue", real, scalar, parameter,
     "predicted top eigenvalue of S: lambda_S when detectable, else right edge",
     [](F f) -> Cell { return f.prediction.top_eigenvalue; }},
    {"theory_overlap", real, scalar, parameter,
     "predicted |u_hat^T u|^2 of the top eigenvector; 0 when not detectable",
     [](F f) -> Cell { return f.prediction.overlap; }},
    {"theory_detectable", integer, scalar, parameter,
     "1 when F(s) > 0: the sample outlier exists (model.md 5.2), else 0",
     [](F f) -> Cell { return std::int64_t{f.prediction.detectable ? 1 : 0}; }, nullptr, 0, 0, "1",
     detectable_flags},
    {"effective_tokens", real, scalar, parameter,
     "T_eff = (sum |w_t|)^2 / sum w_t^2: tokens pooled in effect; the bulk law is a limit of many (model.md "
     "5.5)",
     [](F f) -> Cell { return f.prediction.effective_tokens; }},
    // measurements, written when the point ends; status last of all
    {"top_eigenvalue", real, scalar, measurement,
     "measured largest eigenvalue of the centered sample covariance S", nullptr,
     [](O o) {
       return measured(o, [](const simulate::PointResult& r) {
         return r.top_eigenvalues.empty() ? nan : r.top_eigenvalues.front();
       });
     }},
    {"overlap", real, scalar, measurement,
     "measured |u_hat^T u|^2 of the top eigenvector of S with the signal direction u", nullptr,
     [](O o) { return measured(o, [](const simulate::PointResult& r) { return r.overlap; }); }},
    {"ridge_accuracy", real, scalar, measurement,
     "fraction of test sequences classified right by ridge (model.md section 6)", nullptr,
     [](O o) { return measured(o, [](const simulate::PointResult& r) { return r.ridge_accuracy; }); }},
    {"weights_deviation", real, scalar, measurement,
     "causal:tau only: mean over sequences of ||w_n - w(tau)||_1; NaN otherwise", nullptr,
     [](O o) {
       return measured(o, [](const simulate::PointResult& r) { return r.weights_deviation.value_or(nan); });
     }},
    {"theory_finite_t_top_eigenvalue", real, scalar, measurement,
     "finite-T prediction from the point's own token draws (docs/finite_t.md): the outlier where detectable, "
     "else the finite-T right edge; computed for every weighting and size (above min(V, N) = 2000 from the "
     "quadrature of docs/finite_t.md section 7, within 1e-4 of the exact spectrum's); NaN where it failed "
     "and "
     "in files written before it existed (before 2026-12-06 also for several pooled tokens where the paper's "
     "law held or min(V, N) > 6400)",
     nullptr, [](O o) { return finite_t(o, &theory::FiniteTPrediction::top_eigenvalue); }},
    {"theory_finite_t_overlap", real, scalar, measurement,
     "finite-T prediction of |u_hat^T u|^2 from the point's own token draws; 0 when not detectable, "
     "NaN where not computed",
     nullptr, [](O o) { return finite_t(o, &theory::FiniteTPrediction::overlap); }},
    {"theory_finite_t_threshold_snr", real, scalar, measurement,
     "finite-T sample threshold in snr of the point's own token draws (the same for every snr of a trial), "
     "clipped at 0; NaN where not computed",
     nullptr, [](O o) { return finite_t(o, &theory::FiniteTPrediction::threshold_snr); }},
    {"theory_finite_t_bulk_edge_right", real, scalar, measurement,
     "finite-T right bulk edge of the point's own token draws (model.md 5.5; the same for every snr of a "
     "trial); NaN where not computed",
     nullptr, [](O o) { return finite_t(o, &theory::FiniteTPrediction::bulk_edge_right); }},
    {"theory_finite_t_levels_top_eigenvalue", real, scalar, measurement,
     "finite-T at finite d (docs/finite_t.md, 'A finite-d model of the top levels'): the expected top "
     "eigenvalue given the point's own token draws, the few top levels kept exactly; single-token pooling "
     "only, NaN elsewhere and in files written before it existed",
     nullptr, [](O o) { return finite_t_levels(o, &theory::TopLevelPrediction::top_eigenvalue); }},
    {"theory_finite_t_levels_overlap", real, scalar, measurement,
     "finite-T at finite d: the expected |u_hat^T u|^2 given the point's own token draws (a mean over the "
     "model's seeded draws, theory::default_top_level_draws); NaN where not computed",
     nullptr, [](O o) { return finite_t_levels(o, &theory::TopLevelPrediction::overlap); }},
    {"theory_finite_t_levels_overlap_error", real, scalar, measurement,
     "standard error of theory_finite_t_levels_overlap over the model's draws; NaN where not computed",
     nullptr, [](O o) { return finite_t_levels(o, &theory::TopLevelPrediction::overlap_error); }},
    {"solver", text, scalar, measurement,
     "what computed the eigenpairs: lapack, scalapack, elpa (S formed), block-lanczos (S never formed; "
     "spectra-lanczos, spectra-davidson in older files), or for a point of a line (docs/model.md section 9) "
     "lapack-line, scalapack-line, lanczos-line; empty for a failed point",
     nullptr,
     [](O o) -> Cell {
       return o.result ? std::string(parallel::to_string(o.result->eigensolver)) : std::string();
     },
     0, 16},
    {"operator_products", integer, scalar, measurement,
     "Krylov: products of S with a vector (eigenpairs and ridge), each vector of a block counted; 0 when S "
     "was formed",
     nullptr, [](O o) -> Cell { return std::int64_t{o.result ? o.result->products : 0}; }},
    {"solver_residual", real, scalar, measurement,
     "Krylov: max_j ||S x_j - lambda_j x_j|| / |lambda_j| over the top k pairs it reached; NaN when no "
     "Krylov "
     "product was made",
     nullptr,
     [](O o) {
       return measured(o, [](const simulate::PointResult& r) { return r.products > 0 ? r.residual : nan; });
     }},
    {"solver_fell_back", integer, scalar, measurement,
     "1 when the Krylov engine did not converge within its budget and the point was recomputed with S formed",
     nullptr, [](O o) -> Cell { return std::int64_t{o.result && o.result->fell_back ? 1 : 0}; }, 0, 0, "1",
     fell_back_flags},
    {"seconds", real, scalar, measurement, "wall-clock seconds the point took on its group [s]", nullptr,
     [](O o) -> Cell { return o.seconds; }, 0, 0, "s"},
    {"run", integer, scalar, measurement,
     "which invocation computed the point (0 = first run, 1 = first resume, ...); -1 pending", nullptr,
     [](O o) -> Cell { return o.run; }, -1},
    {"status", integer, scalar, measurement, "0 pending, 1 done, 2 failed; written after the point's data",
     nullptr, [](O o) -> Cell { return static_cast<std::int64_t>(o.status); },
     static_cast<std::int64_t>(PointStatus::pending), 0, "1", status_flags},
    {"top_eigenvalues", real, top_k, measurement,
     "the k largest eigenvalues of S per point, descending (points x k)", nullptr,
     [](O o) { return k_values(o, o.result ? &o.result->top_eigenvalues : nullptr); }},
    {"overlaps", real, top_k, measurement,
     "|u_j^T u|^2 of the eigenvectors of the top_eigenvalues with the signal direction u (points x k)",
     nullptr, [](O o) { return k_values(o, o.result ? &o.result->overlaps : nullptr); }},
    {"error", text, scalar, measurement,
     "message of a failed point (status 2), empty otherwise, kept whole; in the journal only until its run "
     "closes the file (docs/reliability.md); fixed 1024 bytes (256 in older files) in files of "
     "schema_version 1 and 2",
     nullptr, [](O o) -> Cell { return std::string(o.error); }, 0, variable_length},
};

constexpr auto pointers = [] {
  std::array<const Column*, std::size(table)> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = &table[i];
  return all;
}();

const Column& named(std::string_view name) {
  if (const Column* found = find_column(name)) return *found;
  throw std::logic_error("schema: no /points column " + std::string(name));
}

}  // namespace

const char* to_string(PointStatus status) noexcept {
  switch (status) {
    case PointStatus::unused:
      return "unused";
    case PointStatus::pending:
      return "pending";
    case PointStatus::done:
      return "done";
    case PointStatus::failed:
      return "failed";
  }
  return "unknown";
}

std::span<const Column* const> point_columns() { return pointers; }

const Column* find_column(std::string_view name) noexcept {
  for (const Column& c : table) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::size_t stored_width(const Column& c) {
  if (c.type != ColumnType::text || c.text_width == variable_length) return 0;
  return c.text_width;
}

std::string path_of(const Column& c) { return std::string(points_group) + "/" + std::string(c.name); }

std::vector<const Dimension*> dimensions_of(const Column& c) {
  if (c.shape == ColumnShape::top_k) return {&dimension::point, &dimension::k};
  return {&dimension::point};
}

namespace column {
const Column &delta = named("delta"), &gamma = named("gamma"), &snr = named("snr"),
             &weighting = named("weighting"), &trial = named("trial");
const Column &delta_index = named("delta_index"), &gamma_index = named("gamma_index"),
             &snr_index = named("snr_index"), &weighting_index = named("weighting_index"),
             &d_index = named("d_index"), &d = named("d");
const Column &top_eigenvalue = named("top_eigenvalue"), &overlap = named("overlap"),
             &ridge_accuracy = named("ridge_accuracy"), &seconds = named("seconds"), &run = named("run"),
             &status = named("status");
const Column &top_eigenvalues = named("top_eigenvalues"), &overlaps = named("overlaps"),
             &error = named("error");
const Column &solver = named("solver"), &operator_products = named("operator_products"),
             &solver_fell_back = named("solver_fell_back");
const Column &theory_finite_t_top_eigenvalue = named("theory_finite_t_top_eigenvalue"),
             &theory_finite_t_overlap = named("theory_finite_t_overlap"),
             &theory_finite_t_threshold_snr = named("theory_finite_t_threshold_snr"),
             &theory_finite_t_bulk_edge_right = named("theory_finite_t_bulk_edge_right");
}  // namespace column

namespace grid_axis {
const DatasetEntry d{"grid/d",
                     "values of the d axis (embedding dimension), in grid order (schema_version 2)"};
const DatasetEntry delta{"grid/delta", "values of the delta axis (d/V), in grid order"};
const DatasetEntry gamma{"grid/gamma", "values of the gamma axis (d/N), in grid order"};
const DatasetEntry snr{"grid/snr", "values of the snr axis (||mu||^2), in grid order"};
const DatasetEntry weighting{"grid/weighting", "the weightings of the sweep (canonical text), in grid order"};
const DatasetEntry trial{"grid/trial",
                         "trial numbers 0..trials-1 (independent draws; trial varies fastest in /points)"};
}  // namespace grid_axis

namespace points_dimension {
const DatasetEntry point{
    "points/point", "the point index of each row, 0..points-1: the coordinate of dimension point (xarray)"};
const DatasetEntry k{"points/k", "dimension k of the top_k columns (no values: netCDF-4 dimension only)"};
}  // namespace points_dimension

std::string spectra_eigenvalue_index_path(int d) { return spectra_group_of(d) + "/eigenvalue_index"; }
const std::string_view spectra_eigenvalue_index_description =
    "dimension of the d eigenvalues of each row, ascending (no values: netCDF-4 dimension only)";

const DatasetEntry spectra_eigenvalues{"spectra/eigenvalues",
                                       "all d eigenvalues of S per point, ascending (points x d)"};

std::string spectra_group_of(int d) { return std::string(spectra_group) + "/d" + std::to_string(d); }
std::string spectra_eigenvalues_path(int d) { return spectra_group_of(d) + "/eigenvalues"; }
std::string spectra_points_path(int d) { return spectra_group_of(d) + "/point"; }

const std::string_view spectra_eigenvalues_description =
    "all d eigenvalues of S for each point of this size, ascending (rows x d; row r is point /point[r])";
const std::string_view spectra_points_description =
    "the /points row (flattened index) of each row of eigenvalues, ascending";

}  // namespace rmtsweep::store
