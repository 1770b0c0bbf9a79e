// `rmtsweep merge OUT.h5 SHARD.h5...`: the shards of a sweep (`run --shard i/n`) combined into one sweep file
// (issue 15; include/rmtsweep/sweep/merge.hpp). Serial, as recover: rank 0 alone works.
//
// Exit status: 0 merged; 2 refused (a file of another sweep, overlaps, points done in no file without
// --allow-partial, an existing output without --force); 1 the output could not be written (nothing changed).
#include <mpi.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "option_errors.hpp"
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/sweep/merge.hpp"

namespace po = boost::program_options;

namespace rmtsweep::app {

int command_merge(int argc, char** argv) {
  sweep::MergeOptions options;
  bool help = false;
  po::options_description described(
      "Usage: rmtsweep merge OUT.h5 SHARD.h5... [--allow-partial] [--force]\n\nWrites OUT.h5, the sweep "
      "whose "
      "shards (`rmtsweep run --shard i/n`) the files SHARD.h5... hold, as one run of the whole sweep would: "
      "every point from the file that computed it. Refuses files of another config or version, a point done "
      "in "
      "two files, and points done in none (docs/cluster.md)");
  described.add_options()(
      "allow-partial", po::bool_switch(&options.allow_partial),
      "write OUT.h5 even where points are done in no file given (a shard missing or "
      "unfinished): those points pending, `rmtsweep run --resume` on OUT.h5 computes them")(
      "force", po::bool_switch(&options.force), "replace an existing OUT.h5")(
      "help,h", po::bool_switch(&help), "this help");
  po::options_description all;
  all.add(described).add_options()("files", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("files", -1);
  po::variables_map values;
  try {
    const auto style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).style(style).run(),
              values);
    po::notify(values);
  } catch (const po::error& e) {
    throw command_line_error(e, argc, argv, all, "see rmtsweep merge --help");
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (help) {
    if (rank == 0) std::printf("%s", (std::ostringstream() << described).str().c_str());
    return 0;
  }
  std::vector<std::string> files;
  if (values.count("files")) files = values["files"].as<std::vector<std::string>>();
  if (files.empty()) throw InvalidOption("output", "", "required: OUT.h5, then the shards' files");
  if (files.size() < 2)
    throw InvalidOption("shards", "",
                        "one or more sweep files of shards after OUT.h5 (rmtsweep run --shard i/n)");
  options.output = files.front();
  options.inputs.assign(files.begin() + 1, files.end());
  for (int i = 0; i < argc; ++i) options.command_line += (i ? " " : "rmtsweep ") + std::string(argv[i]);
  if (rank != 0) return 0;  // serial: rank 0 alone reads the shards and writes the file
  const sweep::MergeOutcome outcome = sweep::merge_sweeps(options);
  std::printf("%s: merged from %zu files: %lld of %lld points done, %lld failed, %lld pending\n",
              options.output.c_str(), options.inputs.size(), static_cast<long long>(outcome.done),
              static_cast<long long>(outcome.points), static_cast<long long>(outcome.failed),
              static_cast<long long>(outcome.pending));
  for (const std::string& note : outcome.notes) std::printf("note: %s\n", note.c_str());
  if (outcome.pending > 0 || outcome.failed > 0) {
    std::printf("`rmtsweep run --config ... --output %s --resume` computes the rest\n",
                options.output.c_str());
  }
  return 0;
}

}  // namespace rmtsweep::app
