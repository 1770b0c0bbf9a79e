// Indices as a message names them (index_list.hpp).
#include "rmtsweep/common/index_list.hpp"

#include <cstddef>

namespace rmtsweep {

std::string index_list(const std::vector<std::int64_t>& items) {
  constexpr std::size_t shown = 20;
  std::string text;
  // Appended part by part: GCC 12 misreads " " + std::string as overlapping copies (-Wrestrict).
  for (std::size_t i = 0; i < items.size() && i < shown; ++i)
    text.append(i ? " " : "").append(std::to_string(items[i]));
  if (items.size() > shown) text.append(" ... (").append(std::to_string(items.size())).append(" in all)");
  return text;
}

}  // namespace rmtsweep
