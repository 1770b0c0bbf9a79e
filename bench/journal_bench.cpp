// The point journal's cost per record (docs/reliability.md): JournalWriter::append of records the size
// a sweep writes (the measurement columns, k = 4, a spectrum of d values), with the journal's own sync
// policy (a write(2) per record, fdatasync at most once a second) and with an fdatasync after every
// record, the policy it does not take.
//
//   rmtsweep_bench_journal [d] [records] [directory]     (defaults: 200 768 .)
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "rmtsweep/store/journal.hpp"

namespace {

using namespace rmtsweep::store;

/// A done point's record: the measurement columns but status in schema order, then status (SweepFile's
/// order).
PointRecord record_of(std::int64_t index, int d) {
  PointRecord r;
  r.index = index;
  for (const Column* c : point_columns()) {
    if (c->phase != ColumnPhase::measurement || c == &column::status) continue;
    if (c->shape == ColumnShape::top_k)
      r.cells.emplace_back(std::vector<double>(4, 1.5));
    else if (c->type == ColumnType::real)
      r.cells.emplace_back(0.25 * static_cast<double>(index));
    else if (c->type == ColumnType::integer)
      r.cells.emplace_back(std::int64_t{1});
    else
      r.cells.emplace_back(std::string(c == &column::solver ? "lapack" : ""));
  }
  r.cells.emplace_back(static_cast<std::int64_t>(PointStatus::done));
  r.spectrum.assign(static_cast<std::size_t>(d), 0.5);
  return r;
}

JournalHead head_for(int d, std::int64_t records, int run) {
  JournalHead h;
  h.file_name = "bench.h5";
  h.schema_version = schema_version;
  h.config = "d = " + std::to_string(d) + "\n";
  h.provenance.sweep_id = new_sweep_id();
  h.provenance.runs.resize(static_cast<std::size_t>(run + 1));
  h.run = run;
  h.k = 4;
  h.points = records;
  std::vector<std::pair<const Column*, std::size_t>> written;
  for (const Column* c : point_columns()) {
    if (c->phase == ColumnPhase::measurement && c != &column::status) written.emplace_back(c, c->text_width);
  }
  written.emplace_back(&column::status, 0);
  h.columns = journal_columns(written);
  return h;
}

double seconds_per_record(const std::string& directory, int d, std::int64_t records, int run,
                          bool sync_each) {
  JournalWriter writer(directory, head_for(d, records, run));
  writer.open();
  const int fd = ::open(writer.path().c_str(), O_RDONLY | O_CLOEXEC);
  std::vector<PointRecord> all;
  for (std::int64_t i = 0; i < records; ++i) all.push_back(record_of(i, d));
  const auto start = std::chrono::steady_clock::now();
  for (const PointRecord& r : all) {
    writer.append(r);
    if (sync_each) (void)::fdatasync(fd);
  }
  writer.close();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::close(fd);
  return elapsed / static_cast<double>(records);
}

}  // namespace

int main(int argc, char** argv) {
  const int d = argc > 1 ? std::atoi(argv[1]) : 200;
  const std::int64_t records = argc > 2 ? std::atoll(argv[2]) : 768;
  const std::string parent = argc > 3 ? argv[3] : ".";
  const std::string directory = parent + "/rmtsweep_bench_journal.journal";
  std::filesystem::create_directories(directory);
  const double policy = seconds_per_record(directory, d, records, 0, false);
  const double each = seconds_per_record(directory, d, records, 1, true);
  const auto bytes = std::filesystem::file_size(directory + "/" + journal_file_name(0, 0));
  std::filesystem::remove_all(directory);
  std::printf("d = %d, %lld records of %.0f bytes in %s\n", d, static_cast<long long>(records),
              static_cast<double>(bytes) / static_cast<double>(records), parent.c_str());
  std::printf("  append (write(2), fdatasync at most once a second): %.1f us per record\n", policy * 1e6);
  std::printf("  append and fdatasync every record:                  %.1f us per record\n", each * 1e6);
  return 0;
}
