#pragma once
/// docs/schema.md, the sweep file's layout for users: printed by `rmtsweep schema --markdown`. Its
/// tables come from the tables the writers use (/grid and /points: store/schema.hpp; /phase:
/// assemble/phase_schema.hpp, with the shapes below), so the document follows the code
/// (test_docs_schema checks that docs/schema.md is this output, and that /phase of an assembled
/// file holds exactly phase_layout()).
#include <ostream>
#include <string_view>
#include <vector>

#include "rmtsweep/assemble/phase_schema.hpp"

namespace rmtsweep::app {

/// One dataset of /phase as documented: the group it is in ("phase", "phase/theory" or
/// "phase/detection/<rule>", written once for every rule) and its entry, whose dimensions (slowest
/// first) are the dimension names of its axes.
struct PhaseDataset {
  std::string_view group;
  const assemble::PhaseEntry* entry;
  std::vector<std::string_view> dims() const {
    std::vector<std::string_view> names;
    for (std::size_t axis = 0; axis < entry->dims.rank(); ++axis) names.push_back(entry->dims[axis].name);
    return names;
  }
};

/// Every dataset `rmtsweep assemble` writes under /phase, in the order of the document.
const std::vector<PhaseDataset>& phase_layout();

/// The /points columns as a Markdown table (`rmtsweep schema`).
void print_points_table(std::ostream& out);

/// The /points columns and the /phase datasets as one JSON object (`rmtsweep schema --json`).
void print_schema_json(std::ostream& out);

/// The whole of docs/schema.md (`rmtsweep schema --markdown`).
void print_schema_markdown(std::ostream& out);

}  // namespace rmtsweep::app
