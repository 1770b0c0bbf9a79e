// Every command speaks one command-line style (src/app/command_line.hpp): kebab-case options, the
// underscore spellings of before as hidden aliases, one --help format, --version after a command.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../assemble/command.hpp"
#include "temp_dir.hpp"

using rmtsweep::test::run_rmtsweep;

namespace {

const std::vector<std::string> commands = {"theory", "point",   "run",   "status", "assemble",
                                           "refine", "recover", "merge", "plot",   "schema"};

/// A small sweep's plan (nothing computed, nothing written) with `options` added.
std::string plan_with(const std::string& options) {
  const auto result = run_rmtsweep("run --plan --d 20 --snr 1,2 " + options);
  EXPECT_EQ(result.status, 0) << result.output;
  return result.output;
}

}  // namespace

TEST(CliStyle, RunTakesEveryMultiWordKeyInKebabCaseAndInItsOldUnderscoreSpelling) {
  const std::string kebab = plan_with("--store-spectra true --ranks-per-point 1");
  EXPECT_EQ(plan_with("--store_spectra true --ranks_per_point 1"), kebab);
  EXPECT_EQ(plan_with("--store-spectra=true --ranks_per_point=1"), kebab);
  // The value is taken, not just the spelling: storing no spectra plans a smaller file.
  EXPECT_NE(plan_with("--store_spectra false"), kebab);
}

TEST(CliStyle, TheTwoSpellingsOfOneOptionAreOneOption) {
  const auto result = run_rmtsweep("run --plan --d 20 --store_spectra true --store-spectra false");
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.output.find("--store-spectra given twice"), std::string::npos) << result.output;
}

TEST(CliStyle, AConfigFileKeepsItsUnderscoreKeysAndTheCommandLineWins) {
  const rmtsweep::test::ScratchDir dir("rmtsweep_cli_style");
  rmtsweep::test::write_text(dir / "sweep.ini", "d = 20\nsnr = 1,2\nstore_spectra = false\n");
  const std::string config = "--config " + (dir / "sweep.ini").string();
  EXPECT_EQ(plan_with(config), plan_with("--store-spectra false"));
  EXPECT_EQ(plan_with(config + " --store-spectra true"), plan_with("--store-spectra true"));
}

TEST(CliStyle, EveryCommandsOtherMultiWordOptionsTakeTheUnderscoreSpellingToo) {
  const auto point = run_rmtsweep("point --d 20 --force_memory --force_ntest --json");
  EXPECT_EQ(point.status, 0) << point.output;
  // status and refine refuse the missing file, not the option.
  for (const auto& [kebab, underscore] : std::vector<std::pair<std::string, std::string>>{
           {"status /nonexistent.h5 --no-verify", "status /nonexistent.h5 --no_verify"},
           {"refine /nonexistent.h5 --max-points 5", "refine /nonexistent.h5 --max_points 5"},
           {"merge /tmp/out.h5 /nonexistent.h5 --allow-partial",
            "merge /tmp/out.h5 /nonexistent.h5 --allow_partial"}}) {
    const auto expected = run_rmtsweep(kebab), given = run_rmtsweep(underscore);
    EXPECT_EQ(given.status, expected.status) << underscore;
    EXPECT_EQ(given.output, expected.output) << underscore;
    EXPECT_EQ(given.output.find("unknown option"), std::string::npos) << given.output;
  }
}

TEST(CliStyle, EveryCommandsHelpHasOneFormatWithinOneHundredColumns) {
  for (const std::string& command : commands) {
    const auto result = run_rmtsweep(command + " --help");
    EXPECT_EQ(result.status, 0) << command << ": " << result.output;
    EXPECT_EQ(result.output.rfind("usage: rmtsweep " + command, 0), 0u) << result.output;
    std::istringstream lines(result.output);
    for (std::string line; std::getline(lines, line);) {
      EXPECT_LE(line.size(), 100u) << command << ": " << line;
    }
  }
}

TEST(CliStyle, EveryCommandsHelpListsItsOptionsAsArgparseDoesPlotsIncluded) {
  for (const std::string& command : commands) {
    const auto result = run_rmtsweep(command + " --help");
    EXPECT_NE(result.output.find("\noptions:\n"), std::string::npos) << command << ": " << result.output;
    EXPECT_EQ(result.output.find("[ --"), std::string::npos) << "Boost's '-h [ --help ]': " << result.output;
    EXPECT_TRUE(std::regex_search(result.output, std::regex("\n  -h, --help +this help\n"))) << result.output;
    EXPECT_EQ(result.output.find("(default:"), std::string::npos)
        << "argparse's '(default: X)': " << result.output;
  }
}

TEST(CliStyle, AFileMissingOrRefusedIsSaidAsTheFileArgumentNeverAsAHiddenOption) {
  const auto missing = run_rmtsweep("status");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(
      missing.output.find("rmtsweep status: the file argument is missing: the sweep's HDF5 file (usage: "
                          "rmtsweep status FILE.h5"),
      std::string::npos)
      << missing.output;
  for (const std::string command : {"status", "assemble", "refine", "recover"}) {
    EXPECT_EQ(run_rmtsweep(command).output.find("--file"), std::string::npos) << command;
    const auto refused = run_rmtsweep(command + " /nonexistent/x.h5");
    EXPECT_EQ(refused.status, 2) << refused.output;
    EXPECT_EQ(refused.output.find("--file"), std::string::npos) << refused.output;
  }
}

TEST(CliStyle, AnUnknownConfigKeyListsTheKeysButNotTheTestOnlyOnes) {
  const rmtsweep::test::TempDir dir;
  std::ofstream(dir / "bad.ini") << "d = 20\nno_such_key = 1\n";
  const auto result = run_rmtsweep("run --plan --config " + dir / "bad.ini");
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.output.find("allowed keys: d T delta"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("fail"), std::string::npos) << result.output;
}

TEST(CliStyle, AFileCommandShowsItsFileAsAPositionalArgument) {
  for (const std::string command : {"status", "assemble", "refine", "recover", "plot"}) {
    const auto result = run_rmtsweep(command + " --help");
    EXPECT_NE(result.output.find("positional arguments:\n  FILE.h5"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("--file"), std::string::npos) << result.output;
  }
  const auto merge = run_rmtsweep("merge --help");
  EXPECT_NE(merge.output.find("positional arguments:\n  OUT.h5 SHARD.h5..."), std::string::npos)
      << merge.output;
  EXPECT_EQ(merge.output.find("--files"), std::string::npos) << merge.output;
}

TEST(CliStyle, TestOnlyFaultInjectionIsAcceptedButNotShown) {
  const auto help = run_rmtsweep("run --help");
  EXPECT_EQ(help.output.find("fail"), std::string::npos) << help.output;
  EXPECT_EQ(plan_with("--fail-points 0"), plan_with("--fail_points 0"));
  const auto unknown = run_rmtsweep("run --plan --no-such-option 1");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("--store-spectra"), std::string::npos) << unknown.output;
  EXPECT_EQ(unknown.output.find("fail"), std::string::npos) << unknown.output;
}

TEST(CliStyle, VersionIsListedAndAcceptedAfterACommand) {
  const auto version = run_rmtsweep("--version");
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.output.rfind("rmtsweep ", 0), 0u) << version.output;
  EXPECT_EQ(run_rmtsweep("run --version").output, version.output);
  EXPECT_EQ(run_rmtsweep("status --version").output, version.output);
  EXPECT_NE(run_rmtsweep("--help").output.find("--version"), std::string::npos);
}
