#pragma once
// What `assemble` and `refine` say about the damage the sweep file's checksums show (assemble::DamagePlan,
// include/rmtsweep/assemble/phase_tables.hpp): one wording for both, each command's own words put in.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rmtsweep/assemble/phase_tables.hpp"

namespace rmtsweep::app {

/// A command's words in its refusals.
struct DamageWords {
  std::string_view command;  ///< "assemble"
  std::string_view reader;   ///< who reads datasets whole: "the tables read", "refine reads"
  std::string_view nothing;  ///< what a refusal leaves: "nothing written"
  std::string_view without;  ///< what --skip-damaged does instead: "builds /phase without those rows"
};
inline constexpr DamageWords assemble_words{"assemble", "the tables read", "nothing written",
                                            "builds /phase without those rows"};
inline constexpr DamageWords refine_words{"refine", "refine reads", "nothing computed",
                                          "refines without those rows (the points in no line's observations, "
                                          "the lines bisected)"};

/// " 5 9 17" (index_list after a space; appended: GCC 12 misreads " " + std::string as overlapping copies).
std::string listed(const std::vector<std::int64_t>& items);

/// Why the command refuses the damage `plan` shows in the sweep file `path` (exit 4), or empty when it may go
/// on (no damage it reads, or rows left out with --skip-damaged).
std::string damage_refusal(const std::string& path, const assemble::DamagePlan& plan, bool skip_damaged,
                           const DamageWords& words);

}  // namespace rmtsweep::app
