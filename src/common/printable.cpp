// printable(): the text of a value as an error message may echo it (include/rmtsweep/common/error.hpp).
#include <cstdio>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep {
namespace {

/// The length of the well-formed UTF-8 sequence of 2-4 bytes at text[i], or 0.
std::size_t utf8_length(const std::string& text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t length = lead >= 0xC2 && lead <= 0xDF   ? 2
                             : lead >= 0xE0 && lead <= 0xEF ? 3
                             : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                            : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

std::string printable(const std::string& text, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (out.size() >= limit) return out + "...";
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out += text[i++];
    } else if (const std::size_t length = byte >= 0x80 ? utf8_length(text, i) : 0; length > 0) {
      out.append(text, i, length);  // a character of a UTF-8 text (a path, a Greek letter)
      i += length;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
      out += escaped;
      ++i;
    }
  }
  return out;
}

}  // namespace rmtsweep
