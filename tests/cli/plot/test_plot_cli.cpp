// `rmtsweep plot` draws non-empty PNG (or PDF) figures from a real, assembled sweep, one file a figure.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "../assemble/command.hpp"

namespace {

using rmtsweep::test::read_bytes;
using rmtsweep::test::run_rmtsweep;
using rmtsweep::test::run_rmtsweep_mpi;
using rmtsweep::test::ScratchDir;

// A small sweep where delta and gamma both vary, so that every kind of figure is drawn:
// 2 delta x 2 gamma x 5 snr x 2 weightings x 2 trials = 80 points at d = 100 (a few seconds).
class PlotCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = std::make_unique<ScratchDir>("rmtsweep-plot");
    const auto config = (*scratch_ / "sweep.ini").string();
    file_ = (*scratch_ / "sweep.h5").string();
    unassembled_ = (*scratch_ / "unassembled.h5").string();
    figures_ = *scratch_ / "figures";
    rmtsweep::test::write_text(
        config,
        "d = 100\nT = 10\ncorrelation = prefix:3\ntable = centered\nseed = 5\ntrials = 2\n"
        "delta = 0.5,1\ngamma = 0.25,0.5\nsnr = 0:2:5\nweighting = mean,optimal\n");
    const auto sweep = run_rmtsweep_mpi(2, "run --config " + config + " --output " + file_);
    ASSERT_EQ(sweep.status, 0) << sweep.output;
    std::filesystem::copy_file(file_, unassembled_);
    const auto assembled = run_rmtsweep("assemble --quiet " + file_);
    ASSERT_EQ(assembled.status, 0) << assembled.output;
    plot_ = run_rmtsweep("plot " + file_ + " --output " + figures_.string());
  }
  static void TearDownTestSuite() { scratch_.reset(); }

  /// True when `path` holds a PNG (signature and IHDR chunk) at least `width` x `height` pixels.
  static ::testing::AssertionResult is_png(const std::filesystem::path& path, unsigned width,
                                           unsigned height) {
    const std::string bytes = read_bytes(path);
    if (bytes.size() < 5000)
      return ::testing::AssertionFailure() << path << " has only " << bytes.size() << " bytes";
    if (bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 || bytes.compare(12, 4, "IHDR") != 0) {
      return ::testing::AssertionFailure() << path << " is not a PNG";
    }
    const auto be32 = [&](std::size_t at) {
      unsigned value = 0;
      for (std::size_t k = 0; k < 4; ++k) value = (value << 8) | static_cast<unsigned char>(bytes[at + k]);
      return value;
    };
    if (be32(16) < width || be32(20) < height) {
      return ::testing::AssertionFailure() << path << " is " << be32(16) << " x " << be32(20) << " pixels";
    }
    return ::testing::AssertionSuccess();
  }

  static inline std::unique_ptr<ScratchDir> scratch_;
  static inline std::string file_, unassembled_;
  static inline std::filesystem::path figures_;
  static inline rmtsweep::test::CommandResult plot_;
};

TEST_F(PlotCli, PlotCommandSucceeds) { EXPECT_EQ(plot_.status, 0) << plot_.output; }

TEST_F(PlotCli, DrawsOnePhaseDiagramOverDeltaAndOneOverGammaWithEveryWeighting) {
  for (const char* name : {"phase_delta.png", "phase_gamma.png"})
    EXPECT_TRUE(is_png(figures_ / name, 600, 300));
  EXPECT_FALSE(std::filesystem::exists(figures_ / "phase_delta_mean.png"));
}

TEST_F(PlotCli, DrawsTheCurvesAgainstSnr) {
  for (const char* name : {"overlap_vs_snr.png", "top_eigenvalue_vs_snr.png", "ridge_accuracy_vs_snr.png"}) {
    EXPECT_TRUE(is_png(figures_ / name, 600, 400));
  }
}

TEST_F(PlotCli, DrawsTheSpectrumOfAPointAgainstTheBulkLaw) {
  EXPECT_TRUE(is_png(figures_ / "spectrum.png", 600, 300));
}

TEST_F(PlotCli, SpectrumOfAChosenPointIsDrawn) {
  const auto out = *scratch_ / "one";
  const auto result = run_rmtsweep("plot " + file_ + " --point 3 --dpi 60 --out " + out.string());
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("spectrum.png"), std::string::npos) << result.output;
  EXPECT_TRUE(is_png(out / "spectrum.png", 200, 100));
}

TEST_F(PlotCli, FileWithoutPhaseAsksForAssembleFirst) {
  const auto result = run_rmtsweep("plot " + unassembled_ + " --output " + (*scratch_ / "none").string());
  EXPECT_NE(result.status, 0);
  EXPECT_NE(result.output.find("rmtsweep assemble"), std::string::npos) << result.output;
}

/// True when `result` is a refusal with status 2 naming --option and the value, without a traceback.
::testing::AssertionResult refuses(const rmtsweep::test::CommandResult& result, const std::string& option,
                                   const std::string& value) {
  if (result.status != 2)
    return ::testing::AssertionFailure() << "status " << result.status << ": " << result.output;
  for (const auto& word : {"invalid --" + option, "'" + value + "'"}) {
    if (result.output.find(word) == std::string::npos) {
      return ::testing::AssertionFailure() << "no \"" << word << "\" in: " << result.output;
    }
  }
  if (result.output.find("Traceback") != std::string::npos)
    return ::testing::AssertionFailure() << result.output;
  return ::testing::AssertionSuccess();
}

TEST_F(PlotCli, DpiOutsideTenToTwelveHundredIsRejectedNamingTheRange) {
  for (const char* dpi : {"0", "-5", "100000", "many"}) {
    const auto out = *scratch_ / "dpi";
    const auto result = run_rmtsweep("plot " + file_ + " --output " + out.string() + " --dpi " + dpi);
    EXPECT_TRUE(refuses(result, "dpi", dpi));
    EXPECT_NE(result.output.find("10 to 1200"), std::string::npos) << result.output;
    EXPECT_FALSE(std::filesystem::exists(out)) << "a refused plot created " << out;
  }
}

TEST_F(PlotCli, FormatOtherThanPngPdfOrSvgIsRejectedNamingWhatIsAllowed) {
  const auto out = *scratch_ / "jpeg";
  const auto result = run_rmtsweep("plot " + file_ + " --output " + out.string() + " --format jpeg");
  EXPECT_TRUE(refuses(result, "format", "jpeg"));
  EXPECT_NE(result.output.find("allowed: png, pdf, svg"), std::string::npos) << result.output;
  EXPECT_FALSE(std::filesystem::exists(out)) << "a refused plot created " << out;
}

TEST_F(PlotCli, FormatPdfWritesEveryFigureAsAPdf) {
  const auto out = *scratch_ / "pdf";
  const auto result = run_rmtsweep("plot " + file_ + " --format pdf --dpi 30 --output " + out.string());
  ASSERT_EQ(result.status, 0) << result.output;
  int figures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    EXPECT_EQ(entry.path().extension(), ".pdf") << entry.path();
    EXPECT_EQ(read_bytes(entry.path()).substr(0, 5), "%PDF-") << entry.path();
    ++figures;
  }
  EXPECT_EQ(figures, 6) << result.output;  // phase_delta, phase_gamma, three curves, spectrum
}

TEST_F(PlotCli, OutputThatIsAnExistingFileIsRejectedAndTheFileKeptAlsoUnderItsAliasOut) {
  const auto notes = *scratch_ / "notes.txt";
  rmtsweep::test::write_text(notes, "my notes\n");
  const auto result = run_rmtsweep("plot " + file_ + " --out " + notes.string());
  EXPECT_TRUE(refuses(result, "output", notes.string()));
  EXPECT_NE(result.output.find("a directory"), std::string::npos) << result.output;
  EXPECT_EQ(read_bytes(notes), "my notes\n");
}

TEST_F(PlotCli, PointOutsideTheFileIsRejectedNamingTheRangeOfDonePoints) {
  const auto result = run_rmtsweep("plot " + file_ + " --point 999 --output " + (*scratch_ / "p").string());
  EXPECT_TRUE(refuses(result, "point", "999"));
  EXPECT_NE(result.output.find("a done point, 0..79"), std::string::npos) << result.output;
}

// A value no file could take is refused as typed, before the file is read: even in a file without
// /phase the answer is about --point, not "run assemble first".
TEST_F(PlotCli, ANegativeOrNonIntegerPointIsRefusedBeforeTheFileIsRead) {
  for (const std::string& file : {file_, unassembled_}) {
    for (const char* point : {"-1", "two"}) {
      const auto result =
          run_rmtsweep("plot " + file + " --point " + point + " --output " + (*scratch_ / "q").string());
      EXPECT_TRUE(refuses(result, "point", point));
      EXPECT_NE(result.output.find("an integer >= 0"), std::string::npos) << result.output;
    }
  }
}

TEST_F(PlotCli, ExistingFiguresAreKeptAndNamedUnlessForceIsGiven) {
  const auto out = *scratch_ / "kept";
  std::filesystem::create_directory(out);
  rmtsweep::test::write_text(out / "overlap_vs_snr.png", "an earlier figure");
  const auto result = run_rmtsweep("plot " + file_ + " --output " + out.string());
  EXPECT_TRUE(refuses(result, "output", out.string()));
  EXPECT_NE(result.output.find("overlap_vs_snr.png"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("--force"), std::string::npos) << result.output;
  EXPECT_EQ(read_bytes(out / "overlap_vs_snr.png"), "an earlier figure");
  EXPECT_FALSE(std::filesystem::exists(out / "spectrum.png")) << "a refused plot wrote other figures";
}

TEST_F(PlotCli, PlottingAgainIntoTheSameDirectoryIsRefused) {
  const auto again = run_rmtsweep("plot " + file_ + " --output " + figures_.string());
  EXPECT_TRUE(refuses(again, "output", figures_.string()));
}

TEST_F(PlotCli, ForceOverwritesExistingFigures) {
  const auto out = *scratch_ / "forced";
  std::filesystem::create_directory(out);
  rmtsweep::test::write_text(out / "overlap_vs_snr.png", "an earlier figure");
  const auto result = run_rmtsweep("plot " + file_ + " --force --dpi 40 --output " + out.string());
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_TRUE(is_png(out / "overlap_vs_snr.png", 130, 100));  // 3.4 in at 40 dpi
}

TEST_F(PlotCli, MissingFileIsRejectedWithStatusTwo) {
  const auto result = run_rmtsweep("plot " + (*scratch_ / "missing.h5").string());
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.output.find("missing.h5"), std::string::npos) << result.output;
}

}  // namespace
