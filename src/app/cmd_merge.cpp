// `rmtsweep merge OUT.h5 SHARD.h5...`: the shards of a sweep (`run --shard i/n`) combined into one sweep file
// (include/rmtsweep/store/merge.hpp). Serial, as recover: rank 0 alone works.
//
// Exit status: 0 merged; 2 refused (a file of another sweep, overlaps, points done in no file without
// --allow-partial, an existing output without --force); 1 the output could not be written (nothing changed).
#include <mpi.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "command_options.hpp"
#include "commands.hpp"
#include "option_errors.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/store/merge.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {

int command_merge(int argc, char** argv) {
  store::MergeOptions merge;
  bool help = false;
  po::options_description options;
  options.add_options()("files", po::value<std::vector<std::string>>(),
                        "OUT.h5, the file to write, then the shards' sweep files");
  add_command_option(options, config::in_merge, "allow-partial", &merge.allow_partial);
  add_command_option(options, config::in_merge, "force", &merge.force);
  options.add_options()("help,h", po::bool_switch(&help), "this help");
  po::positional_options_description positional;
  positional.add("files", -1);
  po::variables_map values;
  CanonicalArgs canonical(argc, argv, options);
  try {
    const auto style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(canonical.argc(), canonical.argv())
                  .options(options)
                  .positional(positional)
                  .style(style)
                  .run(),
              values);
    po::notify(values);
  } catch (const po::error& e) {
    throw command_line_error(e, canonical.argc(), canonical.argv(), options, "see rmtsweep merge --help");
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (help) {
    if (rank == 0) {
      std::printf("%s",
                  help_text("rmtsweep merge OUT.h5 SHARD.h5... [options]",
                            "Writes OUT.h5, the sweep whose shards (`rmtsweep run --shard i/n`) the files "
                            "SHARD.h5... hold, as one run of the whole sweep would: every point from the "
                            "file that computed it. Refuses files of another config or version, a point "
                            "done in two files, and points done in none (docs/cluster.md).",
                            options, {{"files", "OUT.h5 SHARD.h5..."}})
                      .c_str());
    }
    return 0;
  }
  std::vector<std::string> files;
  if (values.count("files")) files = values["files"].as<std::vector<std::string>>();
  if (files.empty()) throw InvalidOption("output", "", "required: OUT.h5, then the shards' files");
  if (files.size() < 2)
    throw InvalidOption("shards", "",
                        "one or more sweep files of shards after OUT.h5 (rmtsweep run --shard i/n)");
  merge.output = files.front();
  merge.inputs.assign(files.begin() + 1, files.end());
  for (int i = 0; i < argc; ++i) merge.command_line += (i ? " " : "rmtsweep ") + std::string(argv[i]);
  if (rank != 0) return 0;  // serial: rank 0 alone reads the shards and writes the file
  const store::MergeOutcome outcome = store::merge_sweeps(merge);
  std::printf("%s: merged from %zu files: %lld of %lld points done, %lld failed, %lld pending\n",
              merge.output.c_str(), merge.inputs.size(), static_cast<long long>(outcome.done),
              static_cast<long long>(outcome.points), static_cast<long long>(outcome.failed),
              static_cast<long long>(outcome.pending));
  for (const std::string& note : outcome.notes) std::printf("note: %s\n", note.c_str());
  if (outcome.pending > 0 || outcome.failed > 0) {
    std::printf("`rmtsweep run --config ... --output %s --resume` computes the rest\n", merge.output.c_str());
  }
  return 0;
}

}  // namespace rmtsweep::app
