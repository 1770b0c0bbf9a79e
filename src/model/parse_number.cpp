#include "rmtsweep/model/parse_number.hpp"

#include <charconv>
#include <cmath>
#include <system_error>
#include <type_traits>

#include "rmtsweep/common/error.hpp"

namespace rmtsweep::model {
namespace {

/// The part of `text` a from_chars call should see: one leading '+' is dropped (from_chars
/// rejects it), but "+-1" or "+" alone stay invalid.
std::string_view without_plus(std::string_view text) {
  if (text.size() > 1 && text.front() == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
  return text;
}

/// What is wrong with `text`, a number that parsed but is no use ("not a finite number"), said of the item
/// where the value shown is a whole list or range; then `allowed`.
std::string number_problem(std::string_view text, const std::string& value_for_message, const char* problem,
                           const std::string& allowed) {
  const std::string item =
      value_for_message.empty() || value_for_message == text ? std::string() : "'" + std::string(text) + "' ";
  return item + problem + "; " + allowed;
}

template <typename Number>
Number parse_with_from_chars(std::string_view text, const std::string& option, const std::string& allowed,
                             const std::string& value_for_message) {
  const std::string_view digits = without_plus(text);
  Number value{};
  const char* const end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  // The message's value is copied only when refused: value_for_message may be a whole axis list, and a
  // copy per item made parsing a list quadratic in its length (250 000 items 3.4 s).
  if (digits.empty() || ec != std::errc{} || ptr != end) {
    const std::string shown = value_for_message.empty() ? std::string(text) : value_for_message;
    if constexpr (std::is_floating_point_v<Number>) {
      if (ec == std::errc::result_out_of_range && ptr == end)  // 1e999, 1e-999
        throw InvalidOption(option, shown,
                            number_problem(text, value_for_message,
                                           "is not a finite number: beyond the range of a double "
                                           "(2.2e-308 to 1.8e308 in magnitude, or 0)",
                                           allowed));
    }
    throw InvalidOption(option, shown, allowed);
  }
  return value;
}

}  // namespace

double parse_double(std::string_view text, const std::string& option, const std::string& allowed,
                    const std::string& value_for_message) {
  const double value = parse_with_from_chars<double>(text, option, allowed, value_for_message);
  if (!std::isfinite(value)) {  // nan, inf, infinity
    throw InvalidOption(option, value_for_message.empty() ? std::string(text) : value_for_message,
                        number_problem(text, value_for_message, "is not a finite number", allowed));
  }
  return value;
}

std::int64_t parse_integer(std::string_view text, const std::string& option, const std::string& allowed,
                           const std::string& value_for_message) {
  return parse_with_from_chars<std::int64_t>(text, option, allowed, value_for_message);
}

std::uint64_t parse_unsigned(std::string_view text, const std::string& option, const std::string& allowed,
                             const std::string& value_for_message) {
  if (!text.empty() && text.front() == '-') {
    throw InvalidOption(option, value_for_message.empty() ? std::string(text) : value_for_message, allowed);
  }
  return parse_with_from_chars<std::uint64_t>(text, option, allowed, value_for_message);
}

std::string format_double(double value) {
  char buffer[64];
  const auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc{} ? std::string(buffer, ptr) : std::string("nan");
}

}  // namespace rmtsweep::model
