// What an error message echoes of a value the user gave: printable ASCII and UTF-8 as typed,
// control bytes and binary garbage (a NUL, an escape sequence, a wrong file) as \xNN, long values cut.
#include <gtest/gtest.h>

#include <string>

#include "rmtsweep/common/error.hpp"

namespace {

using rmtsweep::InvalidOption;
using rmtsweep::printable;

TEST(Printable, PlainTextAndUtf8AreKeptAsTyped) {
  EXPECT_EQ(printable("prefix:3"), "prefix:3");
  EXPECT_EQ(printable("δ = 0.5 ≥ 0"), "δ = 0.5 ≥ 0");
}

TEST(Printable, ControlBytesAndBrokenUtf8AreEscaped) {
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("\x1b[31mred\n"), "\\x1B[31mred\\x0A");
  EXPECT_EQ(printable("\xff\xfe"), "\\xFF\\xFE");
  EXPECT_EQ(printable("\xce"), "\\xCE");  // the first byte of a two-byte character, alone
}

TEST(Printable, ALongValueIsCutAndMarked) {
  EXPECT_EQ(printable(std::string(300, 'x'), 10), std::string(10, 'x') + "...");
}

TEST(Printable, AnInvalidOptionEchoesTheValuePrintably) {
  const InvalidOption e("d",
                        std::string("4\0"
                                    "00",
                                    4),
                        "allowed: an integer");
  EXPECT_EQ(std::string(e.what()), "invalid --d '4\\x0000': allowed: an integer");
  EXPECT_EQ(e.value(), std::string("4\0"
                                   "00",
                                   4))
      << "the value itself is kept as given";
}

}  // namespace
