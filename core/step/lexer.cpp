#include "core/step/lexer.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <initializer_list>

namespace sf::step {

namespace {

constexpr std::int64_t kMaxInt = 2147483647;

std::string hex_byte(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned>(c));
  return buf;
}

// Length of the valid UTF-8 sequence starting at s[i] (1..4), or 0 if the bytes there are not valid UTF-8.
std::size_t utf8_len(std::string_view s, std::size_t i, std::uint32_t* cp = nullptr) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  std::size_t n;
  std::uint32_t v;
  if (c < 0x80) {
    if (cp) *cp = c;
    return 1;
  } else if (c >= 0xC2 && c <= 0xDF) {
    n = 2, v = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, v = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, v = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    v = (v << 6) | (b(i + k) & 0x3F);
  }
  if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10FFFF)) || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  if (cp) *cp = v;
  return n;
}

constexpr bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
// [A-Za-z0-9_] by byte: one load per character of a name.
constexpr std::array<bool, 256> kStepNameChars = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const auto ch = static_cast<char>(c);
    t[static_cast<std::size_t>(c)] = is_name_start(ch) || is_digit(ch);
  }
  return t;
}();
inline bool is_name_char(char c) { return kStepNameChars[static_cast<unsigned char>(c)]; }

constexpr std::string_view kAllowed = "only names, non-negative integers, = , . ( ) [ ] and # comments may appear";

std::size_t line_begin_of(std::string_view text, int line) {
  std::size_t pos = 0;
  for (int l = 0; l < line; ++l) pos = text.find('\n', pos) + 1;
  return pos;
}

}  // namespace

Location LocationMap::at(int line, int col) const {
  if (!starts_ || starts_->empty()) return Location{line + 1, col + 1};
  const auto& s = *starts_;
  if (line < static_cast<int>(s.size())) return Location{s[line].line, s[line].column + col};
  return Location{s.back().line + (line - static_cast<int>(s.size()) + 1), col + 1};
}

bool is_python_keyword(std::string_view s) {
  // Grouped by length: the parser asks for every name token, and most names are rejected by their length or
  // first character without a comparison.
  auto any = [&](std::initializer_list<std::string_view> kws) {
    for (auto k : kws)
      if (k[0] == s[0] && k == s) return true;
    return false;
  };
  switch (s.size()) {
    case 2: return any({"as", "if", "in", "is", "or"});
    case 3: return any({"and", "def", "del", "for", "not", "try"});
    case 4: return any({"None", "True", "elif", "else", "from", "pass", "with"});
    case 5: return any({"False", "async", "await", "break", "class", "raise", "while", "yield"});
    case 6: return any({"assert", "except", "global", "import", "lambda", "return"});
    case 7: return s == "finally";
    case 8: return any({"continue", "nonlocal"});
    default: return false;
  }
}

bool is_reserved_word(std::string_view s) {
  return s == "step" || s == "zip" || is_python_keyword(s) || is_primitive_name(s);
}

std::vector<Token> tokenize(std::string_view text, const LocationMap& map, int max_nesting) {
  std::vector<Token> out;
  out.reserve(text.size() / 4 + 16);  // about one token per 4 bytes of typical impl text: no regrowth moves
  int line = 0;
  std::size_t line_begin = 0;
  int depth = 0;
  std::vector<std::pair<int, std::size_t>> open;  // (line, byte offset) of each unclosed bracket
  std::size_t i = 0;
  const std::size_t n = text.size();

  auto col_of = [&](std::size_t pos) { return static_cast<int>(pos - line_begin); };
  auto error = [&](std::size_t pos, std::string code, const std::string& msg) {
    Token t;
    t.kind = TokKind::Error;
    t.line = line;
    t.col = col_of(pos);
    Location loc = map.at(t.line, t.col);
    t.error = std::make_shared<const Diagnostic>(
        make_error(std::move(code), "line " + std::to_string(loc.line) + ": " + msg, loc));
    out.push_back(std::move(t));
    return out;
  };
  auto push = [&](TokKind k, std::size_t pos, std::string_view txt, std::int64_t v = 0) {
    Token& t = out.emplace_back();  // built in place: no temporary token
    t.kind = k;
    t.text = txt;  // a view into `text` (or the static "\n"): the parser copies what the program keeps
    t.value = v;
    t.line = line;
    t.col = col_of(pos);
  };

  while (i < n) {
    char c = text[i];
    if (c == '\n') {
      if (depth == 0 && !out.empty() && out.back().kind != TokKind::Newline) push(TokKind::Newline, i, "\n");
      ++i;
      ++line;
      line_begin = i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < n && text[i] != '\n') {
        if (static_cast<unsigned char>(text[i]) < 0x80) {  // ASCII: what utf8_len says, without the call
          ++i;
          continue;
        }
        std::size_t len = utf8_len(text, i);
        if (len == 0) return error(i, "P-SYNTAX", "invalid UTF-8 byte " + hex_byte(static_cast<unsigned char>(text[i])));
        i += len;
      }
      continue;
    }
    if (is_name_start(c)) {
      std::size_t b = i;
      while (i < n && is_name_char(text[i])) ++i;
      push(TokKind::Name, b, text.substr(b, i - b));
      continue;
    }
    if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(text[i + 1]))) {
      std::size_t b = i;
      while (i < n && is_digit(text[i])) ++i;
      bool is_float = (i < n && (text[i] == '.' || text[i] == 'e' || text[i] == 'E')) || c == '.';
      if (is_float || (i < n && is_name_char(text[i]))) {
        std::size_t e = i;
        while (e < n && (is_name_char(text[e]) || text[e] == '.' ||
                         ((text[e] == '+' || text[e] == '-') && (text[e - 1] == 'e' || text[e - 1] == 'E'))))
          ++e;
        std::string lit(text.substr(b, std::min<std::size_t>(e - b, 40)));
        if (is_float)
          return error(b, "P-SYNTAX", "the float literal '" + lit + "' is not STeP syntax: " + std::string(kAllowed));
        return error(b, "P-SYNTAX", "the token '" + lit + "' is not STeP syntax: a name cannot start with a digit");
      }
      std::int64_t v = 0;
      for (std::size_t k = b; k < i; ++k) {
        v = v * 10 + (text[k] - '0');
        if (v > kMaxInt) {
          std::string lit(text.substr(b, std::min<std::size_t>(i - b, 40)));
          if (i - b > 40) lit += "...";
          return error(b, "P-INT", "the integer " + lit + " is too large (integers are at most 2147483647)");
        }
      }
      push(TokKind::Int, b, text.substr(b, i - b), v);
      continue;
    }
    switch (c) {
      case '(':
      case '[':
        if (depth >= max_nesting)
          return error(i, "P-NESTING", "brackets nest more than " + std::to_string(max_nesting) + " levels deep");
        ++depth;
        open.emplace_back(line, i - line_begin);
        push(TokKind::Punct, i, text.substr(i, 1));
        ++i;
        continue;
      case ')':
      case ']':
        if (depth > 0) --depth, open.pop_back();
        push(TokKind::Punct, i, text.substr(i, 1));
        ++i;
        continue;
      case '=':
        if (i + 1 < n && text[i + 1] == '=')
          return error(i, "P-SYNTAX", "the operator '==' is not STeP syntax: " + std::string(kAllowed));
        [[fallthrough]];
      case ',':
      case '.':
        push(TokKind::Punct, i, text.substr(i, 1));
        ++i;
        continue;
      case '"':
      case '\'':
        return error(i, "P-SYNTAX", "a string literal is not STeP syntax: " + std::string(kAllowed));
      case ';':
        return error(i, "P-SYNTAX", "';' is not STeP syntax: write one statement per line");
      case '\\':
        return error(i, "P-SYNTAX",
                     "'\\' (line continuation) is not STeP syntax: to continue a statement, break the line inside "
                     "( ) or [ ]");
      case '{':
      case '}':
        return error(i, "P-SYNTAX",
                     std::string("'") + c + "' is not STeP syntax: dicts and sets do not exist in STeP; " +
                         std::string(kAllowed));
      default: break;
    }
    unsigned char uc = static_cast<unsigned char>(c);
    if (uc >= 0x80) {
      std::uint32_t cp = 0;
      std::size_t len = utf8_len(text, i, &cp);
      if (len == 0) return error(i, "P-SYNTAX", "invalid UTF-8 byte " + hex_byte(uc));
      char buf[16];
      std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
      return error(i, "P-SYNTAX",
                   "the character '" + std::string(text.substr(i, len)) + "' (" + buf +
                       ") is not STeP syntax: names are ASCII; " + std::string(kAllowed));
    }
    if (uc < 0x20 || uc == 0x7F)
      return error(i, "P-SYNTAX", "the control byte " + hex_byte(uc) + " is not STeP syntax");
    // Remaining printable ASCII: operators and other punctuation.
    std::size_t e = i + 1;
    static constexpr std::string_view kOps = "+-*/%@<>=!&|^~:";
    if (kOps.find(c) != std::string_view::npos)
      while (e < n && e < i + 3 && kOps.find(text[e]) != std::string_view::npos) ++e;
    return error(i, "P-SYNTAX",
                 "the operator '" + std::string(text.substr(i, e - i)) + "' is not STeP syntax: " +
                     std::string(kAllowed));
  }
  if (!open.empty()) {
    // An unclosed bracket swallows the rest of the text (implicit line joining): report the bracket itself.
    const auto [bl, bc] = open.back();
    const char br = text[line_begin_of(text, bl) + bc];
    line = bl;
    line_begin = line_begin_of(text, bl);
    return error(line_begin + bc, "P-SYNTAX", std::string("'") + br + "' is never closed");
  }
  if (!out.empty() && out.back().kind != TokKind::Newline) push(TokKind::Newline, n, "\n");
  Token end;
  end.kind = TokKind::End;
  end.line = line;
  end.col = col_of(n);
  out.push_back(std::move(end));
  return out;
}

}  // namespace sf::step
