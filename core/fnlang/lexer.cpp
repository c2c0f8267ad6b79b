#include "core/fnlang/lexer.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>

namespace sf::fnlang {
namespace {

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::vector<Token> Lexer::run() {
  std::vector<Token> out;
  int line = 0;
  std::size_t line_begin = 0;
  int depth = 0;
  BodyLoc first_open{};  // the outermost bracket still open (depth > 0) and its character
  char first_open_char = '(';
  int max_depth = 0;
  std::size_t i = 0;
  const std::size_t n = src_.size();
  auto here = [&](std::size_t pos) { return BodyLoc{line, static_cast<int>(pos - line_begin)}; };
  auto newline = [&](std::size_t pos) {
    if (depth == 0 && !out.empty() && out.back().kind != TokKind::Newline) {
      Token t;
      t.kind = TokKind::Newline;
      t.at = here(pos);
      out.push_back(std::move(t));
    }
  };
  while (i < n) {
    const char c = src_[i];
    if (c == '\n') {
      newline(i > line_begin && src_[i - 1] == '\r' ? i - 1 : i);
      ++i;
      ++line;
      line_begin = i;
      continue;
    }
    if (c == '\r' || c == ' ' || c == '\t' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < n && src_[i] != '\n') ++i;
      continue;
    }
    Token t;
    t.at = here(i);
    const std::size_t start = i;
    if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(src_[i + 1]))) {
      bool is_float = false;
      while (i < n && is_digit(src_[i])) ++i;
      if (i < n && src_[i] == '.' && !(i + 2 < n && src_[i + 1] == '.' && src_[i + 2] == '.')) {
        is_float = true;
        ++i;
        while (i < n && is_digit(src_[i])) ++i;
      }
      if (i < n && (src_[i] == 'e' || src_[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < n && (src_[j] == '+' || src_[j] == '-')) ++j;
        if (j < n && is_digit(src_[j])) {
          is_float = true;
          i = j;
          while (i < n && is_digit(src_[i])) ++i;
        } else {
          throw FnError{"SYNTAX", true, t.at, "malformed number '" + std::string(src_.substr(start, j - start)) + "'"};
        }
      }
      if (i < n && (is_name_start(src_[i]) || is_digit(src_[i]))) {
        throw FnError{"SYNTAX", true, here(i), "unexpected character '" + std::string(1, src_[i]) + "' after a number"};
      }
      t.text = std::string(src_.substr(start, i - start));
      if (is_float) {
        t.kind = TokKind::Float;
        t.num = std::strtod(t.text.c_str(), nullptr);
      } else {
        t.kind = TokKind::Int;
        // P-INT: above 2^31 - 1 (also guards against overflow of the parse).
        std::size_t digits = t.text.size();
        std::size_t k = 0;
        while (k + 1 < digits && t.text[k] == '0') ++k;
        std::int64_t v = 0;
        if (digits - k > 10) {
          v = INT64_MAX;
        } else {
          std::from_chars(t.text.data() + k, t.text.data() + digits, v);
        }
        if (v > 2147483647LL) {
          throw FnError{"P-INT", false, t.at, "integer literal " + t.text + " is larger than 2^31 - 1"};
        }
        t.ival = v;
        t.num = static_cast<double>(v);
      }
      out.push_back(std::move(t));
      continue;
    }
    if (is_name_start(c)) {
      while (i < n && (is_name_start(src_[i]) || is_digit(src_[i]))) ++i;
      t.kind = TokKind::Name;
      t.text = std::string(src_.substr(start, i - start));
      out.push_back(std::move(t));
      continue;
    }
    if (c == '\'' || c == '"') {
      ++i;
      while (i < n && src_[i] != c && src_[i] != '\n') ++i;
      if (i >= n || src_[i] != c) throw FnError{"SYNTAX", true, t.at, "unterminated string"};
      t.kind = TokKind::String;
      t.text = std::string(src_.substr(start + 1, i - start - 1));
      ++i;
      out.push_back(std::move(t));
      continue;
    }
    if (c == '.' && i + 2 < n && src_[i + 1] == '.' && src_[i + 2] == '.') {
      t.kind = TokKind::Ellipsis;
      t.text = "...";
      i += 3;
      out.push_back(std::move(t));
      continue;
    }
    static constexpr std::string_view two[] = {"**", "//", ">=", "<=", "==", "!="};
    bool matched = false;
    for (auto op : two) {
      if (src_.substr(i, 2) == op) {
        t.kind = TokKind::Op;
        t.text = std::string(op);
        i += 2;
        matched = true;
        break;
      }
    }
    if (!matched) {
      static constexpr std::string_view one = "()[],=:+-*/@><";
      if (one.find(c) == std::string_view::npos) {
        std::string shown = (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126)
                                ? "byte " + std::to_string(static_cast<unsigned char>(c))
                                : std::string("'") + c + "'";
        throw FnError{"SYNTAX", true, t.at, "unexpected character " + shown};
      }
      t.kind = TokKind::Op;
      t.text = std::string(1, c);
      ++i;
      if ((c == '(' || c == '[') && depth++ == 0) {
        first_open = t.at;
        first_open_char = c;
      }
      max_depth = std::max(max_depth, depth);
      if ((c == ')' || c == ']') && depth > 0) --depth;
    }
    out.push_back(std::move(t));
  }
  if (depth > 0 && max_depth <= kMaxNesting) {
    // An unclosed bracket swallows the rest of the body (implicit line joining): report the bracket itself,
    // as the impl lexer does, instead of the end of the body. Brackets nested too deeply are the parser's
    // P-NESTING, which comes first.
    throw FnError{"SYNTAX", true, first_open, std::string("'") + first_open_char + "' is never closed"};
  }
  if (!out.empty() && out.back().kind != TokKind::Newline) {
    Token t;
    t.kind = TokKind::Newline;
    t.at = here(n);
    out.push_back(std::move(t));
  }
  Token e;
  e.kind = TokKind::End;
  e.at = here(n);
  out.push_back(std::move(e));
  return out;
}

}  // namespace sf::fnlang
