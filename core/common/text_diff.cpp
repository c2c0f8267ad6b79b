#include "core/common/text_diff.hpp"

#include <algorithm>
#include <cstddef>

namespace sf::text {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.emplace_back(line);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

namespace {

using Lines = std::vector<std::string>;

// Myers' greedy forward search over a[a0, a1) and b[b0, b1) (no common prefix or suffix left), with the
// furthest-reaching x per diagonal saved after every d for the backtrack. Appends the script of the
// middle, or returns false when the distance exceeds `limit`.
bool myers_middle(const Lines& a, std::size_t a0, std::size_t a1, const Lines& b, std::size_t b0, std::size_t b1,
                  int limit, std::vector<DiffOp>& ops) {
  const int n = static_cast<int>(a1 - a0), m = static_cast<int>(b1 - b0);
  const int max_d = std::min(n + m, limit);
  const int off = max_d + 1;
  std::vector<int> v(static_cast<std::size_t>(2 * max_d + 3), 0);
  std::vector<std::vector<int>> trace;  // trace[d][k + d] = V[k] after step d, k in [-d, d]
  auto eq = [&](int x, int y) { return a[a0 + static_cast<std::size_t>(x)] == b[b0 + static_cast<std::size_t>(y)]; };
  int found_d = -1;
  for (int d = 0; d <= max_d && found_d < 0; ++d) {
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && eq(x, y)) ++x, ++y;
      v[off + k] = x;
      if (x >= n && y >= m) found_d = d;
    }
    trace.emplace_back(v.begin() + (off - d), v.begin() + (off + d + 1));
  }
  if (found_d < 0) return false;
  // Backtrack from (n, m).
  std::vector<DiffOp> rev;
  int x = n, y = m;
  for (int d = found_d; d > 0; --d) {
    const std::vector<int>& prev = trace[static_cast<std::size_t>(d - 1)];
    auto pv = [&](int k) { return prev[static_cast<std::size_t>(k + d - 1)]; };
    const int k = x - y;
    const bool down = k == -d || (k != d && pv(k - 1) < pv(k + 1));
    const int pk = down ? k + 1 : k - 1;
    const int px = pv(pk), py = px - pk;
    while (x > (down ? px : px + 1) && y > (down ? py + 1 : py)) {
      rev.push_back(DiffOp::Equal);
      --x, --y;
    }
    rev.push_back(down ? DiffOp::Insert : DiffOp::Delete);
    x = px, y = py;
  }
  while (x > 0 && y > 0) {
    rev.push_back(DiffOp::Equal);
    --x, --y;
  }
  ops.insert(ops.end(), rev.rbegin(), rev.rend());
  return true;
}

}  // namespace

std::vector<DiffLine> diff_lines(const Lines& a, const Lines& b, int max_edits) {
  std::size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  std::size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  const std::size_t a1 = a.size() - suf, b1 = b.size() - suf;

  std::vector<DiffOp> ops(pre, DiffOp::Equal);
  if (!myers_middle(a, pre, a1, b, pre, b1, std::max(0, max_edits), ops)) {
    ops.insert(ops.end(), a1 - pre, DiffOp::Delete);
    ops.insert(ops.end(), b1 - pre, DiffOp::Insert);
  }
  ops.insert(ops.end(), suf, DiffOp::Equal);

  // Within each changed run: deletions first, then insertions (any order of the two is a valid script).
  for (std::size_t i = 0; i < ops.size();) {
    if (ops[i] == DiffOp::Equal) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < ops.size() && ops[j] != DiffOp::Equal) ++j;
    std::stable_partition(ops.begin() + static_cast<std::ptrdiff_t>(i), ops.begin() + static_cast<std::ptrdiff_t>(j),
                          [](DiffOp o) { return o == DiffOp::Delete; });
    i = j;
  }

  std::vector<DiffLine> out;
  out.reserve(ops.size());
  std::size_t ia = 0, ib = 0;
  for (DiffOp op : ops) {
    DiffLine l;
    l.op = op;
    if (op != DiffOp::Insert) l.old_line = static_cast<int>(ia + 1);
    if (op != DiffOp::Delete) l.new_line = static_cast<int>(ib + 1);
    l.text = op == DiffOp::Insert ? b[ib] : a[ia];
    if (op != DiffOp::Insert) ++ia;
    if (op != DiffOp::Delete) ++ib;
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<DiffLine> diff_texts(std::string_view a, std::string_view b) {
  return diff_lines(split_lines(a), split_lines(b));
}

DiffStats diff_stats(const std::vector<DiffLine>& script) {
  DiffStats s;
  for (const auto& l : script) {
    if (l.op == DiffOp::Insert) ++s.inserted;
    else if (l.op == DiffOp::Delete) ++s.deleted;
    else ++s.equal;
  }
  return s;
}

std::vector<DiffHunk> make_hunks(const std::vector<DiffLine>& script, int context) {
  context = std::max(0, context);
  const std::size_t c = static_cast<std::size_t>(context);
  // Changed runs [s, e), merged when the equal gap between them is at most 2·context.
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::size_t i = 0; i < script.size();) {
    if (script[i].op == DiffOp::Equal) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < script.size() && script[j].op != DiffOp::Equal) ++j;
    if (!runs.empty() && i - runs.back().second <= 2 * c) runs.back().second = j;
    else runs.emplace_back(i, j);
    i = j;
  }
  std::vector<DiffHunk> hunks;
  for (const auto& [s, e] : runs) {
    const std::size_t hs = s > c ? s - c : 0, he = std::min(script.size(), e + c);
    int old_before = 0, new_before = 0;
    for (std::size_t i = 0; i < hs; ++i) {
      if (script[i].op != DiffOp::Insert) ++old_before;
      if (script[i].op != DiffOp::Delete) ++new_before;
    }
    DiffHunk h;
    h.lines.assign(script.begin() + static_cast<std::ptrdiff_t>(hs), script.begin() + static_cast<std::ptrdiff_t>(he));
    for (const auto& l : h.lines) {
      if (l.op != DiffOp::Insert) ++h.old_count;
      if (l.op != DiffOp::Delete) ++h.new_count;
    }
    h.old_start = h.old_count > 0 ? old_before + 1 : old_before;
    h.new_start = h.new_count > 0 ? new_before + 1 : new_before;
    hunks.push_back(std::move(h));
  }
  return hunks;
}

std::string unified_diff(std::string_view a, std::string_view b, std::string_view old_title,
                         std::string_view new_title, int context) {
  auto hunks = make_hunks(diff_texts(a, b), context);
  if (hunks.empty()) return "";
  auto range = [](int start, int count) {
    return count == 1 ? std::to_string(start) : std::to_string(start) + "," + std::to_string(count);
  };
  std::string out = "--- " + std::string(old_title) + "\n+++ " + std::string(new_title) + "\n";
  for (const auto& h : hunks) {
    out += "@@ -" + range(h.old_start, h.old_count) + " +" + range(h.new_start, h.new_count) + " @@\n";
    for (const auto& l : h.lines)
      out += (l.op == DiffOp::Equal ? " " : l.op == DiffOp::Delete ? "-" : "+") + l.text + "\n";
  }
  return out;
}

std::string compact_diff(std::string_view a, std::string_view b) {
  if (a == b) return "";
  std::string out;
  for (const auto& l : diff_texts(a, b))
    if (l.op != DiffOp::Equal) out += (l.op == DiffOp::Delete ? "- " : "+ ") + l.text + "\n";
  return out;
}

std::vector<SideBySideRow> side_by_side(const std::vector<DiffLine>& script) {
  std::vector<SideBySideRow> rows;
  for (std::size_t i = 0; i < script.size();) {
    if (script[i].op == DiffOp::Equal) {
      rows.push_back({RowKind::Equal, script[i].old_line, script[i].new_line, script[i].text, script[i].text});
      ++i;
      continue;
    }
    std::vector<const DiffLine*> dels, ins;
    for (; i < script.size() && script[i].op != DiffOp::Equal; ++i)
      (script[i].op == DiffOp::Delete ? dels : ins).push_back(&script[i]);
    const std::size_t n = std::max(dels.size(), ins.size());
    for (std::size_t k = 0; k < n; ++k) {
      SideBySideRow r;
      if (k < dels.size()) r.old_line = dels[k]->old_line, r.old_text = dels[k]->text;
      if (k < ins.size()) r.new_line = ins[k]->new_line, r.new_text = ins[k]->text;
      r.kind = k < dels.size() && k < ins.size() ? RowKind::Changed : k < dels.size() ? RowKind::Deleted : RowKind::Inserted;
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

}  // namespace sf::text
