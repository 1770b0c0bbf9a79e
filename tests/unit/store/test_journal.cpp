// The point journal's format (include/rmtsweep/store/journal.hpp): records read back as written, a
// torn last record is skipped wherever it is cut, a damaged one loses itself only, no damaged byte of a
// head loses a record, a file of the previous format still reads, a failed write leaves whole records only,
// and a journal of several sweeps or of other columns is refused.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "journal_format.hpp"  // src/store: to write a file of the previous format
#include "rmtsweep/common/error.hpp"
#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/recover.hpp"
#include "temp_dir.hpp"

namespace rmtsweep::sweep {
namespace {

namespace fs = std::filesystem;

using test::TempDir;

/// The columns a file of this rmtsweep writes: the measurement columns but status, then status.
std::vector<store::JournalColumn> our_columns() {
  std::vector<std::pair<const store::Column*, std::size_t>> written;
  for (const store::Column* c : store::point_columns()) {
    if (c->phase == store::ColumnPhase::measurement && c != &store::column::status)
      written.emplace_back(c, store::stored_width(*c));
  }
  written.emplace_back(&store::column::status, 0);
  return store::journal_columns(written);
}

store::JournalHead head_of(std::int64_t run, int rank,
                           const std::string& sweep_id = "0123456789abcdef0123456789abcdef") {
  store::JournalHead h;
  h.file_name = "sweep.h5";
  h.schema_version = store::schema_version;
  h.config = "d = 20\ntrials = 4\n";
  h.provenance.sweep_id = sweep_id;
  h.provenance.rmtsweep_version = "test";
  h.provenance.runs.resize(static_cast<std::size_t>(run + 1));
  for (std::size_t r = 0; r < h.provenance.runs.size(); ++r) {
    h.provenance.runs[r].command_line = "rmtsweep run #" + std::to_string(r);
    h.provenance.runs[r].mpi_ranks = static_cast<int>(r + 2);
  }
  h.run = run;
  h.rank = rank;
  h.k = 4;
  h.points = 10;
  h.columns = our_columns();
  return h;
}

/// A record of point `index` with every kind of cell: reals (one NaN), integers, texts (a long one
/// with a NUL byte inside), k values and a spectrum of 20.
store::PointRecord record_of(std::int64_t index, store::PointStatus status = store::PointStatus::done) {
  store::PointRecord r;
  r.index = index;
  for (const store::JournalColumn& c : our_columns()) {
    if (c.name == "status") {
      r.cells.emplace_back(static_cast<std::int64_t>(status));
    } else if (c.shape == store::ColumnShape::top_k) {
      r.cells.emplace_back(std::vector<double>{3.5, 2.25, std::numeric_limits<double>::quiet_NaN(), -1e-300});
    } else if (c.type == store::ColumnType::real) {
      r.cells.emplace_back(c.name == "weights_deviation" ? std::numeric_limits<double>::quiet_NaN()
                                                         : 0.1 * static_cast<double>(index) + 1.0 / 3.0);
    } else if (c.type == store::ColumnType::integer) {
      r.cells.emplace_back(std::int64_t{-7} * index);
    } else {
      r.cells.emplace_back(c.name == "error" ? std::string(1500, 'e') + std::string(1, '\0') + "end"
                                             : "lapack");
    }
  }
  for (int i = 0; i < 20; ++i) r.spectrum.push_back(0.01 * i + static_cast<double>(index));
  return r;
}

/// Cells equal, NaN equal to NaN, bit for bit otherwise.
void expect_same(const store::PointRecord& a, const store::PointRecord& b) {
  EXPECT_EQ(a.index, b.index);
  ASSERT_EQ(a.cells.size(), b.cells.size());
  const auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
  for (std::size_t c = 0; c < a.cells.size(); ++c) {
    ASSERT_EQ(a.cells[c].index(), b.cells[c].index()) << "cell " << c;
    if (const auto* x = std::get_if<double>(&a.cells[c])) {
      EXPECT_TRUE(same(*x, std::get<double>(b.cells[c])));
    }
    if (const auto* x = std::get_if<std::int64_t>(&a.cells[c])) {
      EXPECT_EQ(*x, std::get<std::int64_t>(b.cells[c]));
    }
    if (const auto* x = std::get_if<std::string>(&a.cells[c])) {
      EXPECT_EQ(*x, std::get<std::string>(b.cells[c]));
    }
    if (const auto* x = std::get_if<std::vector<double>>(&a.cells[c])) {
      const auto& y = std::get<std::vector<double>>(b.cells[c]);
      ASSERT_EQ(x->size(), y.size());
      for (std::size_t i = 0; i < x->size(); ++i) EXPECT_TRUE(same((*x)[i], y[i]));
    }
  }
  EXPECT_EQ(a.spectrum, b.spectrum);
}

/// A journal directory with one file of `records` done records (points 0, 1, ...) of run 0, rank 0.
std::string journal_with(const TempDir& dir, int records) {
  const std::string journal = dir / "sweep.h5.journal";
  fs::create_directories(journal);
  store::JournalWriter writer(journal, head_of(0, 0));
  writer.open();  // the head, also without records
  for (int i = 0; i < records; ++i) writer.append(record_of(i));
  writer.close();
  return journal;
}

/// The size of a journal file holding `records` records (journal_with): where record `records` starts.
std::uintmax_t size_with(int records) {
  const TempDir dir;
  return fs::file_size(journal_with(dir, records) + "/" + store::journal_file_name(0, 0));
}

TEST(Journal, ARecordReadsBackAsWrittenWithItsWholeMessageAndTheHeadsProvenance) {
  const TempDir dir;
  const std::string journal = journal_with(dir, 2);
  const store::JournalFile file = store::read_journal_file(journal + "/" + store::journal_file_name(0, 0));
  ASSERT_TRUE(file.has_head) << file.problem;
  EXPECT_TRUE(file.problem.empty()) << file.problem;
  EXPECT_EQ(file.ignored_bytes, 0u);
  EXPECT_EQ(file.head.config, head_of(0, 0).config);
  EXPECT_EQ(file.head.columns, our_columns());
  EXPECT_EQ(file.head.provenance.sweep_id, head_of(0, 0).provenance.sweep_id);
  ASSERT_EQ(file.head.provenance.runs.size(), 1u);
  EXPECT_EQ(file.head.provenance.runs[0].command_line, "rmtsweep run #0");
  ASSERT_EQ(file.records.size(), 2u);
  expect_same(file.records[0], record_of(0));
  expect_same(file.records[1], record_of(1));
}

TEST(Journal, ATornLastRecordIsSkippedWhereverItIsCut) {
  const TempDir dir;
  const std::string journal = journal_with(dir, 3);
  const std::string path = journal + "/" + store::journal_file_name(0, 0);
  const auto whole = fs::file_size(path);
  const std::string bytes = [&] {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }();
  const auto two_records = size_with(2);  // where the third record starts
  for (auto cut = two_records + 1; cut < whole; cut += 7) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes.substr(0, cut);
    const store::JournalFile file = store::read_journal_file(path);
    ASSERT_EQ(file.records.size(), 2u) << "cut at " << cut;
    EXPECT_EQ(file.ignored_bytes, cut - two_records) << "cut at " << cut;
    EXPECT_NE(file.problem.find("cut short"), std::string::npos) << file.problem;
  }
}

TEST(Journal, ADamagedByteFailsItsRecordsChecksumAndLosesThatRecordOnly) {
  const TempDir dir;
  const std::string journal = journal_with(dir, 3);
  const std::string path = journal + "/" + store::journal_file_name(0, 0);
  const auto one_record = size_with(1), two_records = size_with(2);
  {
    std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
    file.seekp(static_cast<std::streamoff>(one_record + 40));  // inside the second record's payload
    file.put('\x7f');
  }
  const store::JournalFile file = store::read_journal_file(path);
  ASSERT_EQ(file.records.size(), 2u) << file.problem;
  expect_same(file.records[0], record_of(0));
  expect_same(file.records[1], record_of(2));
  EXPECT_NE(file.problem.find("checksum fails"), std::string::npos) << file.problem;
  EXPECT_NE(file.problem.find("the records after it read"), std::string::npos) << file.problem;
  EXPECT_EQ(file.ignored_bytes, two_records - one_record);
}

TEST(Journal, EveryByteOfAMiddleRecordDamagedInTurnLosesThatRecordOnly) {
  const TempDir dir;
  const std::string journal = journal_with(dir, 3);
  const std::string path = journal + "/" + store::journal_file_name(0, 0);
  const auto one_record = size_with(1), two_records = size_with(2);
  std::ifstream in(path, std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Every byte of the second record, its kind, length and checksum included, each flipped alone.
  for (auto at = one_record; at < two_records; ++at) {
    std::string damaged = whole;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << damaged;
    const store::JournalFile file = store::read_journal_file(path);
    ASSERT_EQ(file.records.size(), 2u) << "byte " << at << " flipped: " << file.problem;
    ASSERT_EQ(file.records[0].index, 0) << "byte " << at;
    ASSERT_EQ(file.records[1].index, 2) << "byte " << at;
    ASSERT_EQ(file.ignored_bytes, two_records - one_record) << "byte " << at << ": " << file.problem;
  }
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Journal, EveryByteOfItsHeadDamagedInTurnLosesNoRecordAndNoFieldOfTheHead) {
  const TempDir dir;
  const std::string path = journal_with(dir, 3) + "/" + store::journal_file_name(0, 0);
  const std::string bytes = bytes_of(path);
  // The head's bytes, magic included: the size of a file without records.
  const auto head_bytes = size_with(0);
  const store::JournalHead head = head_of(0, 0);
  std::size_t checked = 0;
  for (std::size_t at = 0; at < head_bytes; ++at) {
    for (const int flip : {0x01, 0xff}) {                              // one bit, and every bit of the byte
      std::vector<unsigned char> damaged(bytes.begin(), bytes.end());  // as read_journal_file reads it
      damaged[at] = static_cast<unsigned char>(damaged[at] ^ flip);
      const store::JournalFile file = store::read_journal_bytes(damaged, path);
      ASSERT_TRUE(file.has_head) << "byte " << at << " flipped: " << file.problem;
      ASSERT_EQ(file.records.size(), 3u) << "byte " << at << " flipped: " << file.problem;
      ASSERT_EQ(file.ignored_bytes, 0u) << "byte " << at << " flipped";
      ASSERT_EQ(file.head.config, head.config) << "byte " << at;
      ASSERT_EQ(file.head.provenance.sweep_id, head.provenance.sweep_id) << "byte " << at;
      ASSERT_EQ(file.head.provenance.runs.size(), 1u) << "byte " << at;
      ASSERT_EQ(file.head.provenance.runs[0].command_line, head.provenance.runs[0].command_line);
      ASSERT_EQ(file.head.columns, head.columns) << "byte " << at;
      ASSERT_EQ(file.head.points, head.points) << "byte " << at;
      for (std::size_t r = 0; r < 3; ++r)
        expect_same(file.records[r], record_of(static_cast<std::int64_t>(r)));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * head_bytes);
}

TEST(Journal, AFileOfThePreviousFormatWithOneHeadStillReads) {
  const TempDir dir;
  const std::string journal = dir / "sweep.h5.journal";
  fs::create_directories(journal);
  const store::JournalHead head = head_of(0, 0);
  std::vector<unsigned char> bytes = store::detail::file_start(head, 1);
  ASSERT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "rmtsjrn1");
  for (const std::int64_t i : {0, 1}) {
    const std::vector<unsigned char> frame = store::detail::encode_record(record_of(i), head.columns);
    bytes.insert(bytes.end(), frame.begin(), frame.end());
  }
  const std::string path = journal + "/" + store::journal_file_name(0, 0);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const store::Journal read = store::read_journal(journal);
  ASSERT_EQ(read.files.size(), 1u);
  EXPECT_TRUE(read.files[0].problem.empty()) << read.files[0].problem;
  EXPECT_EQ(read.files[0].ignored_bytes, 0u);
  EXPECT_EQ(read.head().config, head.config);
  ASSERT_EQ(read.files[0].records.size(), 2u);
  expect_same(read.files[0].records[1], record_of(1));
}

TEST(Journal, AFileWhoseHeadCopiesAreBothDamagedIsNamedWhenTheJournalIsRead) {
  const TempDir dir;
  const std::string journal = journal_with(dir, 1);
  const std::string path = journal + "/" + store::journal_file_name(0, 0);
  std::string bytes = bytes_of(path);
  const auto head_bytes = size_with(0);
  bytes[20] ^= 0x10;                         // in the first copy's payload
  bytes[(head_bytes + 8) / 2 + 20] ^= 0x10;  // and in the second's
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_FALSE(store::read_journal_file(path).has_head);
  try {
    (void)store::read_journal(journal);
    FAIL() << "a journal without a readable head was read";
  } catch (const InvalidFile& e) {
    EXPECT_NE(std::string(e.what()).find(store::journal_file_name(0, 0)), std::string::npos) << e.what();
  }
  // Beside a readable file, it is listed as without a head.
  store::JournalWriter second(journal, head_of(0, 1));
  second.append(record_of(2));
  second.close();
  const store::Journal read = store::read_journal(journal);
  ASSERT_EQ(read.headless.size(), 1u);
  EXPECT_EQ(fs::path(read.headless[0]).filename(), store::journal_file_name(0, 0));
}

TEST(Journal, AWriteThatFailsIsUndoneSoTheFileHoldsWholeRecordsOnly) {
  const TempDir dir;
  const std::string journal = dir / "sweep.h5.journal";
  fs::create_directories(journal);
  store::JournalWriter writer(journal, head_of(0, 0));
  writer.append(record_of(0));
  const auto one = fs::file_size(writer.path());
  // A file size limit of one record and a half: the next write fails part way (EFBIG), as on a full disk.
  const sighandler_t old_handler = ::signal(SIGXFSZ, SIG_IGN);
  rlimit old_limit{};
  ::getrlimit(RLIMIT_FSIZE, &old_limit);
  rlimit limit = old_limit;
  limit.rlim_cur = static_cast<rlim_t>(one + one / 4);
  ::setrlimit(RLIMIT_FSIZE, &limit);
  EXPECT_THROW(writer.append(record_of(1)), FileIoError);
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  ::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(fs::file_size(writer.path()), one);
  writer.append(record_of(2));  // once there is room again
  writer.close();
  const store::JournalFile file = store::read_journal_file(writer.path());
  ASSERT_EQ(file.records.size(), 2u) << file.problem;
  EXPECT_TRUE(file.problem.empty()) << file.problem;
  EXPECT_EQ(file.records[1].index, 2);
}

TEST(Journal, ASecondWriterOfTheSameRunAndRankIsRefused) {
  const TempDir dir;
  const std::string journal = journal_with(dir, 1);
  store::JournalWriter again(journal, head_of(0, 0));
  EXPECT_THROW(again.open(), FileIoError);
  EXPECT_EQ(store::read_journal_file(journal + "/" + store::journal_file_name(0, 0)).records.size(), 1u);
}

TEST(Journal, ALaterRunsRecordOfAPointReplacesAnEarlierRunsOne) {
  const TempDir dir;
  const std::string journal = dir / "sweep.h5.journal";
  fs::create_directories(journal);
  {
    store::JournalWriter first(journal, head_of(0, 1));
    first.append(record_of(3, store::PointStatus::failed));
    first.append(record_of(4));
    first.close();
    store::JournalWriter second(journal, head_of(1, 0));
    second.append(record_of(3));
    second.close();
  }
  const store::Journal read = store::read_journal(journal);
  ASSERT_EQ(read.files.size(), 2u);
  EXPECT_EQ(read.head().run, 1);
  const auto latest = store::latest_records(read);
  ASSERT_EQ(latest.size(), 10u);
  ASSERT_NE(latest[3], nullptr);
  EXPECT_EQ(store::record_status(*latest[3]), store::PointStatus::done);
  EXPECT_EQ(store::record_status(*latest[4]), store::PointStatus::done);
  EXPECT_EQ(latest[5], nullptr);
}

TEST(Journal, FilesOfTwoSweepsInOneJournalAreRefusedNamingTheOddOne) {
  const TempDir dir;
  const std::string journal = journal_with(dir, 1);
  store::JournalWriter stranger(journal, head_of(1, 0, "ffffffffffffffffffffffffffffffff"));
  stranger.open();
  stranger.close();
  try {
    (void)store::read_journal(journal);
    FAIL() << "a journal of two sweeps was read";
  } catch (const InvalidFile& e) {
    EXPECT_NE(std::string(e.what()).find(store::journal_file_name(1, 0)), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("belongs to another sweep"), std::string::npos) << e.what();
  }
}

TEST(Journal, ItsAgreementWithAFileCountsEachKindOfDifference) {
  const TempDir dir;
  const std::string journal = dir / "sweep.h5.journal";
  fs::create_directories(journal);
  {
    store::JournalWriter writer(journal, head_of(0, 0));
    for (const std::int64_t i : {0, 1, 2, 3})
      writer.append(record_of(i, i == 2 ? store::PointStatus::failed : store::PointStatus::done));
    writer.close();
  }
  const store::Journal read = store::read_journal(journal);
  //                                   0  1  2  3  4  5 ...: 1 pending (journal holds it), 2 done (failed in
  //                                   the journal), 3 pending and the writer's last record, 5 done (no
  //                                   record)
  const std::vector<std::int64_t> status{1, 0, 1, 0, 0, 1, 0, 0, 0, 0};
  const store::JournalAgreement a = store::compare_with_file(read, status);
  EXPECT_EQ(a.journal_only, 2);
  EXPECT_EQ(a.in_flight, 1);
  EXPECT_EQ(a.file_only, 1);
  EXPECT_EQ(a.differing, 1);
  EXPECT_FALSE(a.agrees());
  EXPECT_TRUE(store::compare_with_file(read, {1, 1, 2, 1, 0, 0, 0, 0, 0, 0}).agrees());
}

TEST(Journal, RecoverRefusesAJournalWhoseRecordsHoldOtherColumnsNamingThem) {
  const TempDir dir;
  const std::string journal = dir / "sweep.h5.journal";
  fs::create_directories(journal);
  store::JournalHead head = head_of(0, 0);
  head.columns.insert(head.columns.begin(), {"a_column_of_another_version", store::ColumnType::real,
                                             store::ColumnShape::scalar, 0});
  head.provenance.rmtsweep_version = "9.9.9";
  store::JournalWriter writer(journal, head);
  writer.open();
  writer.close();
  try {
    (void)store::recover_sweep(dir / "sweep.h5");
    FAIL() << "a journal of other columns was recovered";
  } catch (const InvalidFile& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(journal + ": its records hold other /points columns"), std::string::npos) << what;
    EXPECT_NE(what.find("a_column_of_another_version in the journal"), std::string::npos) << what;
    EXPECT_NE(what.find("written by rmtsweep 9.9.9"), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(dir / "sweep.h5"));
}

// A journal of a file of the previous schema_version (2: /points/error fixed-width) was written by the
// rmtsweep before; this one rebuilds only its own layout and says which rmtsweep can, and that this one
// then reads and resumes the file it rebuilds.
TEST(Journal, RecoverRefusesAJournalOfAnotherSchemaVersionNamingTheRmtsweepThatWroteIt) {
  const TempDir dir;
  const std::string journal = dir / "sweep.h5.journal";
  fs::create_directories(journal);
  store::JournalHead head = head_of(0, 0);
  head.schema_version = store::schema_version - 2;  // 3 holds the same records as 4: recovered
  head.provenance.rmtsweep_version = "0.0.9";
  store::JournalWriter writer(journal, head);
  writer.open();
  writer.close();
  try {
    (void)store::recover_sweep(dir / "sweep.h5");
    FAIL() << "a journal of another schema_version was recovered";
  } catch (const InvalidFile& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(journal + ": was written for a file of schema_version " +
                        std::to_string(store::schema_version - 2)),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("recover " + (dir / "sweep.h5") +
                        " with the rmtsweep that wrote the journal (rmtsweep "
                        "0.0.9), whose file this rmtsweep then reads and resumes"),
              std::string::npos)
        << what;
  }
  EXPECT_FALSE(fs::exists(dir / "sweep.h5"));
}

}  // namespace
}  // namespace rmtsweep::sweep
