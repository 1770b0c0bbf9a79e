#pragma once
/// Whether a sweep file still holds what was written into it. A sweep file
/// carries no checksum of its own: its points are written by independent MPI-IO writes into contiguous,
/// early-allocated datasets, and HDF5 1.10 applies a filter (Fletcher-32 among them) only to chunked
/// datasets written collectively (docs/reliability.md). What vouches for a point's values is its
/// record in the point journal (journal.hpp), which holds the same cells and spectrum, under a CRC-32.
///
/// So a point the file holds as done or failed is compared with its latest journal record: every cell of
/// the columns written when a point ends (bit for bit; a text up to the width the file stores; a failed
/// point's variable-length message once its run's close wrote it, failure_messages.hpp) and its
/// spectrum row. The columns written at creation (the grid's coordinates and the theory, schema.hpp) are
/// compared with this rmtsweep's own computation of them from the stored config, to a relative 1e-9: a
/// flipped bit in a double's upper five bytes (its sign, exponent and top 28 mantissa bits) changes it by
/// at least 2^-29 = 1.9e-9 relative, while the theory itself may move by rounding between versions (at
/// 1e-15); a flip in its three low bytes is below that and is not seen there. A status that no point has
/// (pending, done, failed) is damage whatever the journal says.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rmtsweep/store/journal.hpp"
#include "rmtsweep/store/sweep_reader.hpp"

namespace rmtsweep::store {

/// A point whose stored values differ from what was written for it.
struct DamagedPoint {
  std::int64_t index = 0;
  std::vector<std::string> columns;  ///< the /points columns that differ, and "spectrum"
  /// Its latest journal record, which holds what the file should (empty when none does: its status is
  /// garbage, or only creation-time columns differ).
  std::optional<PointRecord> record;
};

struct Verification {
  std::int64_t points = 0;  ///< rows of /points
  /// Points done or failed in the file whose measured values were compared with a journal record.
  std::int64_t verified = 0;
  /// Points done or failed in the file whose measured values no record vouches for (a journal file lost or
  /// cut, a run without a journal, a record older than the file's row): only their creation-time columns
  /// and status were checked.
  std::int64_t unverified = 0;
  std::vector<DamagedPoint> damaged;
  /// Points pending in the file whose latest journal record holds them done or failed: the journal vouches
  /// for a result the file no longer shows (a status flipped, or a run killed between a point's record and
  /// its row), each with its record, which `run --resume` writes again instead of computing the point.
  std::vector<DamagedPoint> pending_with_record;
  /// Creation-time columns that differ from this rmtsweep's computation at more than half of the points:
  /// not flipped bytes (which hit a few rows) but another version's theory; not counted as damage.
  std::vector<std::string> other_theory;
};

/// Compares the file at `reader` with `journal` (null: no journal, only the creation-time columns and the
/// status values are checked) as above. Reads every /points column and the stored spectra whole: about the
/// file's size, as the journal's read is (docs/reliability.md measures it).
/// `failing_checksums`: rows of /points that fail their row checksum (checksums.hpp), counted as damaged
/// ("checksum") where nothing else of theirs differs, so that a resume restores them from their records too.
Verification verify_sweep(const SweepReader& reader, const Journal* journal,
                          const std::vector<std::int64_t>& failing_checksums = {});

/// Rows `rows` of the file at `reader` as journal records of `columns` (the cells of those /points columns
/// and the row of its size's spectra): what `rmtsweep recover` keeps of points only the old file holds.
/// Throws InvalidFile when the file lacks one of the columns (a file of another rmtsweep).
std::vector<PointRecord> read_records(const SweepReader& reader, const std::vector<JournalColumn>& columns,
                                      const std::vector<std::int64_t>& rows);

/// The points done or failed in a file (`status`, its `run` column `run`, `runs` runs recorded) that the
/// journal's latest records `latest` do not vouch for: no record, or a record of an earlier run than the
/// file's row (the later record lost with a journal file). `run_cell` is the run column's cell in a record.
std::vector<std::int64_t> rows_without_record(const std::vector<std::int64_t>& status,
                                              const std::vector<std::int64_t>& run, std::int64_t runs,
                                              const std::vector<const PointRecord*>& latest,
                                              std::size_t run_cell);

/// "3, 5, 7 (d=40 ...)": the damaged points' indices and columns, at most `shown` of them, for a message.
std::string describe_damage(const Verification& verification, std::size_t shown = 20);

}  // namespace rmtsweep::store
