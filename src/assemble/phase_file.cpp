// Reading a sweep file for assembly and writing /phase (include/rmtsweep/assemble/phase_file.hpp).
#include "rmtsweep/assemble/phase_file.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "rmtsweep/common/error.hpp"
#include "rmtsweep/io/hdf5.hpp"
#include "rmtsweep/model/weighting.hpp"
#include "rmtsweep/sweep/sweep_reader.hpp"
#include "rmtsweep/version.hpp"

namespace rmtsweep::assemble {

namespace {

/// Ascending copy of an axis and, for each grid position, its position in that copy.
std::pair<std::vector<double>, std::vector<std::size_t>> ascending(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> sorted(values.size());
  std::vector<std::size_t> position(values.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    sorted[k] = values[order[k]];
    position[order[k]] = k;
  }
  return {sorted, position};
}

/// Writes a scalar attribute unless it already holds this value. HDF5 rewrites an object header
/// when an attribute is deleted and created again, so an unconditional write would change the
/// file's bytes even when nothing changed; this keeps a second assembly byte-identical.
void set_attribute(hid_t object, const std::string& name, const std::string& value) {
  if (io::has_attribute(object, name) && io::read_string_attribute(object, name) == value) return;
  io::write_attribute(object, name, value);
}
void set_attribute(hid_t object, const std::string& name, std::int64_t value) {
  if (io::has_attribute(object, name) && io::read_int_attribute(object, name) == value) return;
  io::write_attribute(object, name, value);
}

/// Writes /phase children deterministically and remembers which ones it wrote.
class PhaseWriter {
 public:
  explicit PhaseWriter(hid_t group) : group_(group) {}

  void put(const std::string& name, const std::vector<hsize_t>& dims, const std::vector<double>& values,
           const std::string& description) {
    io::Dataset set = reuse_or_create(name, dims, H5T_FLOAT, 8, [&] { return io::create_double_dataset(group_, name, dims); });
    io::write(set, values);
    set_attribute(set, "description", description);
  }
  void put(const std::string& name, const std::vector<hsize_t>& dims, const std::vector<std::int64_t>& values,
           const std::string& description) {
    io::Dataset set = reuse_or_create(name, dims, H5T_INTEGER, 8, [&] { return io::create_int_dataset(group_, name, dims); });
    io::write(set, values);
    set_attribute(set, "description", description);
  }
  void put(const std::string& name, const std::vector<std::string>& values, const std::string& description) {
    std::size_t width = 1;
    for (const auto& v : values) width = std::max(width, v.size());
    io::Dataset set = reuse_or_create(name, {values.size()}, H5T_STRING, width,
                                      [&] { return io::create_string_dataset(group_, name, values.size(), width); });
    io::write(set, values);
    set_attribute(set, "description", description);
  }

  /// Marks a child (a subgroup) as written, so remove_others keeps it.
  void keep(const std::string& name) { written_.insert(name); }

  /// Unlinks children that this run did not write (left by another version of assemble).
  void remove_others() {
    for (const auto& name : io::list_children(group_)) {
      if (!written_.count(name)) io::check(H5Ldelete(group_, name.c_str(), H5P_DEFAULT), "H5Ldelete");
    }
  }

 private:
  template <class Create>
  io::Dataset reuse_or_create(const std::string& name, const std::vector<hsize_t>& dims, H5T_class_t type_class,
                              std::size_t type_size, Create create) {
    written_.insert(name);
    if (io::exists(group_, name)) {
      io::Dataset set = io::open_dataset(group_, name);
      const io::Datatype type(io::check_id(H5Dget_type(set), "H5Dget_type"));
      if (io::shape(set) == dims && H5Tget_class(type) == type_class && H5Tget_size(type) == type_size) return set;
      set.reset();
      io::check(H5Ldelete(group_, name.c_str(), H5P_DEFAULT), "H5Ldelete");
    }
    return create();
  }

  hid_t group_;
  std::set<std::string> written_;
};

io::Group open_or_create_group(hid_t loc, const std::string& name) {
  return io::exists(loc, name) ? io::open_group(loc, name) : io::create_group(loc, name);
}

}  // namespace

SweepData read_sweep(const std::string& path) {
  const sweep::SweepReader reader(path);
  namespace column = sweep::column;
  SweepData data;
  data.config = reader.config();
  const auto& c = data.config;
  for (const auto& w : c.weighting) data.axes.weighting.push_back(model::to_string(w));
  const auto [delta, delta_position] = ascending(c.delta);
  const auto [gamma, gamma_position] = ascending(c.gamma);
  const auto [snr, snr_position] = ascending(c.snr);
  data.axes.delta = delta;
  data.axes.gamma = gamma;
  data.axes.snr = snr;

  const auto status = reader.status();
  const auto di = reader.integers(column::delta_index), gi = reader.integers(column::gamma_index);
  const auto si = reader.integers(column::snr_index), wi = reader.integers(column::weighting_index);
  const auto top = reader.reals(column::top_eigenvalue), overlap = reader.reals(column::overlap);
  const auto ridge = reader.reals(column::ridge_accuracy);
  data.total = static_cast<std::int64_t>(status.size());
  if (data.total != c.point_count()) {
    throw InvalidFile(path, "its /points hold " + std::to_string(data.total) + " points where its config has " +
                                std::to_string(c.point_count()));
  }
  const sweep::StatusCounts counts = sweep::count_status(status);
  data.done = counts.done;
  data.failed = counts.failed;
  for (std::size_t p = 0; p < status.size(); ++p) {
    if (status[p] != static_cast<std::int64_t>(sweep::PointStatus::done)) continue;
    data.points.push_back({static_cast<std::size_t>(wi[p]), delta_position.at(static_cast<std::size_t>(di[p])),
                           gamma_position.at(static_cast<std::size_t>(gi[p])),
                           snr_position.at(static_cast<std::size_t>(si[p])), top[p], overlap[p], ridge[p]});
  }
  data.pending = data.total - data.done - data.failed;
  return data;
}

void write_phase(const std::string& path, const SweepData& data, const PhaseTable& table, const TheoryTables& theory,
                 double margin) {
  const io::File file = io::open_file(path, io::Access::read_write);
  const io::Group phase = open_or_create_group(file, "phase");
  const Axes& a = data.axes;
  const hsize_t W = a.weighting.size(), D = a.delta.size(), G = a.gamma.size(), S = a.snr.size();
  const std::vector<hsize_t> cells{W, D, G, S}, lines{W, D, G};

  PhaseWriter out(phase);
  out.put("weighting", a.weighting, "weightings (canonical text), in grid order: axis 0 of the phase arrays");
  out.put("delta", {D}, a.delta, "delta = d/V, ascending: axis 1");
  out.put("gamma", {G}, a.gamma, "gamma = d/N, ascending: axis 2");
  out.put("snr", {S}, a.snr, "snr = ||mu||^2, ascending: axis 3");
  out.put("trials_done", cells, table.trials_done, "done trials in the cell (weighting, delta, gamma, snr)");
  out.put("overlap_mean", cells, table.overlap_mean, "trial mean of the measured overlap |u_hat^T u|^2");
  out.put("overlap_std", cells, table.overlap_std, "trial standard deviation (n - 1) of the overlap");
  out.put("top_eigenvalue_mean", cells, table.top_eigenvalue_mean, "trial mean of the top eigenvalue of S");
  out.put("top_eigenvalue_std", cells, table.top_eigenvalue_std, "trial standard deviation of the top eigenvalue");
  out.put("ridge_accuracy_mean", cells, table.ridge_accuracy_mean, "trial mean of the ridge test accuracy");
  out.put("ridge_accuracy_std", cells, table.ridge_accuracy_std, "trial standard deviation of the ridge accuracy");
  out.put("detected_fraction", cells, table.detected_fraction,
          "fraction of done trials whose top eigenvalue exceeds detection_threshold (empirical detection)");
  out.put("detection_threshold", cells, theory.detection_threshold,
          "right bulk edge (1 + c d^(-2/3)), c = attribute detection_margin_c: the empirical detection level");
  out.put("theory_overlap", cells, theory.overlap, "predicted overlap (model.md 5.2); 0 when not detectable");
  out.put("theory_top_eigenvalue", cells, theory.top_eigenvalue, "predicted top eigenvalue: lambda_S or the right edge");
  out.put("theory_detectable", cells, theory.detectable, "1 when theory predicts the sample outlier (F(s) > 0)");
  out.put("alpha", lines, theory.alpha, "alpha = w^T R w of the weighting (model.md 4)");
  out.put("kappa", lines, theory.kappa, "kappa = ||w||^2 of the weighting (model.md 4)");
  out.put("g", lines, theory.g, "g = alpha/kappa of the weighting (model.md 4)");
  out.put("theory_bulk_edge_left", lines, theory.bulk_edge_left, "left edge of the continuous bulk (model.md 5.1)");
  out.put("theory_bulk_edge_right", lines, theory.bulk_edge_right, "right edge of the bulk (model.md 5.1)");
  out.put("theory_pop_threshold_snr", lines, theory.pop_threshold_snr, "population threshold in snr, clipped at 0");
  out.put("theory_sample_threshold_snr", lines, theory.sample_threshold_snr, "sample threshold in snr, clipped at 0");
  out.put("empirical_threshold_snr", lines, table.empirical_threshold_snr,
          "snr where detected_fraction first crosses 1/2 (linear interpolation); NaN unless bracketed");
  out.put("empirical_threshold_bracket", lines, table.empirical_threshold_bracket,
          "0 crossing found; -1 detected fraction >= 1/2 already at the smallest snr; +1 never reaches 1/2 "
          "(every cell has done trials); 2 undetermined: a cell the crossing depends on has no done trial");

  const io::Group theory_group = open_or_create_group(phase, "theory");
  {
    PhaseWriter curves(theory_group);
    const hsize_t K = theory.snr_fine.size(), Kd = theory.delta_fine.size(), Kg = theory.gamma_fine.size();
    const hsize_t Kx = W * D * G == 0 ? 0 : theory.density.size() / (W * D * G);
    curves.put("snr", {K}, theory.snr_fine, "fine snr axis of the theory curves");
    curves.put("overlap", {W, D, G, K}, theory.overlap_fine, "predicted overlap along the fine snr axis");
    curves.put("top_eigenvalue", {W, D, G, K}, theory.top_eigenvalue_fine, "predicted top eigenvalue along fine snr");
    curves.put("delta", {Kd}, theory.delta_fine, "fine delta axis of the threshold curves");
    curves.put("pop_threshold_snr_vs_delta", {W, G, Kd}, theory.pop_threshold_vs_delta,
               "population threshold snr along fine delta, per (weighting, gamma)");
    curves.put("sample_threshold_snr_vs_delta", {W, G, Kd}, theory.sample_threshold_vs_delta,
               "sample threshold snr along fine delta, per (weighting, gamma)");
    curves.put("gamma", {Kg}, theory.gamma_fine, "fine gamma axis of the threshold curves");
    curves.put("pop_threshold_snr_vs_gamma", {W, D, Kg}, theory.pop_threshold_vs_gamma,
               "population threshold snr along fine gamma, per (weighting, delta)");
    curves.put("sample_threshold_snr_vs_gamma", {W, D, Kg}, theory.sample_threshold_vs_gamma,
               "sample threshold snr along fine gamma, per (weighting, delta)");
    curves.put("density_x", {W, D, G, Kx}, theory.density_x, "eigenvalue x where the bulk density is given");
    curves.put("density", {W, D, G, Kx}, theory.density,
               "density f(x) of the continuous bulk kappa (MP_delta [x] MP_gamma) of S (model.md 5.1)");
    curves.remove_others();
  }
  // Values that change between assemblies are datasets, rewritten in place: deleting and
  // recreating an attribute would change the object header's bytes even when the value returns.
  out.put("detection_margin_c", {1}, std::vector<double>{margin}, "c of the detection rule (see detection_threshold)");
  out.put("points", {3}, std::vector<std::int64_t>{data.total, data.done, data.failed},
          "points of the sweep when assembled: total, done, failed");
  out.keep("theory");
  out.remove_others();
  set_attribute(phase, "description",
                      "phase tables of the sweep written by `rmtsweep assemble` (README, HDF5 schema)");
  set_attribute(phase, "detection_rule",
                      std::string("detected iff top eigenvalue > right_edge * (1 + c * d^(-2/3))"));
  set_attribute(phase, "d", static_cast<std::int64_t>(data.config.d));
  set_attribute(phase, "assembled_by", std::string("rmtsweep ") + rmtsweep::version);
}

}  // namespace rmtsweep::assemble
