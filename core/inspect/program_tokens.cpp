#include "core/inspect/program_tokens.hpp"

#include <algorithm>

namespace sf::inspect {

namespace {

bool ident_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool ident_char(char c) { return ident_start(c) || digit(c); }

// Length of the UTF-8 sequence starting with byte `c` (1 for ASCII and for stray bytes).
std::size_t utf8_len(unsigned char c) {
  if (c >= 0xF0) return 4;
  if (c >= 0xE0) return 3;
  if (c >= 0xC0) return 2;
  return 1;
}

// Scans `text`, calling tok(Tok) for every token and newline(line) at every '\n' (line = the line it ends).
template <class OnTok, class OnNewline>
void lex(std::string_view text, bool keep_comments, OnTok&& tok, OnNewline&& newline) {
  int line = 1;
  bool space = false;
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const char c = text[i];
    if (c == '\n') {
      newline(line);
      ++line;
      space = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      space = true;
      ++i;
      continue;
    }
    Tok t;
    t.line = line;
    t.space_before = space;
    space = false;
    std::size_t j = i + 1;
    if (c == '#') {
      while (j < n && text[j] != '\n') ++j;
      if (!keep_comments) {
        space = true;
        i = j;
        continue;
      }
      t.kind = TokKind::Comment;
      while (j > i + 1 && (text[j - 1] == ' ' || text[j - 1] == '\t' || text[j - 1] == '\r')) --j;
    } else if (ident_start(c)) {
      while (j < n && ident_char(text[j])) ++j;
      t.kind = TokKind::Ident;
    } else if (digit(c)) {
      while (j < n && (ident_char(text[j]) || text[j] == '.' ||
                       ((text[j] == '-' || text[j] == '+') && (text[j - 1] == 'e' || text[j - 1] == 'E'))))
        ++j;
      t.kind = TokKind::Number;
    } else if (c == '"' || c == '\'') {
      while (j < n && text[j] != c && text[j] != '\n') j += text[j] == '\\' && j + 1 < n && text[j + 1] != '\n' ? 2 : 1;
      if (j < n && text[j] == c) ++j;
      t.kind = TokKind::String;
    } else {
      j = std::min(n, i + utf8_len(static_cast<unsigned char>(c)));
      t.kind = TokKind::Punct;
    }
    t.text.assign(text.substr(i, j - i));
    i = j;
    tok(std::move(t));
  }
}

bool is_punct(const Tok& t, char c) { return t.kind == TokKind::Punct && t.text.size() == 1 && t.text[0] == c; }

// Marks targets, keyword keys and attributes, and lists the names the statement defines.
void annotate(Stmt& s) {
  auto& ts = s.toks;
  int depth = 0;
  std::size_t assign = ts.size();
  for (std::size_t k = 0; k < ts.size(); ++k) {
    Tok& t = ts[k];
    if (t.kind == TokKind::Punct && t.text.size() == 1) {
      const char c = t.text[0];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      // A lone `=` (not ==, <=, >=, !=, and not followed by =).
      const bool joined_before = k > 0 && !t.space_before && ts[k - 1].kind == TokKind::Punct &&
                                 std::string_view("=<>!").find(ts[k - 1].text[0]) != std::string_view::npos;
      const bool joined_after = k + 1 < ts.size() && !ts[k + 1].space_before && is_punct(ts[k + 1], '=');
      if (c == '=' && !joined_before && !joined_after) {
        if (depth == 0 && assign == ts.size()) assign = k;
        if (depth > 0 && k > 0 && ts[k - 1].kind == TokKind::Ident) ts[k - 1].kwkey = true;
      }
    }
    if (t.kind == TokKind::Ident && k > 0 && is_punct(ts[k - 1], '.')) t.attr = true;
  }
  for (std::size_t k = 0; k < assign && assign < ts.size(); ++k)
    if (ts[k].kind == TokKind::Ident) {
      ts[k].target = true;
      s.defines.push_back(ts[k].text);
    }
  for (std::size_t k = 0; k < ts.size(); ++k) {
    if (ts[k].kind != TokKind::Ident || ts[k].text != "for" || ts[k].attr) continue;
    for (std::size_t m = k + 1; m < ts.size() && !(ts[m].kind == TokKind::Ident && ts[m].text == "in"); ++m)
      if (ts[m].kind == TokKind::Ident) s.defines.push_back(ts[m].text);
  }
}

}  // namespace

std::optional<std::vector<Stmt>> split_statements(std::string_view text, const SplitLimits& limits,
                                                  bool keep_comments, std::string& error) {
  if (text.size() > limits.max_bytes) {
    error = "the text is over " + (limits.max_bytes % 1024 == 0 ? std::to_string(limits.max_bytes / 1024) + " KiB"
                                                                : std::to_string(limits.max_bytes) + " bytes");
    return std::nullopt;
  }
  std::vector<Stmt> out;
  Stmt cur;
  int depth = 0;
  bool over = false;
  auto close = [&] {
    if (cur.toks.empty()) return;
    cur.first_line = cur.toks.front().line;
    cur.last_line = cur.toks.back().line;
    annotate(cur);
    out.push_back(std::move(cur));
    cur = Stmt{};
    depth = 0;
    if (out.size() > limits.max_statements) over = true;
  };
  lex(
      text, keep_comments,
      [&](Tok&& t) {
        if (over) return;
        if (is_punct(t, ';') && depth == 0) return close();
        if (t.kind == TokKind::Punct && t.text.size() == 1) {
          if (std::string_view("([{").find(t.text[0]) != std::string_view::npos) ++depth;
          if (std::string_view(")]}").find(t.text[0]) != std::string_view::npos && depth > 0) --depth;
        }
        if (cur.toks.size() >= limits.max_tokens) {
          error = "a statement at line " + std::to_string(t.line) + " has over " +
                  std::to_string(limits.max_tokens) + " tokens";
          over = true;
          return;
        }
        cur.toks.push_back(std::move(t));
      },
      [&](int) {
        if (depth == 0) close();
      });
  if (!over) close();
  if (over) {
    if (error.empty()) error = "the text has over " + std::to_string(limits.max_statements) + " statements";
    return std::nullopt;
  }
  return out;
}

std::vector<Tok> tokenize_line(std::string_view line, std::size_t max_tokens) {
  std::vector<Tok> out;
  lex(
      line, true,
      [&](Tok&& t) {
        if (out.size() < max_tokens) out.push_back(std::move(t));
      },
      [](int) {});
  return out;
}

std::string render_tokens(const std::vector<Tok>& toks, std::vector<std::pair<int, int>>* ranges) {
  std::string s;
  if (ranges) ranges->clear();
  for (std::size_t k = 0; k < toks.size(); ++k) {
    if (k > 0 && toks[k].space_before) s += ' ';
    const int b = static_cast<int>(s.size());
    s += toks[k].text;
    if (ranges) ranges->emplace_back(b, static_cast<int>(s.size()));
  }
  return s;
}

}  // namespace sf::inspect
