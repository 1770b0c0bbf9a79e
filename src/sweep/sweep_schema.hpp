#pragma once
// The columns of /points: names (a contract, issue 3), types and descriptions. Internal to
// src/sweep (sweep_file.cpp, sweep_schema.cpp).
#include <string>
#include <vector>

namespace rmtsweep::sweep::detail {

enum class ColumnType { real, integer, text };

struct Column {
  const char* name;
  ColumnType type;
  const char* description;
};

/// Columns known before any point runs (parameters, theory), written at creation.
const std::vector<Column>& parameter_columns();
/// Columns written when a point finishes (measurements; status last).
const std::vector<Column>& measurement_columns();

}  // namespace rmtsweep::sweep::detail
