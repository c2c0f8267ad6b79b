// Internal to core/step's document loaders (task_loader.cpp, task_walker.cpp): a document's raw text with
// line offsets, the located YAML tree built by yaml-cpp's event parser (anchors, aliases and deep nesting abort
// it), and the Walker that reads typed values from that tree with located diagnostics (D-KEY, D-MISSING,
// D-TYPE, ...). Not included outside core/step.
#pragma once

#include <yaml-cpp/mark.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/step/task.hpp"

namespace sf::step::detail {

struct Text {
  std::string_view s;
  std::vector<std::size_t> line_off;  // byte offset of each line (0-based lines)
  explicit Text(std::string_view t) : s(t) {
    line_off.push_back(0);
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t[i] == '\n') line_off.push_back(i + 1);
  }
  Location at(std::size_t off) const {
    auto it = std::upper_bound(line_off.begin(), line_off.end(), off);
    std::size_t line = static_cast<std::size_t>(it - line_off.begin()) - 1;
    return {static_cast<int>(line) + 1, static_cast<int>(off - line_off[line]) + 1};
  }
  std::size_t offset(int line0, int col0) const {
    if (line0 < 0 || static_cast<std::size_t>(line0) >= line_off.size()) return s.size();
    return std::min(s.size(), line_off[static_cast<std::size_t>(line0)] + static_cast<std::size_t>(std::max(0, col0)));
  }
  std::string_view line(std::size_t l0) const {
    if (l0 >= line_off.size()) return {};
    std::size_t b = line_off[l0], e = l0 + 1 < line_off.size() ? line_off[l0 + 1] - 1 : s.size();
    return s.substr(b, e - b);
  }
};


// Offset of the first byte that is not part of a well-formed UTF-8 sequence, or npos.
std::size_t first_bad_utf8(std::string_view s);

// --------------------------------------------------------------------------------------------- YAML tree
struct YNode {
  enum class Kind { Null, Scalar, Seq, Map } kind = Kind::Null;
  YAML::Mark mark;
  bool quoted = false;  // non-plain scalar (quoted or block)
  bool flow = false;
  std::string value;
  std::vector<YNode> items;  // Seq items; Map: key, value, key, value, ...
};

struct Abort {
  Diagnostic diag;
};


Location loc_of(const YAML::Mark& m);
// The located tree of a document; raw checks first (D-SIZE, D-UTF8), then D-YAML / D-ALIAS / D-DEPTH.
std::optional<YNode> parse_yaml(const Text& t, Diagnostics& diags);
int edit_distance(std::string_view a, std::string_view b);
// The closest candidate within edit distance max(1, min(2, len/3)), or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);
std::string kind_name(const YNode& n);
bool is_identifier(std::string_view s, bool allow_leading_underscore);

struct Fields {
  std::map<std::string, std::pair<const YNode*, const YNode*>, std::less<>> m;  // key -> (key node, value)
  const YNode* get(std::string_view k) const {
    auto it = m.find(k);
    return it == m.end() ? nullptr : it->second.second;
  }
  const YNode* key(std::string_view k) const {
    auto it = m.find(k);
    return it == m.end() ? nullptr : it->second.first;
  }
};

class Walker {
 public:
  Walker(const Text& t, Diagnostics& d) : text(t), diags(d) {}
  const Text& text;
  Diagnostics& diags;
  bool failed = false;

  void error(std::string code, std::string msg, Location l) {
    failed = true;
    diags.push_back(make_error(std::move(code), std::move(msg), l));
  }
  // Location of a value; a null value (`key:` with nothing after it) is reported at its key.
  static Location vloc(const YNode& v, const YNode* key = nullptr) {
    if (v.kind == YNode::Kind::Null && key) return loc_of(key->mark);
    return loc_of(v.mark);
  }

  std::optional<Fields> fields(const YNode& n, const std::string& where, const std::vector<std::string>& allowed,
                               const std::vector<std::string>& required, const YNode* key = nullptr) {
    if (n.kind != YNode::Kind::Map) {
      error("D-TYPE", where + " must be a mapping, not a " + kind_name(n), vloc(n, key));
      return std::nullopt;
    }
    Fields f;
    std::set<std::string> hinted;
    for (std::size_t i = 0; i + 1 < n.items.size(); i += 2) {
      const YNode& k = n.items[i];
      if (k.kind != YNode::Kind::Scalar) {
        error("D-TYPE", "keys in " + where + " must be plain strings, not a " + kind_name(k), loc_of(k.mark));
        continue;
      }
      if (std::find(allowed.begin(), allowed.end(), k.value) == allowed.end()) {
        std::string hint = did_you_mean(k.value, allowed);
        std::string msg = "unknown key '" + k.value + "' in " + where;
        if (!hint.empty()) {
          msg += "; did you mean '" + hint + "'?";
          hinted.insert(hint);
        } else {
          msg += " (allowed keys:";
          for (std::size_t j = 0; j < allowed.size(); ++j) msg += (j ? ", " : " ") + allowed[j];
          msg += ")";
        }
        error("D-KEY", msg, loc_of(k.mark));
        continue;
      }
      if (f.m.count(k.value)) {
        error("D-KEY", "duplicate key '" + k.value + "' in " + where, loc_of(k.mark));
        continue;
      }
      f.m[k.value] = {&k, &n.items[i + 1]};
    }
    for (const auto& r : required)
      if (!f.m.count(r) && !hinted.count(r) && std::find(allowed.begin(), allowed.end(), r) != allowed.end())
        error("D-MISSING", "missing required key '" + r + "' in " + where, vloc(n, key));
    return f;
  }

  std::optional<std::string> str(const Fields& f, std::string_view k, const std::string& where) {
    const YNode* v = f.get(k);
    if (!v) return std::nullopt;
    if (v->kind != YNode::Kind::Scalar) {
      error("D-TYPE", "'" + std::string(k) + "' in " + where + " must be a string, not a " + kind_name(*v),
            vloc(*v, f.key(k)));
      return std::nullopt;
    }
    return v->value;
  }

  std::optional<std::int64_t> integer(const YNode& v, const std::string& what, std::int64_t lo, std::int64_t hi,
                                      const YNode* key = nullptr) {
    if (v.kind == YNode::Kind::Scalar && !v.value.empty()) {
      const std::string& s = v.value;
      std::size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
      bool digits = i < s.size() && s.size() - i <= 18 &&
                    std::all_of(s.begin() + static_cast<long>(i), s.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (digits) {
        std::int64_t x = std::strtoll(s.c_str(), nullptr, 10);
        if (x < lo || x > hi) {
          error("D-VALUE", what + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                               "], not " + s, vloc(v, key));
          return std::nullopt;
        }
        return x;
      }
    }
    error("D-TYPE", what + " must be an integer, not " + (v.kind == YNode::Kind::Scalar ? "'" + v.value + "'" : "a " + kind_name(v)),
          vloc(v, key));
    return std::nullopt;
  }

  // A size binding (verify.alt_sizes, verify.general_sizes, perf_sizes): a mapping of some of `base`'s size
  // symbols to positive integers, completed with `base`. D-TYPE for a non-mapping, D-KEY for an unknown or
  // duplicate symbol (with did-you-mean), D-TYPE / D-VALUE (via integer()) for a value that is not a positive
  // integer ("<what> <symbol> must be ..."). Shared by the v1 and v2 document walkers.
  std::optional<SizeBinding> size_binding(const YNode& a, const YNode* key, const SizeBinding& base,
                                          const std::string& where, const std::string& what) {
    if (a.kind != YNode::Kind::Map) {
      error("D-TYPE", where + " must be a mapping of size symbols to positive integers, not a " + kind_name(a),
            vloc(a, key));
      return std::nullopt;
    }
    SizeBinding out = base;
    std::vector<std::string> syms;
    for (const auto& [s, v] : base) syms.push_back(s);
    std::set<std::string> seen;
    for (std::size_t i = 0; i + 1 < a.items.size(); i += 2) {
      const YNode& k = a.items[i];
      if (k.kind != YNode::Kind::Scalar || !base.count(k.value)) {
        std::string hint = k.kind == YNode::Kind::Scalar ? did_you_mean(k.value, syms) : "";
        error("D-KEY", "unknown key '" + k.value + "' in " + where + ": not a size symbol of the task" +
                           (hint.empty() ? "" : "; did you mean '" + hint + "'?"),
              loc_of(k.mark));
        continue;
      }
      if (!seen.insert(k.value).second) {
        error("D-KEY", "duplicate key '" + k.value + "' in " + where, loc_of(k.mark));
        continue;
      }
      if (auto x = integer(a.items[i + 1], what + " " + k.value, 1, 2147483647, &k)) out[k.value] = *x;
    }
    return out;
  }

  std::optional<double> number(const YNode& v, const std::string& what, bool allow_inf, const YNode* key = nullptr) {
    if (v.kind == YNode::Kind::Scalar && !v.value.empty()) {
      std::string s = v.value;
      std::string low = s;
      for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      bool neg = !low.empty() && low[0] == '-';
      std::string mag = (low[0] == '-' || low[0] == '+') ? low.substr(1) : low;
      if (mag == "inf" || mag == ".inf" || mag == "infinity") {
        if (allow_inf) return neg ? -HUGE_VAL : HUGE_VAL;
        error("D-VALUE", what + " must be finite", vloc(v, key));
        return std::nullopt;
      }
      bool ok = std::all_of(mag.begin(), mag.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == '+' || c == '-'; });
      if (ok && !mag.empty()) {
        char* end = nullptr;
        errno = 0;
        double x = std::strtod(s.c_str(), &end);
        if (end && *end == '\0' && errno == 0 && std::isfinite(x)) return x;
      }
    }
    error("D-TYPE", what + " must be a number, not " + (v.kind == YNode::Kind::Scalar ? "'" + v.value + "'" : "a " + kind_name(v)),
          vloc(v, key));
    return std::nullopt;
  }

  const YNode* seq(const Fields& f, std::string_view k, const std::string& where) {
    const YNode* v = f.get(k);
    if (!v) return nullptr;
    if (v->kind != YNode::Kind::Seq) {
      error("D-TYPE", "'" + std::string(k) + "' in " + where + " must be a list, not a " + kind_name(*v),
            vloc(*v, f.key(k)));
      return nullptr;
    }
    return v;
  }

  // File locations of the first character of each line of a scalar's content (§15.1).
  std::vector<Location> line_starts(const YNode& v, const YNode* key) const {
    std::vector<Location> out;
    if (v.kind != YNode::Kind::Scalar || v.mark.line < 0) return out;
    std::size_t lines = static_cast<std::size_t>(std::count(v.value.begin(), v.value.end(), '\n')) + 1;
    std::size_t off = text.offset(v.mark.line, v.mark.column);
    char c = off < text.s.size() ? text.s[off] : '\0';
    if (c == '|' || c == '>') {
      int explicit_indent = 0;
      for (std::size_t i = off + 1; i < text.s.size() && text.s[i] != '\n'; ++i) {
        char h = text.s[i];
        if (h >= '1' && h <= '9') explicit_indent = h - '0';
        else if (h != '-' && h != '+') break;
      }
      int indent = -1;
      if (explicit_indent > 0) {
        indent = (key ? key->mark.column : 0) + explicit_indent;
      } else {
        for (std::size_t l = static_cast<std::size_t>(v.mark.line) + 1; l < text.line_off.size(); ++l) {
          std::string_view ln = text.line(l);
          std::size_t sp = ln.find_first_not_of(' ');
          if (sp == std::string_view::npos || ln.substr(sp) == "\r") continue;
          indent = static_cast<int>(sp);
          break;
        }
      }
      if (indent < 0) indent = 0;
      for (std::size_t i = 0; i < lines; ++i) out.push_back({v.mark.line + 2 + static_cast<int>(i), indent + 1});
      return out;
    }
    int first_col = v.mark.column + 1 + ((c == '"' || c == '\'') ? 1 : 0);
    out.push_back({v.mark.line + 1, first_col});
    for (std::size_t i = 1; i < lines; ++i) {
      std::size_t l = static_cast<std::size_t>(v.mark.line) + i;
      std::string_view ln = text.line(l);
      std::size_t sp = ln.find_first_not_of(" \t");
      out.push_back({static_cast<int>(l) + 1, sp == std::string_view::npos ? 1 : static_cast<int>(sp) + 1});
    }
    return out;
  }

  std::optional<std::string> body(const Fields& f, std::string_view k, const std::string& where,
                                  std::vector<Location>& starts, Location* loc = nullptr) {
    auto s = str(f, k, where);
    if (!s) return std::nullopt;
    starts = line_starts(*f.get(k), f.key(k));
    if (loc) *loc = loc_of(f.get(k)->mark);
    return s;
  }
};


// A task document from its tree (task_walker.cpp).
std::optional<TaskDoc> walk_task(const Text& t, const YNode& root, std::string path, Diagnostics& diags);
// A step-v2 task document from its tree (task_walker_v2.cpp); walk_task calls it for `dialect: step-v2`.
std::optional<TaskDoc> walk_task_v2(const Text& t, const YNode& root, std::string path, Diagnostics& diags);

}  // namespace sf::step::detail
