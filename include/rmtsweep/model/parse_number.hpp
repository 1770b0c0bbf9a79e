#pragma once
/// Strict parsing of numbers given as text (command-line options, config values, the
/// parameters inside `prefix:L`, `markov:phi`, `causal:tau`, `custom:...`). Anything that is not
/// entirely one finite number is rejected with InvalidOption, never with a library's message.
#include <cstdint>
#include <string>
#include <string_view>

namespace rmtsweep::model {

/// Parses a finite decimal number (an optional leading '+' is allowed); throws
/// InvalidOption{option, value, allowed} when `text` is empty, has trailing characters, is
/// out of range, or is inf/nan.
double parse_double(std::string_view text, const std::string& option, const std::string& allowed,
                    const std::string& value_for_message = {});

/// Parses a decimal integer (optional leading '+'); throws InvalidOption as parse_double does.
std::int64_t parse_integer(std::string_view text, const std::string& option, const std::string& allowed,
                           const std::string& value_for_message = {});

/// Parses a non-negative decimal integer that fits in 64 bits (for seeds).
std::uint64_t parse_unsigned(std::string_view text, const std::string& option, const std::string& allowed,
                             const std::string& value_for_message = {});

/// The shortest text that parses back to exactly `value` (std::to_chars).
std::string format_double(double value);

}  // namespace rmtsweep::model
