// format_program_diff: the program diff as terminal text.
#include "core/inspect/program_diff.hpp"

#include <algorithm>

namespace sf::inspect {

namespace {

// The side's text with its changed tokens in [brackets] (renamed names as they are).
std::string bracketed(const DiffSide& s) {
  std::string out;
  int at = 0;
  for (const MarkedRange& m : s.marks) {
    if (m.mark != TokenMark::Changed || m.begin < at) continue;
    out.append(s.text, static_cast<std::size_t>(at), static_cast<std::size_t>(m.begin - at));
    out += '[';
    out.append(s.text, static_cast<std::size_t>(m.begin), static_cast<std::size_t>(m.end - m.begin));
    out += ']';
    at = m.end;
  }
  out.append(s.text, static_cast<std::size_t>(at), std::string::npos);
  return out;
}

std::string unchanged_line(int n) {
  return "  \u2026 " + std::to_string(n) + (n == 1 ? " unchanged statement\n" : " unchanged statements\n");
}

}  // namespace

std::string format_program_diff(const ProgramDiff& d, int context) {
  std::string out = d.aligned ? "statements (" + d.dialect + "): " : "lines: ";
  out += std::to_string(d.equal) + " unchanged, " + std::to_string(d.changed) + " changed, " +
         std::to_string(d.inserted) + " inserted, " + std::to_string(d.deleted) + " deleted\n";
  if (!d.note.empty()) out += "note: " + d.note + "\n";
  if (!d.renames.empty()) out += "renamed: " + renames_text(d.renames) + "\n";
  context = std::max(0, context);
  const int n = static_cast<int>(d.rows.size());
  for (int i = 0; i < n;) {
    if (d.rows[static_cast<std::size_t>(i)].kind == RowChange::Equal) {
      int j = i;
      while (j < n && d.rows[static_cast<std::size_t>(j)].kind == RowChange::Equal) ++j;
      const int head = i == 0 ? 0 : context, tail = j == n ? 0 : context;
      if (j - i > head + tail + 1) {
        for (int k = i; k < i + head; ++k) out += "  " + d.rows[static_cast<std::size_t>(k)].new_side.text + "\n";
        out += unchanged_line(j - i - head - tail);
        for (int k = j - tail; k < j; ++k) out += "  " + d.rows[static_cast<std::size_t>(k)].new_side.text + "\n";
      } else {
        for (int k = i; k < j; ++k) out += "  " + d.rows[static_cast<std::size_t>(k)].new_side.text + "\n";
      }
      i = j;
      continue;
    }
    const DiffRow& r = d.rows[static_cast<std::size_t>(i)];
    switch (r.kind) {
      case RowChange::Deleted: out += "- " + r.old_side.text + "\n"; break;
      case RowChange::Inserted: out += "+ " + r.new_side.text + "\n"; break;
      default: out += "-~" + bracketed(r.old_side) + "\n+~" + bracketed(r.new_side) + "\n"; break;
    }
    ++i;
  }
  return out;
}

}  // namespace sf::inspect
