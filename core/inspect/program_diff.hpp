// The program diff a person reads (issue 34 item 13): two STeP programs (step-v1 or step-v2) aligned statement
// by statement, ignoring how their streams are named. The names each statement defines are matched between the
// two programs (statements aligned by an LCS over their structure — operator, literals and outside names, the
// program's own names as placeholders —, the names voted from the aligned pairs, then aligned again under that
// matching until it is stable), so a proposal that only renames its streams has no changed statement, only a
// list of renames. Within a changed pair the changed tokens are marked. When a side does not parse (or is over
// a limit) the texts are compared line by line instead and `note` says why. No Qt: the agent's diff view
// shows it, and a terminal can print format_program_diff.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sf::inspect {

enum class DiffDialect { Auto, V1, V2 };  // Auto: the first dialect either side parses in (v1, then v2)

enum class TokenMark { Changed, Renamed };
struct MarkedRange {
  int begin = 0, end = 0;  // bytes of DiffSide::text
  TokenMark mark = TokenMark::Changed;
  friend bool operator==(const MarkedRange&, const MarkedRange&) = default;
};

struct DiffSide {
  int first_line = 0, last_line = 0;  // 1-based lines of that side's text; 0 = no statement on this side
  std::string text;                   // the statement, comments dropped, each run of whitespace one space
  std::vector<MarkedRange> marks;     // changed tokens (Changed rows) and renamed names
  bool present() const { return first_line > 0; }
};

enum class RowChange { Equal, Changed, Deleted, Inserted };
struct DiffRow {
  RowChange kind = RowChange::Equal;
  DiffSide old_side, new_side;
};

struct StreamRename {
  std::string from, to;
  friend bool operator==(const StreamRename&, const StreamRename&) = default;
};

struct ProgramDiff {
  bool aligned = true;  // statements aligned; false: the line-by-line fallback (see note)
  std::string dialect;  // "step-v1", "step-v2"; "" when not aligned
  std::string note;     // why the texts were compared line by line ("" when aligned)
  std::vector<DiffRow> rows;
  std::vector<StreamRename> renames;  // old name -> new name, in the old program's definition order
  int equal = 0, changed = 0, inserted = 0, deleted = 0;
  // No statement changed, inserted or deleted (renames allowed).
  bool same_statements() const { return changed == 0 && inserted == 0 && deleted == 0; }
};

struct ProgramDiffOptions {
  DiffDialect dialect = DiffDialect::Auto;
  std::size_t max_bytes = 256 * 1024;  // per side; over: line by line
  std::size_t max_statements = 1000;   // per side; over: line by line
  std::size_t max_tokens = 512;        // per statement; over: line by line
};

ProgramDiff diff_programs(std::string_view old_text, std::string_view new_text, const ProgramDiffOptions& opt = {});

// "a→x, b→y" ("" without renames).
std::string renames_text(const std::vector<StreamRename>& renames);
// For a terminal: a summary line, "renamed: …", then the rows ("  " equal, "- " / "+ " deleted and inserted,
// "-~" / "+~" the two sides of a changed statement with its changed tokens in [brackets]); runs of more than
// `context`·2 + 1 equal rows are shortened to "  … N unchanged statements".
std::string format_program_diff(const ProgramDiff& d, int context = 1);

}  // namespace sf::inspect
