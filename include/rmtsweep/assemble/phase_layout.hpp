#pragma once
/// The layout of /phase: every dataset `rmtsweep assemble` writes, in order, with its group and where its
/// values come from. One list, the one owner of what /phase holds: the writer (phase_file.hpp: write_phase)
/// iterates it, `rmtsweep schema` prints it into docs/schema.md, and test_docs_schema checks an assembled
/// file against that. Adding a dataset: its PhaseEntry (phase_schema.hpp) and one row here.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rmtsweep/assemble/phase_file.hpp"
#include "rmtsweep/assemble/phase_schema.hpp"

namespace rmtsweep::assemble {

/// What the datasets of /phase are written from: the tables of one assembly and, for a rule's statistics,
/// the rule of the group being written (at the top of /phase the default rule's: defaults.rules and
/// defaults.refined; in /phase/detection/<rule> that rule's table and its refined table).
struct PhaseSources {
  const SweepData& data;
  const PhaseTable& table;
  const TheoryTables& theory;
  const FiniteTTable& finite_t;
  double margin;
  const DefaultTables& defaults;
  const RuleTable& rule;
  const RefinedTable& refined;
};

/// A dataset's values: numbers, integers or texts, or the size of a dimension without values.
using PhaseValues =
    std::variant<std::vector<double>, std::vector<std::int64_t>, std::vector<std::string>, std::uint64_t>;

/// The groups of /phase: /phase itself, /phase/theory (the fine theory curves) and /phase/detection/<rule>,
/// written once for every rule.
enum class PhaseGroup { top, theory, rule };

/// One dataset of /phase: its group, its entry (name, description, dimensions, units) and its values.
struct PhaseDataset {
  PhaseGroup group;
  const PhaseEntry* entry;
  PhaseValues (*values)(const PhaseSources&);
  /// "phase", "phase/theory" or "phase/detection/<rule>".
  std::string_view group_path() const noexcept;
  /// The dimension names of its axes, slowest first.
  std::vector<std::string_view> dims() const;
};

/// Every dataset of /phase, in the order it is written and documented: /phase's own (its coordinates
/// first: the others take their shapes from them), /phase/theory's, then those of a rule's group.
const std::vector<PhaseDataset>& phase_layout();

}  // namespace rmtsweep::assemble
