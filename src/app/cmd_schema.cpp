// `rmtsweep schema [--markdown | --json]`: the /points columns of the sweep file, from the one
// schema table (include/rmtsweep/sweep/schema.hpp). The README's schema table is this command's
// Markdown output (a test checks that it is), and the h5py schema test reads its JSON.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "point_options.hpp"
#include "rmtsweep/sweep/schema.hpp"

namespace po = boost::program_options;

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

}  // namespace

int command_schema(int argc, char** argv) {
  bool help = false, json = false;
  po::options_description options(
      "Usage: rmtsweep schema [--json]\n\nThe /points columns of a sweep file (schema_version " +
      std::to_string(sweep::schema_version) + "): a Markdown table, or JSON");
  options.add_options()("json", po::bool_switch(&json), "print one JSON array")(
      "help,h", po::bool_switch(&help), "this help");
  parse_command_line(argc, argv, options, "schema");
  if (help) {
    std::cout << options << "\n";
    return 0;
  }
  if (json) {
    nlohmann::json columns = nlohmann::json::array();
    for (const sweep::Column* c : sweep::point_columns()) {
      columns.push_back({{"name", c->name},
                         {"type", type_text(c->type)},
                         {"shape", c->shape == sweep::ColumnShape::top_k ? "top_k" : "scalar"},
                         {"written", c->phase == sweep::ColumnPhase::parameter ? "parameter" : "measurement"},
                         {"description", c->description},
                         {"text_width", c->text_width}});
    }
    std::cout << nlohmann::json{{"schema_version", sweep::schema_version}, {"points", columns}}.dump()
              << "\n";
    return 0;
  }
  std::printf("| column | type | shape | written | description |\n|---|---|---|---|---|\n");
  for (const sweep::Column* c : sweep::point_columns()) {
    std::printf("| `%.*s` | %s%s | %s | %s | %s |\n", static_cast<int>(c->name.size()), c->name.data(),
                type_text(c->type), width_text(*c).c_str(), shape_text(c->shape), phase_text(c->phase),
                cell(c->description).c_str());
  }
  return 0;
}

}  // namespace rmtsweep::app
