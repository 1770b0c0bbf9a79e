// A config file as editors and users write it: a UTF-8 byte order mark at its start, Windows (CR-LF) and
// classic Mac OS (CR) line ends are read as the keys they hold; a file that sets no key, a value that is
// not a finite number, a log: range through 0 and an axis too long for the config the file stores are
// refused up front (exit 2, nothing written) saying what is wrong. `run` is started alone (a singleton MPI
// rank, as `rmtsweep run` without mpirun): a refusal comes before any rank would matter, and a launch takes
// under a second so.
#include "sweep_test_support.hpp"

namespace rmtsweep::test {
namespace {

namespace fs = std::filesystem;

/// rmtsweep run ARGS, alone (no mpirun).
Finished run_alone(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> command{"timeout", "60", RMTSWEEP_BINARY, "run"};
  command.insert(command.end(), args.begin(), args.end());
  return run(command, log);
}

/// `run --plan` of the config file `text`: what it plans (exit 0), or its refusal.
Finished plan_of(const TempDir& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir / name, std::ios::binary) << text;
  return run_alone({"--config", dir / name, "--output", dir / (name + ".h5"), "--plan"},
                   dir / (name + ".log"));
}

void expect_refused(const Finished& done, const std::string& text) {
  EXPECT_EQ(done.exit_code, 2) << done.output;
  EXPECT_TRUE(contains(done.output, text)) << done.output;
  EXPECT_EQ(lines_of(done.output).size(), 1u) << done.output;
}

// A byte order mark was taken as part of the first key ("unrecognised option '\xEF\xBB\xBFd'", shown as an
// invisible character); CR-only line ends made the whole file the value of its first key.
TEST(ConfigFile, AByteOrderMarkAndCrLfOrCrLineEndsAreReadAsTheKeysTheyHold) {
  const TempDir dir;
  const std::string keys[] = {"d = 40", "snr = 0,1,2", "T = 4", "# a comment", "trials = 2"};
  const auto joined = [&](const std::string& end) {
    std::string text;
    for (const std::string& line : keys) text += line + end;
    return text;
  };
  for (const auto& [name, text] :
       std::vector<std::pair<std::string, std::string>>{{"bom.ini", "\xEF\xBB\xBF" + joined("\n")},
                                                        {"crlf.ini", joined("\r\n")},
                                                        {"cr.ini", joined("\r")},
                                                        {"bom_cr.ini", "\xEF\xBB\xBF" + joined("\r")}}) {
    const Finished plan = plan_of(dir, name, text);
    EXPECT_EQ(plan.exit_code, 0) << name << ": " << plan.output;
    EXPECT_TRUE(contains(plan.output, "rmtsweep run --plan: 6 points")) << name << ": " << plan.output;
  }
  // A byte order mark anywhere else is no line end's business: still said, as the character it is.
  const Finished inside = plan_of(dir, "inside.ini", "d = 40\n\xEF\xBB\xBFsnr = 1\n");
  EXPECT_EQ(inside.exit_code, 2) << inside.output;
}

// An empty config, or one of comments only, ran the default sweep: one point nobody asked for.
TEST(ConfigFile, AConfigThatSetsNoKeysIsRefused) {
  const TempDir dir;
  for (const auto& [name, text] :
       std::vector<std::pair<std::string, std::string>>{{"empty.ini", ""},
                                                        {"comments.ini", "# d = 40\n\n   \n# snr = 1\n"},
                                                        {"bom_only.ini", "\xEF\xBB\xBF"}}) {
    std::ofstream(dir / name, std::ios::binary) << text;
    const Finished refused =
        run_alone({"--config", dir / name, "--output", dir / (name + ".h5")}, dir / (name + ".log"));
    expect_refused(refused, "rmtsweep run: invalid --config '" + dir / name + "': the config " + dir / name +
                                " sets no keys (it is empty, or holds only comments and blank lines)");
    EXPECT_FALSE(fs::exists(dir / (name + ".h5"))) << name;
    EXPECT_FALSE(fs::exists(dir / (name + ".h5.journal"))) << name;
  }
}

// nan, inf and 1e999 got the axis's syntax message; a log: range through 0 the same.
TEST(ConfigFile, ANonFiniteValueOrALogRangeEndNotAboveZeroIsNamed) {
  const TempDir dir;
  const std::string output = dir / "never.h5";
  expect_refused(run_alone({"--output", output, "--snr", "nan"}, dir / "nan.log"),
                 "rmtsweep run: invalid --snr 'nan': is not a finite number; allowed: a list a,b,c");
  expect_refused(run_alone({"--output", output, "--snr", "0,1,inf"}, dir / "inf.log"),
                 "rmtsweep run: invalid --snr '0,1,inf': 'inf' is not a finite number; allowed:");
  expect_refused(
      run_alone({"--output", output, "--delta", "0.5:1e999:3"}, dir / "huge.log"),
      "invalid --delta '0.5:1e999:3': '1e999' is not a finite number: beyond the range of a double");
  expect_refused(run_alone({"--output", output, "--snr", "log:0:10:4"}, dir / "log0.log"),
                 "invalid --snr 'log:0:10:4': the log: range's start 0 is not > 0 (log:start:stop:count "
                 "steps evenly in log10, so both ends must be > 0; for a range through 0 use "
                 "start:stop:count)");
  expect_refused(run_alone({"--output", output, "--gamma", "log:0.1:-1:4"}, dir / "logneg.log"),
                 "invalid --gamma 'log:0.1:-1:4': the log: range's stop -1 is not > 0");
  std::ofstream(dir / "ridge.ini") << "d = 40\nridge = inf\n";
  expect_refused(run_alone({"--config", dir / "ridge.ini", "--output", output}, dir / "ridge.log"),
                 "invalid --ridge 'inf': is not a finite number");
  EXPECT_FALSE(fs::exists(output));
}

// The axis cap said was 1 000 000 values, while the file's 64 000-byte config attribute refused far fewer
// after the range was parsed: the cap is now what can fit (two bytes a value at least), and the config's
// size is the limit said for what fits the cap but not the attribute.
TEST(ConfigFile, AnAxisIsBoundedByTheConfigTheFileStoresAndSaysSo) {
  const TempDir dir;
  const std::string output = dir / "never.h5";
  expect_refused(run_alone({"--output", output, "--snr", "0:1:40000"}, dir / "cap.log"),
                 "invalid --snr '0:1:40000': allowed: a list a,b,c, a range start:stop:count or "
                 "log:start:stop:count (1 <= count <= 32000, distinct values; every axis written out fits in "
                 "the 64000-byte config the file stores)");
  const Finished too_long = run_alone({"--output", output, "--snr", "0:1:20000"}, dir / "long.log");
  expect_refused(too_long,
                 "invalid --snr '0:1:20000': allowed: fewer values; the resolved config (every axis "
                 "value written out) is ");
  EXPECT_TRUE(contains(too_long.output, " bytes, at most 64000 fit in the file's config attribute"))
      << too_long.output;
  EXPECT_FALSE(fs::exists(output));
  const Finished fits =
      run_alone({"--output", output, "--d", "40", "--snr", "0:9999:10000", "--plan"}, dir / "fits.log");
  EXPECT_EQ(fits.exit_code, 0) << fits.output;
}

}  // namespace
}  // namespace rmtsweep::test
