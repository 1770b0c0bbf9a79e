#pragma once
// The bytes of a journal file (include/rmtsweep/store/journal.hpp has the format): frames, the head's
// (key, value) texts and the point records' cells, little-endian, each frame with its CRC-32.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rmtsweep/store/journal.hpp"

namespace rmtsweep::store::detail {

/// The 8 bytes a journal file starts with: "rmtsjrn2" (format 2: the head written twice), "rmtsjrn1" in a
/// file of format 1 (one head), which is still read.
inline constexpr std::string_view journal_magic = "rmtsjrn2";
inline constexpr std::string_view journal_magic_1 = "rmtsjrn1";
/// The format this rmtsweep writes.
inline constexpr int journal_format = 2;
enum class FrameKind : std::uint32_t { head = 1, point = 2, line = 3 };
/// Bytes of a frame around its payload: kind, length, CRC-32.
inline constexpr std::size_t frame_overhead = 12;

/// A whole frame of `payload`.
std::vector<unsigned char> frame(FrameKind kind, const std::vector<unsigned char>& payload);

/// The head's frame, of format `format` (2; 1 only to test that files of the previous format still read).
std::vector<unsigned char> encode_head(const JournalHead& head, int format = journal_format);
/// The bytes a journal file starts with before its records: the magic and the head, twice in format 2.
std::vector<unsigned char> file_start(const JournalHead& head, int format = journal_format);
std::vector<unsigned char> encode_record(const PointRecord& record,
                                         const std::vector<JournalColumn>& columns);

std::vector<unsigned char> encode_line(const LineRecord& record);

/// A payload that does not decode: what is wrong with it.
struct BadPayload {
  std::string what;
};
/// Throws BadPayload. `format`: where given, the head's format (1 or 2).
JournalHead decode_head(std::span<const unsigned char> payload, int* format = nullptr);
PointRecord decode_record(std::span<const unsigned char> payload, const JournalHead& head);
LineRecord decode_line(std::span<const unsigned char> payload);

/// The frames of a file's bytes after its magic: each whole frame whose checksum holds, in order. A frame
/// that fails (its checksum, its kind, its length) is skipped to the next whole frame, so that one damaged
/// byte loses one record at most; reading ends where no whole frame follows (a record cut short by a kill).
/// `end`: the offset after the last good frame; `problem`: each damage met and why reading stopped before the
/// end of the bytes, or empty.
struct Frame {
  FrameKind kind;
  std::span<const unsigned char> payload;
};
struct Frames {
  std::vector<Frame> frames;
  std::size_t end = 0;
  std::string problem;
};
Frames split_frames(std::span<const unsigned char> bytes, std::size_t offset);

/// A file's head as found in its bytes (the magic included): the first copy, or where its checksum fails, the
/// second (format 2), so that no one damaged byte of the head loses the file's records.
struct FoundHead {
  bool found = false;
  JournalHead head;
  int format = 0;
  std::size_t records = 0;  ///< the offset of the first record
  std::string problem;      ///< why none was found, or a damage that did not matter (a copy that fails)
};
FoundHead find_head(std::span<const unsigned char> bytes);

}  // namespace rmtsweep::store::detail
