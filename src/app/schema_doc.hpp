#pragma once
/// docs/schema.md, the sweep file's layout for users: printed by `rmtsweep schema --markdown`. Its
/// tables come from the tables the writers use (/grid and /points: store/schema.hpp; /phase:
/// assemble/phase_layout.hpp, the list its writer iterates), so the document follows the code
/// (test_docs_schema checks that docs/schema.md is this output, and that /phase of an assembled
/// file holds exactly what it lists).
#include <ostream>

namespace rmtsweep::app {

/// The /points columns as a Markdown table (`rmtsweep schema`).
void print_points_table(std::ostream& out);

/// The /points columns and the /phase datasets as one JSON object (`rmtsweep schema --json`).
void print_schema_json(std::ostream& out);

/// The whole of docs/schema.md (`rmtsweep schema --markdown`).
void print_schema_markdown(std::ostream& out);

}  // namespace rmtsweep::app
