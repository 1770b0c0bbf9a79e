// `rmtsweep run`'s arguments (src/app/sweep_options.hpp): the command line over the INI file, and each way a
// command line or a config file is refused, said as the user wrote it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "rejection.hpp"
#include "rmtsweep/common/error.hpp"
#include "sweep_options.hpp"

using rmtsweep::InvalidOption;
using rmtsweep::test::rejection;

namespace {

TEST(RunArguments, TheCommandLineWinsOverTheConfigFile) {
  const std::string path = testing::TempDir() + "rmtsweep_run_arguments.ini";
  std::ofstream(path) << "# comment\nd = 120\nsnr = 0,1\nseed = 4\n";
  std::vector<std::string> words{"run", "--config", path, "--output", "x.h5", "--seed", "9", "--resume"};
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  const rmtsweep::app::RunArguments args =
      rmtsweep::app::parse_run_arguments(static_cast<int>(argv.size()), argv.data());
  EXPECT_EQ(args.values.at("seed"), "9");
  EXPECT_EQ(args.values.at("d"), "120");
  EXPECT_EQ(args.values.at("snr"), "0,1");
  EXPECT_TRUE(args.resume);
  EXPECT_FALSE(args.force);
  EXPECT_EQ(args.output, "x.h5");
  std::remove(path.c_str());
}

/// The InvalidOption parse_run_arguments throws for `words` (argv without "run").
InvalidOption run_rejection(std::vector<std::string> words) {
  words.insert(words.begin(), "run");
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  return rejection(
      [&] { (void)rmtsweep::app::parse_run_arguments(static_cast<int>(argv.size()), argv.data()); });
}

TEST(RunArguments, AnUnknownOptionIsCalledUnknownNotInvalid) {
  const InvalidOption e = run_rejection({"--foo", "1", "--output", "x.h5"});
  EXPECT_EQ(e.option(), "foo");
  EXPECT_EQ(std::string(e.what()).rfind("unknown option '--foo'; allowed: --config, --output, --resume", 0),
            0u)
      << e.what();
  EXPECT_EQ(std::string(e.what()).find("invalid"), std::string::npos) << e.what();
}

TEST(RunArguments, AnOptionGivenTwiceIsCalledSoWithBothValuesAsTyped) {
  const InvalidOption e = run_rejection({"--snr", "0:1:3", "--output", "x.h5", "--snr", "log:1:10:2"});
  EXPECT_EQ(e.option(), "snr");
  EXPECT_EQ(e.value(), "log:1:10:2");
  EXPECT_EQ(std::string(e.what()),
            "--snr given twice ('0:1:3' and 'log:1:10:2'): give it once (see rmtsweep run --help)");
  EXPECT_EQ(std::string(run_rejection({"--force", "--force"}).what()),
            "--force given twice: give it once (see rmtsweep run --help)");
}

TEST(RunArguments, AnAbbreviatedOptionIsNotGuessed) {
  const InvalidOption e = run_rejection({"--out", "x.h5", "--output", "y.h5"});
  EXPECT_EQ(e.option(), "out");
  EXPECT_EQ(std::string(e.what()).rfind("unknown option '--out'", 0), 0u) << e.what();
}

TEST(RunArguments, ABareWordIsRefusedInsteadOfIgnored) {
  const InvalidOption e = run_rejection({"x.h5", "--d", "20"});
  EXPECT_EQ(e.value(), "x.h5");
  EXPECT_EQ(std::string(e.what()).rfind("unexpected argument 'x.h5': rmtsweep run takes options only", 0), 0u)
      << e.what();
}

TEST(RunArguments, AMissingValueIsCalledMissing) {
  EXPECT_EQ(std::string(run_rejection({"--resume", "--output"}).what()),
            "--output needs a value (see rmtsweep run --help)");
}

TEST(RunArguments, AKeyGivenTwiceInTheConfigFileIsCalledSo) {
  const std::string path = testing::TempDir() + "rmtsweep_run_arguments_twice.ini";
  std::ofstream(path) << "d = 120\nd = 140\n";
  const InvalidOption e = run_rejection({"--config", path});
  EXPECT_EQ(e.option(), "d");
  EXPECT_NE(std::string(e.what()).find("key d given more than once in --config " + path), std::string::npos)
      << e.what();
  std::remove(path.c_str());
}

TEST(RunArguments, AnUnknownKeyInTheConfigFileIsRejected) {
  const std::string path = testing::TempDir() + "rmtsweep_run_arguments_bad.ini";
  std::ofstream(path) << "d = 120\ncolour = red\n";
  std::vector<std::string> words{"run", "--config", path};
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  const InvalidOption e = rejection([&] { (void)rmtsweep::app::parse_run_arguments(3, argv.data()); });
  EXPECT_EQ(e.option(), "config");
  EXPECT_NE(std::string(e.what()).find("colour"), std::string::npos) << e.what();
  std::remove(path.c_str());
}

// A config line without a key (" = 5") is refused showing the line, which Boost's message
// ("unrecognised option") does not.
TEST(RunArguments, AConfigLineWithoutAKeyIsShownWithItsNumber) {
  const std::string path = testing::TempDir() + "rmtsweep_run_arguments_no_key.ini";
  std::ofstream(path) << "d = 120\n = 5\n";
  const InvalidOption e = run_rejection({"--config", path});
  EXPECT_EQ(e.option(), "config");
  EXPECT_NE(std::string(e.what()).find("line 2 ' = 5' has no key before its '='"), std::string::npos)
      << e.what();
  std::remove(path.c_str());
}

// A FIFO would block the open until a writer comes, /dev/zero reads endlessly, a directory reads as empty:
// none is read as a config (each returns at once).
TEST(RunArguments, AFifoADeviceOrADirectoryIsNotReadAsAConfig) {
  const std::string fifo = testing::TempDir() + "rmtsweep_run_arguments_fifo";
  std::remove(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(rmtsweep::app::read_local_file(fifo).has_value());
  EXPECT_FALSE(rmtsweep::app::read_local_file("/dev/zero").has_value());
  EXPECT_FALSE(rmtsweep::app::read_local_file(testing::TempDir()).has_value());
  const InvalidOption e = run_rejection({"--config", "/dev/zero"});
  EXPECT_EQ(e.option(), "config");
  EXPECT_EQ(e.value(), "/dev/zero");
  std::remove(fifo.c_str());
}

}  // namespace
