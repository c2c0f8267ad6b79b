#include "core/inspect/perf2_whatif.hpp"

#include <algorithm>
#include <cctype>

namespace sf::inspect::perf2 {

namespace {

constexpr std::size_t kMaxSource = 4u << 20;  // what-if edits on larger texts are refused

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// [begin, end) of 1-based line `line` (without its newline); false when out of range.
bool line_span(std::string_view src, int line, std::size_t& begin, std::size_t& end) {
  if (line < 1) return false;
  std::size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    const auto nl = src.find('\n', pos);
    if (nl == std::string_view::npos) return false;
    pos = nl + 1;
  }
  begin = pos;
  end = src.find('\n', pos);
  if (end == std::string_view::npos) end = src.size();
  const auto hash = src.substr(begin, end - begin).find('#');
  if (hash != std::string_view::npos) end = begin + hash;
  return true;
}

// The kwargs region of `step.Op(` ... `)` on the line: [open+1, close).
bool call_span(std::string_view src, std::size_t begin, std::size_t end, std::size_t& open, std::size_t& close) {
  const auto text = src.substr(begin, end - begin);
  const auto st = text.find("step.");
  if (st == std::string_view::npos) return false;
  const auto par = text.find('(', st);
  if (par == std::string_view::npos) return false;
  int depth = 0;
  for (std::size_t i = par; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') {
      if (--depth == 0) {
        open = begin + par;
        close = begin + i;
        return true;
      }
    }
  }
  return false;
}

// The value span of key= inside (open, close), at bracket depth 0 relative to the call.
bool value_span(std::string_view src, std::size_t open, std::size_t close, std::string_view key, std::size_t& vb,
                std::size_t& ve) {
  int depth = 0;
  for (std::size_t i = open + 1; i < close; ++i) {
    const char c = src[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth != 0 || i + key.size() > close || src.compare(i, key.size(), key) != 0) continue;
    if (i > open + 1 && ident_char(src[i - 1])) continue;
    std::size_t j = i + key.size();
    while (j < close && src[j] == ' ') ++j;
    if (j >= close || src[j] != '=') continue;
    ++j;
    while (j < close && src[j] == ' ') ++j;
    vb = j;
    int d = 0;
    std::size_t k = j;
    for (; k < close; ++k) {
      if (src[k] == '(' || src[k] == '[') ++d;
      if (src[k] == ')' || src[k] == ']') --d;
      if (d == 0 && src[k] == ',') break;
    }
    ve = k;
    while (ve > vb && src[ve - 1] == ' ') --ve;
    return true;
  }
  return false;
}

void set_err(std::string* error, std::string msg) {
  if (error) *error = std::move(msg);
}

}  // namespace

std::vector<std::string> split_list(std::string_view text) {
  std::string t = trim(text);
  if (t.size() >= 2 && t.front() == '[' && t.back() == ']') t = t.substr(1, t.size() - 2);
  std::vector<std::string> out;
  if (trim(t).empty()) return out;
  int d = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= t.size(); ++i) {
    if (i < t.size() && (t[i] == '[' || t[i] == '(')) ++d;
    if (i < t.size() && (t[i] == ']' || t[i] == ')')) --d;
    if (i == t.size() || (d == 0 && t[i] == ',')) {
      out.push_back(trim(std::string_view(t).substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

std::vector<std::int64_t> divisors(std::int64_t n) {
  std::vector<std::int64_t> out;
  if (n < 1 || n > (std::int64_t{1} << 31)) return out;
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      out.push_back(d);
      if (d != n / d) out.push_back(n / d);
    }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<std::string> kwarg_text(std::string_view source, int line, std::string_view key) {
  std::size_t b, e, o, c, vb, ve;
  if (source.size() > kMaxSource || !line_span(source, line, b, e) || !call_span(source, b, e, o, c) ||
      !value_span(source, o, c, key, vb, ve))
    return std::nullopt;
  return std::string(source.substr(vb, ve - vb));
}

std::optional<std::string> set_kwarg(std::string_view source, int line, std::string_view key, std::string_view value,
                                     std::string* error) {
  std::size_t b, e, o, c, vb, ve;
  if (source.size() > kMaxSource) {
    set_err(error, "the program is too large to edit here");
    return std::nullopt;
  }
  if (!line_span(source, line, b, e) || !call_span(source, b, e, o, c)) {
    set_err(error, "line " + std::to_string(line) + " holds no step.Op(...) call");
    return std::nullopt;
  }
  std::string out(source);
  if (value_span(source, o, c, key, vb, ve)) {
    out.replace(vb, ve - vb, value);
  } else {
    const bool empty = trim(source.substr(o + 1, c - o - 1)).empty();
    out.insert(c, std::string(empty ? "" : ", ") + std::string(key) + "=" + std::string(value));
  }
  return out;
}

std::vector<TileAxis> tile_axes(std::string_view source, const std::map<std::string, std::int64_t>& sizes) {
  std::vector<TileAxis> out;
  std::vector<std::string> conflicting;
  if (source.size() > kMaxSource) return out;
  bool comment = false;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char ch = source[i];
    if (ch == '\n') comment = false;
    if (ch == '#') comment = true;
    if (comment || !std::isalpha(static_cast<unsigned char>(ch)) || (i > 0 && ident_char(source[i - 1]))) continue;
    std::size_t j = i;
    while (j < source.size() && ident_char(source[j])) ++j;
    const std::string sym(source.substr(i, j - i));
    std::size_t k = j;
    while (k < source.size() && source[k] == ' ') ++k;
    if (k >= source.size() || source[k] != '/') {
      i = j - 1;
      continue;
    }
    ++k;
    while (k < source.size() && source[k] == ' ') ++k;
    std::size_t d = k;
    while (d < source.size() && std::isdigit(static_cast<unsigned char>(source[d]))) ++d;
    if (d == k || d - k > 9) {
      i = j - 1;
      continue;
    }
    const std::int64_t t = std::stoll(std::string(source.substr(k, d - k)));
    i = d - 1;
    if (std::find(conflicting.begin(), conflicting.end(), sym) != conflicting.end()) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const TileAxis& a) { return a.symbol == sym; });
    if (it == out.end()) {
      TileAxis a;
      a.symbol = sym;
      a.tile = t;
      if (auto s = sizes.find(sym); s != sizes.end()) {
        a.extent = s->second;
        a.choices = divisors(s->second);
      }
      out.push_back(std::move(a));
    } else if (it->tile != t) {
      conflicting.push_back(sym);
      out.erase(it);
    }
  }
  return out;
}

std::optional<std::string> set_tile(std::string_view source, std::string_view symbol, std::int64_t tile,
                                    std::string* error) {
  if (source.size() > kMaxSource || tile < 1) {
    set_err(error, tile < 1 ? "a tile size must be at least 1" : "the program is too large to edit here");
    return std::nullopt;
  }
  const auto axes = tile_axes(source, {});
  const auto ax = std::find_if(axes.begin(), axes.end(), [&](const TileAxis& a) { return a.symbol == symbol; });
  if (ax == axes.end()) {
    set_err(error, "no shape or stride divides " + std::string(symbol) + " by a tile size");
    return std::nullopt;
  }
  const std::string to = std::string(symbol) + "/" + std::to_string(tile);
  // 1. every symbol/old (spaces around '/' normalised away) becomes symbol/new.
  std::string out;
  out.reserve(source.size() + 64);
  bool comment = false;
  for (std::size_t i = 0; i < source.size();) {
    const char ch = source[i];
    if (ch == '\n') comment = false;
    if (ch == '#') comment = true;
    if (!comment && source.compare(i, symbol.size(), symbol) == 0 && (i == 0 || !ident_char(source[i - 1]))) {
      std::size_t k = i + symbol.size();
      while (k < source.size() && source[k] == ' ') ++k;
      if (k < source.size() && source[k] == '/') {
        ++k;
        while (k < source.size() && source[k] == ' ') ++k;
        std::size_t d = k;
        while (d < source.size() && std::isdigit(static_cast<unsigned char>(source[d]))) ++d;
        if (d > k && (d >= source.size() || !ident_char(source[d])) &&
            source.substr(k, d - k) == std::to_string(ax->tile)) {
          out += to;
          i = d;
          continue;
        }
      }
    }
    out += ch;
    ++i;
  }
  // 2. each load's tile entry along the symbol.
  int line = 1;
  for (std::size_t pos = 0; pos <= out.size(); ++line) {
    const auto nl = out.find('\n', pos);
    const std::size_t end = nl == std::string::npos ? out.size() : nl;
    const std::string text = out.substr(pos, end - pos);
    pos = end + 1;
    if (text.find("OffChipLoad") == std::string::npos) {
      if (nl == std::string::npos) break;
      continue;
    }
    const auto stride = kwarg_text(out, line, "stride");
    const auto shape = kwarg_text(out, line, "shape");
    const auto tiles = kwarg_text(out, line, "tile");
    if (stride && shape && tiles) {
      const auto st = split_list(*stride), sh = split_list(*shape), tl = split_list(*tiles);
      std::string rows, cols;
      for (std::size_t i = 0; i < st.size() && i < sh.size(); ++i)
        if (st[i] == "1") cols = sh[i];
      if (!cols.empty())
        for (std::size_t i = 0; i < st.size() && i < sh.size(); ++i)
          if (st[i] == cols) rows = sh[i];
      if (tl.size() == 2 && (rows == to || cols == to)) {
        const std::string r = rows == to ? std::to_string(tile) : tl[0];
        const std::string c = cols == to ? std::to_string(tile) : tl[1];
        if (auto edited = set_kwarg(out, line, "tile", "[" + r + ", " + c + "]")) {
          const std::size_t grow = edited->size() - out.size();
          out = std::move(*edited);
          pos += grow;
        }
      }
    }
    if (nl == std::string::npos) break;
  }
  return out;
}

}  // namespace sf::inspect::perf2
