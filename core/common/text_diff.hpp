// Line diff (Myers' O((N+M)·D) algorithm on lines, common prefix and suffix stripped first), hunks with
// context, unified text and side-by-side rows. No Qt: the GUI's program diff view, the guardian's diff and
// the review tools all use this one implementation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sf::text {

enum class DiffOp { Equal, Delete, Insert };

// One line of an edit script. Line numbers are 1-based; 0 = the line is not on that side
// (old_line = 0 for an Insert, new_line = 0 for a Delete).
struct DiffLine {
  DiffOp op = DiffOp::Equal;
  int old_line = 0;
  int new_line = 0;
  std::string text;
  friend bool operator==(const DiffLine&, const DiffLine&) = default;
};

// A run of changes with up to `context` equal lines around it. Starts are 1-based; an empty side starts
// at the line before which the change goes (unified-diff convention: 0 when it is the start of the file).
struct DiffHunk {
  int old_start = 0, old_count = 0;
  int new_start = 0, new_count = 0;
  std::vector<DiffLine> lines;
};

struct DiffStats {
  int inserted = 0, deleted = 0, equal = 0;
  bool identical() const { return inserted == 0 && deleted == 0; }
};

// Lines of a text: split at '\n', a trailing '\r' dropped, a final newline does not start an empty line
// ("a\nb\n" and "a\nb" both have two lines; "" has none).
std::vector<std::string> split_lines(std::string_view text);

// The shortest edit script turning `a` into `b`. In each changed run the deletions come before the
// insertions. When the edit distance exceeds `max_edits` (bounds memory: O(max_edits²) ints), the
// changed middle is reported as all deleted then all inserted (still a correct, not a minimal, script).
std::vector<DiffLine> diff_lines(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                 int max_edits = 1000);
std::vector<DiffLine> diff_texts(std::string_view a, std::string_view b);

DiffStats diff_stats(const std::vector<DiffLine>& script);

// Hunks of a script, each change with `context` (≥ 0) equal lines around it; changes closer than
// 2·context + 1 lines share a hunk. No hunks when the script has no change.
std::vector<DiffHunk> make_hunks(const std::vector<DiffLine>& script, int context = 3);

// A unified diff ("--- old_title", "+++ new_title", "@@ -l,n +l,n @@", " ", "-", "+" lines); "" when the
// texts have the same lines.
std::string unified_diff(std::string_view a, std::string_view b, std::string_view old_title = "a",
                         std::string_view new_title = "b", int context = 3);

// The compact form: "- old" / "+ new" lines for the changes only, no context ("" when equal).
std::string compact_diff(std::string_view a, std::string_view b);

// Side-by-side rows: equal lines pair with each other; in a changed run the k-th deleted line pairs with
// the k-th inserted line (a Changed row); the longer side's rest pairs with nothing.
enum class RowKind { Equal, Changed, Deleted, Inserted };
struct SideBySideRow {
  RowKind kind = RowKind::Equal;
  int old_line = 0;  // 1-based; 0 = no line on the left (filler)
  int new_line = 0;  // 1-based; 0 = no line on the right (filler)
  std::string old_text, new_text;
};
std::vector<SideBySideRow> side_by_side(const std::vector<DiffLine>& script);

}  // namespace sf::text
