// What assemble and refine say about a damaged sweep file (damage_text.hpp).
#include "damage_text.hpp"

#include "rmtsweep/common/index_list.hpp"

namespace rmtsweep::app {

std::string listed(const std::vector<std::int64_t>& items) {
  return std::string(" ").append(index_list(items));
}

std::string damage_refusal(const std::string& path, const assemble::DamagePlan& plan, bool skip_damaged,
                           const DamageWords& words) {
  if (!plan.refused(skip_damaged)) return {};
  std::string rows;
  if (!plan.points.empty()) rows += "/points (and /spectra) rows of points" + listed(plan.points);
  if (!plan.lines.empty())
    rows += std::string(rows.empty() ? "" : ", ") + "/lines rows of lines" + listed(plan.lines);
  const std::string status_hint = "`rmtsweep status " + path + "` names the damage and what repairs it";
  const std::string nothing(words.nothing);
  if (!plan.read_whole.empty()) {
    std::string names;
    for (const std::string& dataset : plan.read_whole) names += " " + dataset;
    return "checksums fail in the datasets" + names + (rows.empty() ? "" : " and in " + rows) + ", which " +
           std::string(words.reader) + " whole: " + nothing +
           " (--skip-damaged leaves out rows, not whole datasets); " + status_hint;
  }
  std::string refined;
  if (!plan.refined_points.empty()) refined += "/refine rows of refined points" + listed(plan.refined_points);
  if (!plan.refined_lines.empty())
    refined += std::string(refined.empty() ? "" : ", ") + "/refine/lines rows" + listed(plan.refined_lines);
  if (!refined.empty())
    return "checksums fail in " + refined + (rows.empty() ? "" : " and in " + rows) + ": " + nothing +
           " (--skip-damaged leaves out the grid's rows, not refined ones); no journal holds /refine, so "
           "nothing restores them: a copy of the file from before the damage, or /refine deleted and "
           "`rmtsweep refine` run again; " +
           status_hint;
  return "checksums fail in " + rows + ": " + nothing + "; " + status_hint + ", or `rmtsweep " +
         std::string(words.command) + " " + path + " --skip-damaged` " + std::string(words.without);
}

}  // namespace rmtsweep::app
