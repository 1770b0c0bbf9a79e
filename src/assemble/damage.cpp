// What assemble and refine do with a sweep file's damage (include/rmtsweep/assemble/damage.hpp).
#include "rmtsweep/assemble/damage.hpp"

#include "rmtsweep/common/index_list.hpp"

namespace rmtsweep::assemble {
namespace {

/// Whether the dataset `path` is read as a whole (a damaged one has no rows to leave out): /points' columns
/// but the messages (error) and the dimensions (point, k), and each size's /lines/d<d>/line (which line each
/// row is).
bool read_whole(const std::string& path) {
  if (path.starts_with("/lines/")) return true;
  return path.starts_with("/points/") && path != "/points/error" && path != "/points/point" &&
         path != "/points/k";
}

}  // namespace

std::string listed(const std::vector<std::int64_t>& items) {
  // Appended: GCC 12 misreads " " + std::string as overlapping copies.
  return std::string(" ").append(index_list(items));
}

DamageDecision judge_damage(const std::string& path, const store::ChecksumReport& report, bool skip_damaged,
                            const DamageReader& reader) {
  DamageDecision decision;
  std::vector<std::string> whole;
  for (const std::string& dataset : report.damaged_datasets) {
    if (dataset.starts_with("/phase/"))
      decision.phase_datasets.push_back(dataset);
    else
      (read_whole(dataset) ? whole : decision.unread_datasets).push_back(dataset);
  }
  std::string rows;
  if (!report.damaged_points.empty())
    rows += "/points (and /spectra) rows of points" + listed(report.damaged_points);
  if (!report.damaged_lines.empty())
    rows += std::string(rows.empty() ? "" : ", ") + "/lines rows of lines" + listed(report.damaged_lines);
  const std::string status_hint = "`rmtsweep status " + path + "` names the damage and what repairs it";
  const std::string nothing(reader.nothing);
  if (!whole.empty()) {
    std::string names;
    for (const std::string& dataset : whole) names += " " + dataset;
    decision.refusal = "checksums fail in the datasets" + names + (rows.empty() ? "" : " and in " + rows) +
                       ", which " + std::string(reader.reader) + " read" +
                       (reader.reader == "refine" ? "s" : "") + " whole: " + nothing +
                       " (--skip-damaged leaves out rows, not whole datasets); " + status_hint;
    return decision;
  }
  std::string refined;
  if (!report.damaged_refined_points.empty())
    refined += "/refine rows of refined points" + listed(report.damaged_refined_points);
  if (!report.damaged_refined_lines.empty())
    refined += std::string(refined.empty() ? "" : ", ") + "/refine/lines rows" +
               listed(report.damaged_refined_lines);
  if (!refined.empty()) {
    decision.refusal = "checksums fail in " + refined + (rows.empty() ? "" : " and in " + rows) + ": " +
                       nothing +
                       " (--skip-damaged leaves out the grid's rows, not refined ones); no journal holds "
                       "/refine, so nothing restores them: a copy of the file from before the damage, or "
                       "/refine deleted and `rmtsweep refine` run again; " +
                       status_hint;
    return decision;
  }
  if (rows.empty()) return decision;
  if (!skip_damaged) {
    decision.refusal = "checksums fail in " + rows + ": " + nothing + "; " + status_hint + ", or `rmtsweep " +
                       std::string(reader.command) + " " + path + " --skip-damaged` " +
                       std::string(reader.without);
    return decision;
  }
  decision.left_out.points.insert(report.damaged_points.begin(), report.damaged_points.end());
  decision.left_out.lines.insert(report.damaged_lines.begin(), report.damaged_lines.end());
  return decision;
}

}  // namespace rmtsweep::assemble
