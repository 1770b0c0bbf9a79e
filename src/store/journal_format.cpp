// Encoding and decoding the frames of a journal file (src/store/journal_format.hpp).
#include "journal_format.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

namespace rmtsweep::store::detail {
namespace {

using Bytes = std::vector<unsigned char>;

void put_u32(Bytes& out, std::uint32_t v) {
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<unsigned char>(v >> (8 * b)));
}
void put_u64(Bytes& out, std::uint64_t v) {
  for (int b = 0; b < 8; ++b) out.push_back(static_cast<unsigned char>(v >> (8 * b)));
}
void put_f64(Bytes& out, double v) { put_u64(out, std::bit_cast<std::uint64_t>(v)); }
/// Values of a spectrum or a top_k cell: one copy on a little-endian machine, else byte by byte.
void put_f64s(Bytes& out, const std::vector<double>& values) {
  if constexpr (std::endian::native == std::endian::little) {
    const std::size_t at = out.size();
    out.resize(at + 8 * values.size());
    if (!values.empty()) std::memcpy(out.data() + at, values.data(), 8 * values.size());
  } else {
    for (const double v : values) put_f64(out, v);
  }
}
void put_text(Bytes& out, const std::string& text) {
  put_u32(out, static_cast<std::uint32_t>(text.size()));
  out.insert(out.end(), text.begin(), text.end());
}

std::uint32_t get_u32(const unsigned char* p) {
  std::uint32_t v = 0;
  for (int b = 0; b < 4; ++b) v |= static_cast<std::uint32_t>(p[b]) << (8 * b);
  return v;
}

/// Reads a payload front to back; any read past its end is a BadPayload.
class Reader {
 public:
  explicit Reader(std::span<const unsigned char> bytes) : bytes_(bytes) {}
  std::uint32_t u32() { return get_u32(take(4)); }
  std::uint64_t u64() {
    const unsigned char* p = take(8);
    std::uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v |= static_cast<std::uint64_t>(p[b]) << (8 * b);
    return v;
  }
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  double f64() { return std::bit_cast<double>(u64()); }
  std::string text() {
    const std::uint32_t n = u32();
    const unsigned char* p = take(n);
    return std::string(reinterpret_cast<const char*>(p), n);
  }
  std::vector<double> reals() {
    const std::uint32_t n = u32();
    if (n > remaining() / 8)
      throw BadPayload{"a list of " + std::to_string(n) + " values longer than its record"};
    std::vector<double> v(n);
    for (double& x : v) x = f64();
    return v;
  }
  std::size_t remaining() const noexcept { return bytes_.size() - at_; }

 private:
  const unsigned char* take(std::size_t n) {
    if (n > remaining()) throw BadPayload{"the record ends inside a value"};
    const unsigned char* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  std::span<const unsigned char> bytes_;
  std::size_t at_ = 0;
};

const char* type_name(ColumnType t) {
  return t == ColumnType::real ? "real" : t == ColumnType::integer ? "integer" : "text";
}
const char* shape_name(ColumnShape s) { return s == ColumnShape::scalar ? "scalar" : "top_k"; }

/// "name type shape width" per line.
std::string columns_text(const std::vector<JournalColumn>& columns) {
  std::string text;
  for (const JournalColumn& c : columns) {
    text +=
        c.name + " " + type_name(c.type) + " " + shape_name(c.shape) + " " + std::to_string(c.width) + "\n";
  }
  return text;
}

std::vector<JournalColumn> parse_columns(const std::string& text) {
  std::vector<JournalColumn> columns;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    char name[128] = {}, type[16] = {}, shape[16] = {};
    unsigned long width = 0;
    const std::string line = text.substr(begin, end - begin);
    if (std::sscanf(line.c_str(), "%127s %15s %15s %lu", name, type, shape, &width) != 4)
      throw BadPayload{"a column line '" + line + "' of the head does not parse"};
    JournalColumn c{name, ColumnType::real, ColumnShape::scalar, width};
    const std::string t = type, s = shape;
    if (t == "integer")
      c.type = ColumnType::integer;
    else if (t == "text")
      c.type = ColumnType::text;
    else if (t != "real")
      throw BadPayload{"a column of unknown type '" + t + "'"};
    if (s == "top_k")
      c.shape = ColumnShape::top_k;
    else if (s != "scalar")
      throw BadPayload{"a column of unknown shape '" + s + "'"};
    columns.push_back(std::move(c));
    begin = end + 1;
  }
  return columns;
}

std::int64_t to_integer(const std::string& key, const std::string& text) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0')
    throw BadPayload{"head key " + key + " holds '" + text + "', not an integer"};
  return v;
}

}  // namespace

namespace {

/// A frame built in place: kind and a length to fill in, the payload appended by the caller, then sealed.
Bytes open_frame(FrameKind kind, std::size_t payload_bytes) {
  Bytes out;
  out.reserve(payload_bytes + frame_overhead);
  put_u32(out, static_cast<std::uint32_t>(kind));
  put_u32(out, 0);
  return out;
}

/// Fills in the length and appends the CRC-32 of kind, length and payload.
Bytes sealed(Bytes out) {
  const std::size_t payload = out.size() - 8;
  if (payload > std::numeric_limits<std::uint32_t>::max() - frame_overhead)
    throw std::length_error("a journal record of " + std::to_string(payload) + " bytes");
  for (int b = 0; b < 4; ++b)
    out[4 + static_cast<std::size_t>(b)] = static_cast<unsigned char>(payload >> (8 * b));
  const auto crc = ::crc32(0L, out.data(), static_cast<uInt>(out.size()));
  put_u32(out, static_cast<std::uint32_t>(crc));
  return out;
}

}  // namespace

Bytes frame(FrameKind kind, const Bytes& payload) {
  Bytes out = open_frame(kind, payload.size());
  out.insert(out.end(), payload.begin(), payload.end());
  return sealed(std::move(out));
}

Bytes encode_head(const JournalHead& h, int format) {
  const Provenance& p = h.provenance;
  std::vector<std::pair<std::string, std::string>> entries{
      {"format", "rmtsweep point journal " + std::to_string(format)},
      {"file", h.file_name},
      {"schema_version", std::to_string(h.schema_version)},
      {"sweep_id", p.sweep_id},
      {"config", h.config},
      {"run", std::to_string(h.run)},
      {"rank", std::to_string(h.rank)},
      {"k", std::to_string(h.k)},
      {"points", std::to_string(h.points)},
      {"columns", columns_text(h.columns)},
      {"rmtsweep_version", p.rmtsweep_version},
      {"draws_version", std::to_string(p.draws_version)},
      {"draws_library", p.draws_library},
      {"mpi_library_version", p.versions.mpi},
      {"hdf5_version", p.versions.hdf5},
      {"blas_version", p.versions.blas},
      {"scalapack_library", p.versions.scalapack},
      {"fault_injection", p.fault_injection ? "1" : "0"},
      {"runs", std::to_string(p.runs.size())},
  };
  // A shard's (run --shard) only, so that the journals of whole sweeps are as before.
  if (!p.shard.whole()) entries.emplace_back("shard", p.shard.text());
  for (std::size_t r = 0; r < p.runs.size(); ++r) {
    const std::string prefix = "run_" + std::to_string(r) + "_";
    const RunInfo& run = p.runs[r];
    entries.insert(entries.end(), {{prefix + "started", run.started},
                                   {prefix + "command_line", run.command_line},
                                   {prefix + "mpi_ranks", std::to_string(run.mpi_ranks)},
                                   {prefix + "ranks_per_point", std::to_string(run.ranks_per_point)},
                                   {prefix + "eigensolver", config::eigensolver_setting(run.eigensolver)}});
    if (!run.shard.whole()) entries.emplace_back(prefix + "shard", run.shard.text());
  }
  Bytes payload;
  put_u32(payload, static_cast<std::uint32_t>(entries.size()));
  for (const auto& [key, value] : entries) {
    put_text(payload, key);
    put_text(payload, value);
  }
  return frame(FrameKind::head, payload);
}

Bytes file_start(const JournalHead& head, int format) {
  const std::string_view magic = format == 1 ? journal_magic_1 : journal_magic;
  Bytes out(magic.begin(), magic.end());
  const Bytes frame = encode_head(head, format);
  // Format 2: the head twice, so that a damaged byte in one copy leaves the other (find_head).
  for (int copy = 0; copy < (format == 1 ? 1 : 2); ++copy) out.insert(out.end(), frame.begin(), frame.end());
  return out;
}

JournalHead decode_head(std::span<const unsigned char> payload, int* format) {
  Reader in(payload);
  std::map<std::string, std::string> entries;
  const std::uint32_t n = in.u32();
  for (std::uint32_t i = 0; i < n; ++i) {
    std::string key = in.text();
    entries[std::move(key)] = in.text();
  }
  const auto value = [&](const std::string& key) -> const std::string& {
    const auto found = entries.find(key);
    if (found == entries.end()) throw BadPayload{"the head has no " + key};
    return found->second;
  };
  const auto integer = [&](const std::string& key) { return to_integer(key, value(key)); };
  const std::string& format_text = value("format");
  if (format_text != "rmtsweep point journal 1" && format_text != "rmtsweep point journal 2")
    throw BadPayload{"a journal of another format ('" + format_text + "')"};
  if (format) *format = format_text.back() - '0';
  JournalHead h;
  h.file_name = value("file");
  h.schema_version = integer("schema_version");
  h.config = value("config");
  h.run = integer("run");
  h.rank = static_cast<int>(integer("rank"));
  h.k = static_cast<int>(integer("k"));
  h.points = integer("points");
  h.columns = parse_columns(value("columns"));
  Provenance& p = h.provenance;
  p.sweep_id = value("sweep_id");
  p.rmtsweep_version = value("rmtsweep_version");
  p.draws_version = integer("draws_version");
  p.draws_library = value("draws_library");
  p.versions = {value("mpi_library_version"), value("hdf5_version"), value("blas_version"),
                value("scalapack_library")};
  p.fault_injection = value("fault_injection") == "1";
  const auto optional = [&](const std::string& key) {
    const auto found = entries.find(key);
    return found == entries.end() ? std::string() : found->second;
  };
  p.shard = config::shard_or_whole(optional("shard"));
  const std::int64_t runs = integer("runs");
  for (std::int64_t r = 0; r < runs; ++r) {
    const std::string prefix = "run_" + std::to_string(r) + "_";
    RunInfo run;
    run.started = value(prefix + "started");
    run.command_line = value(prefix + "command_line");
    run.mpi_ranks = static_cast<int>(integer(prefix + "mpi_ranks"));
    run.ranks_per_point = static_cast<int>(integer(prefix + "ranks_per_point"));
    try {
      run.eigensolver = config::parse_eigensolver(value(prefix + "eigensolver"));
    } catch (const std::exception&) {
      throw BadPayload{"head key " + prefix + "eigensolver holds an unknown setting"};
    }
    run.shard = config::shard_or_whole(optional(prefix + "shard"));
    p.runs.push_back(std::move(run));
  }
  if (h.points < 0 || h.k < 0 || h.run < 0 || h.run >= runs)
    throw BadPayload{"the head's run, points or k are out of range"};
  return h;
}

Bytes encode_record(const PointRecord& record, const std::vector<JournalColumn>& columns) {
  if (record.cells.size() != columns.size())
    throw std::logic_error("a journal record of " + std::to_string(record.cells.size()) + " cells for " +
                           std::to_string(columns.size()) + " columns");
  std::size_t bytes = 12 + 8 * record.spectrum.size();
  for (const Cell& cell : record.cells) {
    if (const auto* text = std::get_if<std::string>(&cell))
      bytes += 4 + text->size();
    else if (const auto* values = std::get_if<std::vector<double>>(&cell))
      bytes += 4 + 8 * values->size();
    else
      bytes += 8;
  }
  Bytes out = open_frame(FrameKind::point, bytes);
  put_u64(out, static_cast<std::uint64_t>(record.index));
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const Cell& cell = record.cells[c];
    if (columns[c].shape == ColumnShape::top_k) {
      const auto& values = std::get<std::vector<double>>(cell);
      put_u32(out, static_cast<std::uint32_t>(values.size()));
      put_f64s(out, values);
    } else if (columns[c].type == ColumnType::real) {
      put_f64(out, std::get<double>(cell));
    } else if (columns[c].type == ColumnType::integer) {
      put_u64(out, static_cast<std::uint64_t>(std::get<std::int64_t>(cell)));
    } else {
      put_text(out, std::get<std::string>(cell));
    }
  }
  put_u32(out, static_cast<std::uint32_t>(record.spectrum.size()));
  put_f64s(out, record.spectrum);
  return sealed(std::move(out));
}

PointRecord decode_record(std::span<const unsigned char> payload, const JournalHead& head) {
  Reader in(payload);
  PointRecord record;
  record.index = in.i64();
  if (record.index < 0 || record.index >= head.points)
    throw BadPayload{"a record of point " + std::to_string(record.index) + ", beyond the sweep's " +
                     std::to_string(head.points) + " points"};
  record.cells.reserve(head.columns.size());
  for (const JournalColumn& c : head.columns) {
    if (c.shape == ColumnShape::top_k) {
      record.cells.emplace_back(in.reals());
    } else if (c.type == ColumnType::real) {
      record.cells.emplace_back(in.f64());
    } else if (c.type == ColumnType::integer) {
      record.cells.emplace_back(in.i64());
    } else {
      record.cells.emplace_back(in.text());
    }
  }
  record.spectrum = in.reals();
  if (in.remaining() != 0)
    throw BadPayload{std::to_string(in.remaining()) + " bytes after the record's values"};
  return record;
}

Bytes encode_line(const LineRecord& record) {
  const spectral::RankOneLine& s = record.secular;
  Bytes out = open_frame(FrameKind::line, 32 + 12 + 24 * s.size());
  put_u64(out, static_cast<std::uint64_t>(record.line));
  put_u64(out, s.form == spectral::OverlapForm::gram ? 1 : 0);
  put_u64(out, record.converged ? 1 : 0);
  put_f64(out, s.rho);
  for (const std::vector<double>* values : {&s.poles, &s.signal, &s.offset}) {
    put_u32(out, static_cast<std::uint32_t>(values->size()));
    put_f64s(out, *values);
  }
  return sealed(std::move(out));
}

LineRecord decode_line(std::span<const unsigned char> payload) {
  Reader in(payload);
  LineRecord record;
  record.line = in.i64();
  record.secular.form = in.i64() == 1 ? spectral::OverlapForm::gram : spectral::OverlapForm::direct;
  record.converged = in.i64() == 1;
  record.secular.rho = in.f64();
  record.secular.poles = in.reals();
  record.secular.signal = in.reals();
  record.secular.offset = in.reals();
  if (in.remaining() != 0) throw BadPayload{"a line record longer than its values"};
  try {
    record.secular.check();
  } catch (const std::invalid_argument& e) {
    throw BadPayload{std::string("a line record that is no line: ") + e.what()};
  }
  return record;
}

namespace {

/// The payload length of a whole frame at `at` (its length within the bytes, its checksum holding) whose kind
/// is one of `kinds`, or none.
std::optional<std::size_t> frame_at(std::span<const unsigned char> bytes, std::size_t at,
                                    std::initializer_list<FrameKind> kinds) {
  if (bytes.size() < at + frame_overhead) return std::nullopt;
  const unsigned char* p = bytes.data() + at;
  const std::uint32_t kind = get_u32(p);
  if (std::none_of(kinds.begin(), kinds.end(),
                   [&](FrameKind k) { return kind == static_cast<std::uint32_t>(k); }))
    return std::nullopt;
  const std::uint32_t length = get_u32(p + 4);
  if (length > bytes.size() - at - frame_overhead) return std::nullopt;
  const auto crc = ::crc32(0L, p, static_cast<uInt>(8 + length));
  if (static_cast<std::uint32_t>(crc) != get_u32(p + 8 + length)) return std::nullopt;
  return length;
}

/// The first offset after `from` where a whole record frame starts, or none: a damaged frame's length cannot
/// be trusted, so the next one is found by its kind, length and checksum (a false match needs a CRC-32 to
/// agree by chance).
std::optional<std::size_t> next_record_frame(std::span<const unsigned char> bytes, std::size_t from) {
  for (std::size_t at = from + 1; at + frame_overhead <= bytes.size(); ++at)
    if (frame_at(bytes, at, {FrameKind::point, FrameKind::line})) return at;
  return std::nullopt;
}

}  // namespace

Frames split_frames(std::span<const unsigned char> bytes, std::size_t offset) {
  Frames out;
  out.end = offset;
  const auto add_problem = [&](const std::string& problem) {
    out.problem += (out.problem.empty() ? "" : "; ") + problem;
  };
  while (out.end < bytes.size()) {
    const std::size_t left = bytes.size() - out.end;
    const unsigned char* p = bytes.data() + out.end;
    std::string problem;
    if (left < frame_overhead) {
      problem = "a record cut short: " + std::to_string(left) + " bytes at the end";
    } else {
      const std::uint32_t kind = get_u32(p), length = get_u32(p + 4);
      if (kind != static_cast<std::uint32_t>(FrameKind::head) &&
          kind != static_cast<std::uint32_t>(FrameKind::point) &&
          kind != static_cast<std::uint32_t>(FrameKind::line)) {
        problem = "no record at byte " + std::to_string(out.end) + ": a damaged or overwritten file";
      } else if (length > left - frame_overhead) {
        problem = "a record cut short: " + std::to_string(left) + " of its " +
                  std::to_string(length + frame_overhead) + " bytes";
      } else if (static_cast<std::uint32_t>(::crc32(0L, p, static_cast<uInt>(8 + length))) !=
                 get_u32(p + 8 + length)) {
        problem = "a record at byte " + std::to_string(out.end) + " whose checksum fails";
      } else {
        out.frames.push_back({static_cast<FrameKind>(kind), std::span<const unsigned char>(p + 8, length)});
        out.end += length + frame_overhead;
        continue;
      }
    }
    // A damaged record loses itself only: the records after it are read from the next whole frame. Where
    // none follows, this is the end (a record cut short by a kill, or damage up to the end).
    const std::optional<std::size_t> next = next_record_frame(bytes, out.end);
    if (!next) {
      add_problem(problem);
      break;
    }
    add_problem(problem + " (its " + std::to_string(*next - out.end) +
                " bytes skipped, the records after it read)");
    out.end = *next;
  }
  return out;
}

namespace {

/// How many of the first bytes of `bytes` differ from `magic`'s.
std::size_t differing(std::span<const unsigned char> bytes, std::string_view magic) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < magic.size(); ++i)
    n += bytes[i] == static_cast<unsigned char>(magic[i]) ? 0 : 1;
  return n;
}

}  // namespace

FoundHead find_head(std::span<const unsigned char> bytes) {
  FoundHead out;
  const std::size_t start = journal_magic.size();
  // A magic one byte off is a flipped byte: the frames that follow say whether this is a journal.
  if (bytes.size() < start ||
      (differing(bytes, journal_magic) > 1 && differing(bytes, journal_magic_1) > 1)) {
    out.problem = bytes.empty() ? "an empty file" : "not an rmtsweep journal file";
    return out;
  }
  std::size_t at = start;
  std::optional<std::size_t> length = frame_at(bytes, at, {FrameKind::head});
  const bool first = length.has_value();
  // The first copy damaged (its kind, length, payload or checksum): the second, as long as the first, starts
  // where the first ends, at start + 12 + its own length; no other offset holds it.
  for (std::size_t o = start + frame_overhead; !length && o + frame_overhead <= bytes.size(); ++o) {
    const unsigned char* p = bytes.data() + o;
    if (get_u32(p) != static_cast<std::uint32_t>(FrameKind::head) ||
        get_u32(p + 4) != o - start - frame_overhead)
      continue;
    if ((length = frame_at(bytes, o, {FrameKind::head}))) at = o;
  }
  if (!length) {
    out.problem = "its head is damaged, and no copy of it is whole";
    return out;
  }
  try {
    out.head = decode_head(bytes.subspan(at + 8, *length), &out.format);
  } catch (const BadPayload& bad) {
    out.problem = "its head does not decode: " + bad.what;
    return out;
  }
  const std::size_t frame_bytes = *length + frame_overhead;
  if (!first && out.format != 2) {
    out.problem = "its head is damaged, and no copy of it is whole";
    return out;
  }
  // Format 1: one head. Format 2: the records after the second copy (whether or not it is whole).
  out.records = std::min(bytes.size(), out.format == 1 ? at + frame_bytes
                                       : first         ? at + 2 * frame_bytes
                                                       : at + frame_bytes);
  out.found = true;
  return out;
}

}  // namespace rmtsweep::store::detail
