#pragma once
/// Indices as a message names them: "5 9 17", or the first 20 then "... (N in all)" (damaged points and
/// lines in `status` and `assemble`).
#include <cstdint>
#include <string>
#include <vector>

namespace rmtsweep {

/// `items` separated by spaces, at most the first 20, then " ... (N in all)" when there are more.
std::string index_list(const std::vector<std::int64_t>& items);

}  // namespace rmtsweep
