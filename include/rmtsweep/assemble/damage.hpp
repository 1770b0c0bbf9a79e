#pragma once
/// What a command that reads a sweep file's points does with the damage its checksums show
/// (store::check_checksums; docs/reliability.md, Checksums): `assemble` and `refine` alike. A point's or a
/// line's row that fails is refused, or left out with --skip-damaged; a dataset read whole that fails, or a
/// /refine row (not journaled: nothing restores it), is refused with or without; a damaged dataset nothing
/// reads is only said; /phase's own damage is kept apart (assemble writes /phase anew, and says so).
#include <string>
#include <string_view>
#include <vector>

#include "rmtsweep/assemble/phase_file.hpp"
#include "rmtsweep/store/checksums.hpp"

namespace rmtsweep::assemble {

/// The command that judges, as its messages name it and what it does.
struct DamageReader {
  std::string_view command;  ///< "assemble"
  std::string_view reader;   ///< who reads datasets whole: "the tables"
  std::string_view nothing;  ///< what a refusal leaves: "nothing written"
  std::string_view without;  ///< what --skip-damaged does instead: "builds /phase without those rows"
};
inline constexpr DamageReader assemble_reads{"assemble", "the tables", "nothing written",
                                             "builds /phase without those rows"};
inline constexpr DamageReader refine_reads{"refine", "refine", "nothing computed",
                                           "refines without those rows (the points in no line's "
                                           "observations, the lines bisected)"};

/// What to do with the damage.
struct DamageDecision {
  LeftOut left_out;                          ///< with --skip-damaged: the rows to leave out
  std::string refusal;                       ///< non-empty: nothing is done, exit 4; why
  std::vector<std::string> unread_datasets;  ///< damaged datasets that are not read (said, not refused)
  std::vector<std::string> phase_datasets;   ///< damaged /phase datasets (assemble writes /phase anew)
};

/// Judges `report`, the checksums of the sweep file `path`, for `reader`.
DamageDecision judge_damage(const std::string& path, const store::ChecksumReport& report, bool skip_damaged,
                            const DamageReader& reader);

/// " 5 9 17": index_list after a space, as the messages append it.
std::string listed(const std::vector<std::int64_t>& items);

}  // namespace rmtsweep::assemble
