#include "core/inspect/program_diff.hpp"

#include "core/common/text_diff.hpp"
#include "core/inspect/program_tokens.hpp"
#include "core/step/parser.hpp"
#include "core/step2/program.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace sf::inspect {

namespace {

using Pairs = std::vector<std::pair<int, int>>;  // (old index, new index); -1 = none on that side

// Index pairs of a longest common subsequence of [0, n) and [0, m) under eq(i, j), in order.
template <class Eq>
Pairs lcs(int n, int m, Eq&& eq) {
  Pairs out;
  int lo = 0;
  while (lo < n && lo < m && eq(lo, lo)) out.emplace_back(lo, lo), ++lo;
  int hn = n, hm = m;
  Pairs tail;
  while (hn > lo && hm > lo && eq(hn - 1, hm - 1)) tail.emplace_back(--hn, --hm);
  const int rn = hn - lo, rm = hm - lo;
  if (rn > 0 && rm > 0) {
    // dp[i][j]: the LCS length of the suffixes starting at lo + i and lo + j.
    std::vector<int> dp(static_cast<std::size_t>(rn + 1) * static_cast<std::size_t>(rm + 1), 0);
    auto at = [&](int i, int j) -> int& { return dp[static_cast<std::size_t>(i) * static_cast<std::size_t>(rm + 1) + static_cast<std::size_t>(j)]; };
    for (int i = rn - 1; i >= 0; --i)
      for (int j = rm - 1; j >= 0; --j)
        at(i, j) = eq(lo + i, lo + j) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    int i = 0, j = 0;
    while (i < rn && j < rm) {
      if (eq(lo + i, lo + j) && at(i, j) == at(i + 1, j + 1) + 1) {
        out.emplace_back(lo + i, lo + j);
        ++i, ++j;
      } else if (at(i + 1, j) >= at(i, j + 1)) {
        ++i;
      } else {
        ++j;
      }
    }
  }
  out.insert(out.end(), tail.rbegin(), tail.rend());
  return out;
}

struct Side {
  std::vector<Stmt> stmts;
  std::unordered_set<std::string> defs;
  std::vector<std::string> order;  // the defined names in definition order, once each
  bool is_name(const Tok& t) const { return t.kind == TokKind::Ident && !t.kwkey && !t.attr && defs.count(t.text); }
  int rank(const std::string& name) const {
    return static_cast<int>(std::find(order.begin(), order.end(), name) - order.begin());
  }
};

Side make_side(std::vector<Stmt> stmts) {
  Side s;
  s.stmts = std::move(stmts);
  for (const Stmt& st : s.stmts)
    for (const std::string& d : st.defines)
      if (s.defs.insert(d).second) s.order.push_back(d);
  return s;
}

struct Matching {
  std::map<std::string, std::string> fwd;   // old name -> new name
  std::map<std::string, std::string> back;  // new name -> old name
  friend bool operator==(const Matching&, const Matching&) = default;
};

// How a program's own name that is not (yet) matched compares: equal to any such name (while aligning) or
// only to itself on its own side (when classifying).
enum class NameRule { Wildcard, Strict };

// A token's comparison key: its text, or for a program-defined name its counterpart in the new program.
std::string token_key(const Tok& t, const Side& side, bool old_side, const Matching& m, NameRule rule) {
  if (!side.is_name(t)) return t.text;
  const auto& map = old_side ? m.fwd : m.back;
  if (auto it = map.find(t.text); it != map.end()) return "\x01" + (old_side ? it->second : t.text);
  if (rule == NameRule::Wildcard) return "\x02";
  return (old_side ? "\x03o" : "\x03n") + t.text;
}

std::string stmt_key(const Stmt& st, const Side& side, bool old_side, const Matching& m, NameRule rule) {
  std::string k;
  for (const Tok& t : st.toks) {
    k += token_key(t, side, old_side, m, rule);
    k += '\x1f';
  }
  return k;
}

// Token pairs of two statements: program names match any program name, other tokens by text.
Pairs loose_token_pairs(const Stmt& a, const Side& A, const Stmt& b, const Side& B) {
  return lcs(static_cast<int>(a.toks.size()), static_cast<int>(b.toks.size()), [&](int i, int j) {
    const Tok& x = a.toks[static_cast<std::size_t>(i)];
    const Tok& y = b.toks[static_cast<std::size_t>(j)];
    const bool nx = A.is_name(x), ny = B.is_name(y);
    return nx || ny ? nx && ny : x.text == y.text;
  });
}

double similarity(const Stmt& a, const Side& A, const Stmt& b, const Side& B) {
  const std::size_t total = a.toks.size() + b.toks.size();
  return total == 0 ? 1.0 : 2.0 * static_cast<double>(loose_token_pairs(a, A, b, B).size()) / static_cast<double>(total);
}

constexpr double kPairSimilarity = 0.4;  // a deleted and an inserted statement this alike are one changed statement
constexpr int kGapCells = 400;           // gaps up to this many (old x new) candidates are paired optimally

// The rows of a gap between two aligned pairs: similar statements paired (order kept), the rest deleted then
// inserted before each pair.
void fill_gap(const Side& A, const Side& B, int i0, int i1, int j0, int j1, Pairs& rows) {
  const int ga = i1 - i0, gb = j1 - j0;
  Pairs pairs;
  if (ga > 0 && gb > 0 && ga * gb <= kGapCells) {
    std::vector<double> sim(static_cast<std::size_t>(ga * gb));
    for (int i = 0; i < ga; ++i)
      for (int j = 0; j < gb; ++j)
        sim[static_cast<std::size_t>(i * gb + j)] =
            similarity(A.stmts[static_cast<std::size_t>(i0 + i)], A, B.stmts[static_cast<std::size_t>(j0 + j)], B);
    // best[i][j]: the largest total similarity pairing suffixes i.. and j..
    std::vector<double> best(static_cast<std::size_t>((ga + 1) * (gb + 1)), 0.0);
    auto at = [&](int i, int j) -> double& { return best[static_cast<std::size_t>(i * (gb + 1) + j)]; };
    auto s = [&](int i, int j) { return sim[static_cast<std::size_t>(i * gb + j)]; };
    for (int i = ga - 1; i >= 0; --i)
      for (int j = gb - 1; j >= 0; --j) {
        at(i, j) = std::max(at(i + 1, j), at(i, j + 1));
        if (s(i, j) >= kPairSimilarity) at(i, j) = std::max(at(i, j), at(i + 1, j + 1) + s(i, j));
      }
    int i = 0, j = 0;
    while (i < ga && j < gb) {
      if (s(i, j) >= kPairSimilarity && at(i, j) == at(i + 1, j + 1) + s(i, j)) {
        pairs.emplace_back(i0 + i, j0 + j);
        ++i, ++j;
      } else if (at(i, j) == at(i + 1, j)) {
        ++i;
      } else {
        ++j;
      }
    }
  } else {
    for (int k = 0; k < std::min(ga, gb); ++k)
      if (similarity(A.stmts[static_cast<std::size_t>(i0 + k)], A, B.stmts[static_cast<std::size_t>(j0 + k)], B) >=
          kPairSimilarity)
        pairs.emplace_back(i0 + k, j0 + k);
  }
  int i = i0, j = j0;
  for (const auto& [pi, pj] : pairs) {
    for (; i < pi; ++i) rows.emplace_back(i, -1);
    for (; j < pj; ++j) rows.emplace_back(-1, j);
    rows.emplace_back(pi, pj);
    i = pi + 1, j = pj + 1;
  }
  for (; i < i1; ++i) rows.emplace_back(i, -1);
  for (; j < j1; ++j) rows.emplace_back(-1, j);
}

// The rows under a matching: an LCS over the statements' keys, the gaps filled by similarity.
Pairs align(const Side& A, const Side& B, const Matching& m, std::vector<bool>& same_key) {
  std::unordered_map<std::string, int> ids;
  auto intern = [&](const Side& s, bool old_side) {
    std::vector<int> out;
    for (const Stmt& st : s.stmts)
      out.push_back(ids.emplace(stmt_key(st, s, old_side, m, NameRule::Wildcard), static_cast<int>(ids.size())).first->second);
    return out;
  };
  const std::vector<int> ka = intern(A, true), kb = intern(B, false);
  const Pairs common = lcs(static_cast<int>(ka.size()), static_cast<int>(kb.size()),
                           [&](int i, int j) { return ka[static_cast<std::size_t>(i)] == kb[static_cast<std::size_t>(j)]; });
  Pairs rows;
  int i = 0, j = 0;
  for (const auto& [ci, cj] : common) {
    fill_gap(A, B, i, ci, j, cj, rows);
    rows.emplace_back(ci, cj);
    i = ci + 1, j = cj + 1;
  }
  fill_gap(A, B, i, static_cast<int>(ka.size()), j, static_cast<int>(kb.size()), rows);
  same_key.clear();
  for (const auto& [ri, rj] : rows)
    same_key.push_back(ri >= 0 && rj >= 0 && ka[static_cast<std::size_t>(ri)] == kb[static_cast<std::size_t>(rj)]);
  return rows;
}

// The names matched by the aligned pairs: each pair's corresponding names vote (definitions twice, pairs with
// equal keys four times a changed pair); the best-voted one-to-one matching wins.
Matching match_names(const Side& A, const Side& B, const Pairs& rows, const std::vector<bool>& same_key) {
  std::map<std::pair<std::string, std::string>, double> votes;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto [ri, rj] = rows[r];
    if (ri < 0 || rj < 0) continue;
    const Stmt& a = A.stmts[static_cast<std::size_t>(ri)];
    const Stmt& b = B.stmts[static_cast<std::size_t>(rj)];
    const double w = same_key[r] ? 4.0 : 1.0;
    for (const auto& [ti, tj] : loose_token_pairs(a, A, b, B)) {
      const Tok& x = a.toks[static_cast<std::size_t>(ti)];
      const Tok& y = b.toks[static_cast<std::size_t>(tj)];
      if (A.is_name(x) && B.is_name(y)) votes[{x.text, y.text}] += w * (x.target && y.target ? 2.0 : 1.0);
    }
  }
  std::vector<std::tuple<double, int, int, std::string, std::string>> cands;
  for (const auto& [names, v] : votes) {
    const double bonus = names.first == names.second ? 0.5 : 0.0;  // ties go to the unchanged name
    cands.emplace_back(-(v + bonus), A.rank(names.first), B.rank(names.second), names.first, names.second);
  }
  std::sort(cands.begin(), cands.end());
  Matching m;
  for (const auto& [v, ra, rb, a, b] : cands)
    if (!m.fwd.count(a) && !m.back.count(b)) {
      m.fwd[a] = b;
      m.back[b] = a;
    }
  return m;
}

DiffSide side_of(const Stmt& st) {
  DiffSide d;
  d.first_line = st.first_line;
  d.last_line = st.last_line;
  d.text = render_tokens(st.toks);
  return d;
}

// Marks `changed` tokens and (when not changed) renamed names of one side.
void mark(DiffSide& d, const Stmt& st, const std::vector<bool>& changed, const Side& side, bool old_side,
          const Matching& m) {
  std::vector<std::pair<int, int>> ranges;
  render_tokens(st.toks, &ranges);
  const auto& map = old_side ? m.fwd : m.back;
  for (std::size_t k = 0; k < st.toks.size(); ++k) {
    const Tok& t = st.toks[k];
    if (changed[k]) {
      d.marks.push_back({ranges[k].first, ranges[k].second, TokenMark::Changed});
    } else if (side.is_name(t)) {
      auto it = map.find(t.text);
      if (it != map.end() && it->second != t.text)
        d.marks.push_back({ranges[k].first, ranges[k].second, TokenMark::Renamed});
    }
  }
}

// The tokens of each side that have no counterpart under `eq`.
template <class Eq>
std::pair<std::vector<bool>, std::vector<bool>> unmatched(std::size_t na, std::size_t nb, Eq&& eq) {
  std::vector<bool> ca(na, true), cb(nb, true);
  for (const auto& [i, j] : lcs(static_cast<int>(na), static_cast<int>(nb), eq)) {
    ca[static_cast<std::size_t>(i)] = false;
    cb[static_cast<std::size_t>(j)] = false;
  }
  return {ca, cb};
}

void count(ProgramDiff& d) {
  d.equal = d.changed = d.inserted = d.deleted = 0;
  for (const DiffRow& r : d.rows) switch (r.kind) {
      case RowChange::Equal: ++d.equal; break;
      case RowChange::Changed: ++d.changed; break;
      case RowChange::Deleted: ++d.deleted; break;
      case RowChange::Inserted: ++d.inserted; break;
    }
}

ProgramDiff aligned_diff(const Side& A, const Side& B) {
  Matching m;
  Pairs rows;
  std::vector<bool> same_key;
  for (int it = 0; it < 6; ++it) {
    rows = align(A, B, m, same_key);
    Matching next = match_names(A, B, rows, same_key);
    if (next == m) break;
    m = std::move(next);
    if (it == 5) rows = align(A, B, m, same_key);
  }
  ProgramDiff d;
  for (const auto& [ri, rj] : rows) {
    DiffRow row;
    if (ri < 0 || rj < 0) {
      row.kind = ri < 0 ? RowChange::Inserted : RowChange::Deleted;
      (ri < 0 ? row.new_side : row.old_side) = side_of(ri < 0 ? B.stmts[static_cast<std::size_t>(rj)]
                                                                : A.stmts[static_cast<std::size_t>(ri)]);
      d.rows.push_back(std::move(row));
      continue;
    }
    const Stmt& a = A.stmts[static_cast<std::size_t>(ri)];
    const Stmt& b = B.stmts[static_cast<std::size_t>(rj)];
    row.old_side = side_of(a);
    row.new_side = side_of(b);
    std::vector<std::string> ka, kb;
    for (const Tok& t : a.toks) ka.push_back(token_key(t, A, true, m, NameRule::Strict));
    for (const Tok& t : b.toks) kb.push_back(token_key(t, B, false, m, NameRule::Strict));
    row.kind = ka == kb ? RowChange::Equal : RowChange::Changed;
    const auto [ca, cb] = unmatched(ka.size(), kb.size(), [&](int i, int j) {
      return ka[static_cast<std::size_t>(i)] == kb[static_cast<std::size_t>(j)];
    });
    mark(row.old_side, a, ca, A, true, m);
    mark(row.new_side, b, cb, B, false, m);
    d.rows.push_back(std::move(row));
  }
  for (const std::string& a : A.order)
    if (auto it = m.fwd.find(a); it != m.fwd.end() && it->second != a) d.renames.push_back({a, it->second});
  count(d);
  return d;
}

// The line-by-line comparison (a side that does not parse): rows of the line diff, changed tokens marked.
ProgramDiff line_diff(std::string_view old_text, std::string_view new_text, std::string note, std::size_t max_tokens) {
  ProgramDiff d;
  d.aligned = false;
  d.note = std::move(note);
  const auto script = text::diff_texts(old_text, new_text);
  for (const text::SideBySideRow& r : text::side_by_side(script)) {
    DiffRow row;
    const std::vector<Tok> ta = tokenize_line(r.old_text, max_tokens), tb = tokenize_line(r.new_text, max_tokens);
    auto fill = [](DiffSide& s, int line, const std::vector<Tok>& toks) {
      s.first_line = s.last_line = line;
      if (line > 0) s.text = render_tokens(toks);
    };
    fill(row.old_side, r.old_line, ta);
    fill(row.new_side, r.new_line, tb);
    switch (r.kind) {
      case text::RowKind::Equal: row.kind = RowChange::Equal; break;
      case text::RowKind::Deleted: row.kind = RowChange::Deleted; break;
      case text::RowKind::Inserted: row.kind = RowChange::Inserted; break;
      case text::RowKind::Changed: {
        row.kind = RowChange::Changed;
        const auto [ca, cb] =
            unmatched(ta.size(), tb.size(), [&](int i, int j) { return ta[static_cast<std::size_t>(i)].text == tb[static_cast<std::size_t>(j)].text; });
        std::vector<std::pair<int, int>> ra, rb;
        render_tokens(ta, &ra);
        render_tokens(tb, &rb);
        for (std::size_t k = 0; k < ta.size(); ++k)
          if (ca[k]) row.old_side.marks.push_back({ra[k].first, ra[k].second, TokenMark::Changed});
        for (std::size_t k = 0; k < tb.size(); ++k)
          if (cb[k]) row.new_side.marks.push_back({rb[k].first, rb[k].second, TokenMark::Changed});
        break;
      }
    }
    d.rows.push_back(std::move(row));
  }
  count(d);
  return d;
}

// "" when `text` parses in `dialect`, else "line L: message".
std::string parse_error(std::string_view text, DiffDialect dialect) {
  Diagnostics ds;
  const bool ok = dialect == DiffDialect::V2 ? step2::parse_program(text, step2::ParseOptions{}, ds).has_value()
                                             : step::parse_impl(text, step::ParseOptions{}, ds).has_value();
  if (ok) return {};
  for (const auto& diag : ds)
    if (diag.is_error()) return "line " + std::to_string(diag.loc.line) + ": " + diag.message;
  return "does not parse";
}

const char* dialect_name(DiffDialect d) { return d == DiffDialect::V2 ? "step-v2" : "step-v1"; }

}  // namespace

ProgramDiff diff_programs(std::string_view old_text, std::string_view new_text, const ProgramDiffOptions& opt) {
  const SplitLimits limits{opt.max_bytes, opt.max_statements, opt.max_tokens};
  std::string err_old, err_new;
  auto so = split_statements(old_text, limits, false, err_old);
  auto sn = split_statements(new_text, limits, false, err_new);
  if (!so || !sn) {
    const std::string why = !so ? "the old program: " + err_old : "the new program: " + err_new;
    const std::size_t cut = std::min(old_text.size(), opt.max_bytes), cutn = std::min(new_text.size(), opt.max_bytes);
    return line_diff(old_text.substr(0, cut), new_text.substr(0, cutn), why + "; compared line by line",
                     opt.max_tokens);
  }
  // The parse gate: both sides (an empty one needs none) in one dialect.
  std::vector<DiffDialect> tries = {opt.dialect};
  if (opt.dialect == DiffDialect::Auto) tries = {DiffDialect::V1, DiffDialect::V2};
  int best = -1, best_ok = -1;
  std::vector<std::pair<std::string, std::string>> errors;
  for (std::size_t k = 0; k < tries.size(); ++k) {
    errors.emplace_back(so->empty() ? std::string() : parse_error(old_text, tries[k]),
                        sn->empty() ? std::string() : parse_error(new_text, tries[k]));
    const int ok = (errors.back().first.empty() ? 1 : 0) + (errors.back().second.empty() ? 1 : 0);
    if (ok > best_ok) best = static_cast<int>(k), best_ok = ok;
    if (ok == 2) break;
  }
  const DiffDialect dialect = tries[static_cast<std::size_t>(best)];
  if (best_ok < 2) {
    const auto& [eo, en] = errors[static_cast<std::size_t>(best)];
    std::string why;
    if (!eo.empty()) why = "the old program does not parse as " + std::string(dialect_name(dialect)) + " (" + eo + ")";
    if (!en.empty())
      why += (why.empty() ? "the new program" : "; the new one") + std::string(" does not parse as ") +
             dialect_name(dialect) + " (" + en + ")";
    return line_diff(old_text, new_text, why + "; compared line by line", opt.max_tokens);
  }
  ProgramDiff d = aligned_diff(make_side(std::move(*so)), make_side(std::move(*sn)));
  d.dialect = dialect_name(dialect);
  return d;
}

std::string renames_text(const std::vector<StreamRename>& renames) {
  std::string s;
  for (const auto& r : renames) s += (s.empty() ? "" : ", ") + r.from + "\u2192" + r.to;
  return s;
}

}  // namespace sf::inspect
