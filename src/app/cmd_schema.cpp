// `rmtsweep schema [--markdown | --json]`: the sweep file's layout, from the schema tables the writers
// use (schema_doc.hpp). Plain: the /points columns as a Markdown table; --markdown: the whole of
// docs/schema.md (a test checks that the file is this output); --json: the /points columns and the
// /phase datasets for scripts (the h5py schema tests read it).
#include <boost/program_options.hpp>
#include <iostream>
#include <string>

#include "command_line.hpp"
#include "command_options.hpp"
#include "commands.hpp"
#include "point_options.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/store/schema.hpp"
#include "schema_doc.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {

int command_schema(int argc, char** argv) {
  bool help = false, json = false, markdown = false;
  po::options_description options;
  add_command_option(options, config::in_schema, "markdown", &markdown);
  add_command_option(options, config::in_schema, "json", &json);
  options.add_options()("help,h", po::bool_switch(&help), "this help");
  parse_command_line(argc, argv, options, "schema");
  if (help) {
    std::cout << help_text(
        "rmtsweep schema [--markdown | --json]",
        "The layout of a sweep file (schema_version " + std::to_string(store::schema_version) +
            "): its /points columns as a Markdown table, the whole file as a Markdown page "
            "(docs/schema.md), or JSON.",
        options);
    return 0;
  }
  if (json && markdown)
    throw InvalidOption::described("markdown", "", "--markdown and --json exclude each other: give one");
  if (json) {
    print_schema_json(std::cout);
  } else if (markdown) {
    print_schema_markdown(std::cout);
  } else {
    print_points_table(std::cout);
  }
  return 0;
}

}  // namespace rmtsweep::app
