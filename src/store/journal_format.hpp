#pragma once
// The bytes of a journal file (include/rmtsweep/store/journal.hpp has the format): frames, the head's
// (key, value) texts and the point records' cells, little-endian, each frame with its CRC-32.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rmtsweep/store/journal.hpp"

namespace rmtsweep::store::detail {

/// The 8 bytes a journal file starts with ("rmtsjrn1": format version 1).
inline constexpr std::string_view journal_magic = "rmtsjrn1";
enum class FrameKind : std::uint32_t { head = 1, point = 2, line = 3 };
/// Bytes of a frame around its payload: kind, length, CRC-32.
inline constexpr std::size_t frame_overhead = 12;

/// A whole frame of `payload`.
std::vector<unsigned char> frame(FrameKind kind, const std::vector<unsigned char>& payload);

std::vector<unsigned char> encode_head(const JournalHead& head);
std::vector<unsigned char> encode_record(const PointRecord& record,
                                         const std::vector<JournalColumn>& columns);

std::vector<unsigned char> encode_line(const LineRecord& record);

/// A payload that does not decode: what is wrong with it.
struct BadPayload {
  std::string what;
};
/// Throws BadPayload.
JournalHead decode_head(std::span<const unsigned char> payload);
PointRecord decode_record(std::span<const unsigned char> payload, const JournalHead& head);
LineRecord decode_line(std::span<const unsigned char> payload);

/// The frames of a file's bytes after its magic: each whole frame whose checksum holds, in order, up to
/// the first that is cut short or fails its checksum (`end`: the offset after the last good frame;
/// `problem`: why reading stopped before the end of the bytes, or empty).
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

}  // namespace rmtsweep::store::detail
