// Task document loader (step-dialect §4, §10.1, §11.2, §15.9). Three phases:
//  1. raw checks before any YAML parsing: size (D-SIZE), UTF-8 (D-UTF8);
//  2. yaml-cpp's event parser builds a small located tree; anchors/aliases (D-ALIAS), nesting (D-DEPTH) and
//     syntax errors (D-YAML) abort it at the offending token, so no alias is ever expanded;
//  3. the tree is walked with located diagnostics (D-KEY, D-MISSING, D-TYPE and the value rules).
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "core/step/lexer.hpp"  // is_reserved_word
#include "core/step/task.hpp"

namespace sf::step {
namespace {

// ---------------------------------------------------------------------------------------------- raw text
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
std::size_t first_bad_utf8(std::string_view s) {
  std::size_t i = 0, n = s.size();
  while (i < n) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len = 0;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) len = 3, lo = 0xA0;
    else if (c >= 0xE1 && c <= 0xEC) len = 3;
    else if (c == 0xED) len = 3, hi = 0x9F;
    else if (c >= 0xEE && c <= 0xEF) len = 3;
    else if (c == 0xF0) len = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) len = 4, hi = 0x8F;
    else return i;
    for (int k = 1; k < len; ++k) {
      if (i + k >= n) return i;
      auto d = static_cast<unsigned char>(s[i + k]);
      unsigned l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
      if (d < l || d > h) return i;  // reported at the start of the ill-formed sequence
    }
    i += static_cast<std::size_t>(len);
  }
  return std::string_view::npos;
}

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

Location loc_of(const YAML::Mark& m) {
  if (m.line < 0) return {};
  return {m.line + 1, m.column + 1};
}

class TreeBuilder : public YAML::EventHandler {
 public:
  std::vector<YNode> docs;

  void OnDocumentStart(const YAML::Mark& m) override {
    if (!docs.empty()) throw Abort{make_error("D-YAML", "a task file holds exactly one YAML document", loc_of(m))};
    stack_.clear();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { add(YNode{YNode::Kind::Null, m, false, false, {}, {}}); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { alias(m, "an alias"); }
  void OnAnchor(const YAML::Mark& m, const std::string&) override { alias(m, "an anchor"); }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t, const std::string& v) override {
    add(YNode{YNode::Kind::Scalar, m, tag != "?", false, v, {}});
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value s) override {
    open(YNode{YNode::Kind::Seq, m, false, s == YAML::EmitterStyle::Flow, {}, {}});
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value s) override {
    open(YNode{YNode::Kind::Map, m, false, s == YAML::EmitterStyle::Flow, {}, {}});
  }
  void OnMapEnd() override { close(); }

 private:
  void alias(const YAML::Mark& m, const char* what) {
    throw Abort{make_error("D-ALIAS",
                           std::string("YAML anchors and aliases are not allowed in task documents (found ") + what +
                               ")",
                           loc_of(m))};
  }
  void add(YNode n) {
    if (stack_.empty()) docs.push_back(std::move(n));
    else stack_.back().items.push_back(std::move(n));
  }
  void open(YNode n) {
    if (static_cast<int>(stack_.size()) >= kMaxDocumentDepth)
      throw Abort{make_error("D-DEPTH",
                             "the document nests deeper than " + std::to_string(kMaxDocumentDepth) + " levels",
                             loc_of(n.mark))};
    stack_.push_back(std::move(n));
  }
  void close() {
    YNode n = std::move(stack_.back());
    stack_.pop_back();
    add(std::move(n));
  }
  std::vector<YNode> stack_;
};

// Phases 1 and 2. Returns the root node (Null for an empty document) or nullopt after a diagnostic.
std::optional<YNode> parse_yaml(const Text& t, Diagnostics& diags) {
  if (t.s.size() > kMaxDocumentBytes) {
    diags.push_back(make_error("D-SIZE",
                               "the document is larger than 1 MiB (1048576 bytes), the limit for task documents",
                               t.at(kMaxDocumentBytes)));
    return std::nullopt;
  }
  if (std::size_t bad = first_bad_utf8(t.s); bad != std::string_view::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(t.s[bad])));
    diags.push_back(make_error("D-UTF8", std::string("invalid UTF-8: byte ") + hex + " is not valid here", t.at(bad)));
    return std::nullopt;
  }
  std::istringstream in{std::string(t.s)};
  TreeBuilder b;
  try {
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(b)) {
    }
  } catch (const Abort& a) {
    diags.push_back(a.diag);
    return std::nullopt;
  } catch (const YAML::Exception& e) {
    Location l = loc_of(e.mark);
    if (!l.known()) l = t.at(t.s.empty() ? 0 : t.s.size() - 1);
    std::size_t off = t.offset(l.line - 1, l.column - 1);
    if (off < t.s.size() && (t.s[off] == '*' || t.s[off] == '&')) {
      diags.push_back(make_error("D-ALIAS", "YAML anchors and aliases are not allowed in task documents", l));
    } else {
      diags.push_back(make_error("D-YAML", "invalid YAML: " + e.msg, l));
    }
    return std::nullopt;
  } catch (const std::exception& e) {
    diags.push_back(make_error("D-YAML", std::string("invalid YAML: ") + e.what(), {1, 1}));
    return std::nullopt;
  }
  if (b.docs.empty()) return YNode{};
  return std::move(b.docs.front());
}

// ------------------------------------------------------------------------------------------ tree walking
int edit_distance(std::string_view a, std::string_view b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1), prev2(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j)
    {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])  // adjacent transposition
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    prev2 = prev;
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// The closest candidate within edit distance max(1, min(2, len/3)), or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  int best_d = 1 << 30;
  int limit = std::max(1, std::min(2, static_cast<int>(word.size()) / 3));
  for (const auto& c : candidates) {
    int d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best_d <= limit ? best : std::string();
}

std::string kind_name(const YNode& n) {
  switch (n.kind) {
    case YNode::Kind::Null: return "null";
    case YNode::Kind::Scalar: return "scalar";
    case YNode::Kind::Seq: return "list";
    case YNode::Kind::Map: return "mapping";
  }
  return "value";
}

bool is_identifier(std::string_view s, bool allow_leading_underscore) {
  if (s.empty()) return false;
  auto c0 = static_cast<unsigned char>(s[0]);
  if (!(std::isalpha(c0) || (allow_leading_underscore && c0 == '_'))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// A mapping node's entries, with key checks (D-TYPE, D-KEY unknown / duplicate, D-MISSING).
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

}  // namespace


// ------------------------------------------------------------------------------------------ task document
namespace {

struct NameUse {
  std::string name, kind;
  Location loc;
};

class TaskWalker : public Walker {
 public:
  using Walker::Walker;
  TaskDoc doc;
  std::vector<NameUse> names;
  bool sizes_ok = false;

  void dims_of(const YNode& n, const std::string& where, Dims& out, const YNode* key) {
    if (n.kind != YNode::Kind::Seq) {
      error("D-TYPE", "dims of " + where + " must be a list of dims, not a " + kind_name(n), vloc(n, key));
      return;
    }
    if (n.items.empty()) {
      error("D-VALUE", "dims of " + where + " must list at least one dim", vloc(n, key));
      return;
    }
    for (const YNode& d : n.items) {
      if (d.kind != YNode::Kind::Scalar) {
        error("D-TYPE", "a dim of " + where + " must be a dim expression, not a " + kind_name(d), loc_of(d.mark));
        continue;
      }
      std::string err;
      auto dim = parse_dim(d.value, err);
      if (!dim) {
        error("D-DIM", "bad dim '" + d.value + "' in " + where + ": " + err, loc_of(d.mark));
        continue;
      }
      check_bound(*dim, where, loc_of(d.mark));
      out.push_back(*dim);
    }
  }

  void check_bound(const Dim& d, const std::string& where, Location l) {
    if (!sizes_ok) return;
    for (const auto& [sym, e] : d.exponents())
      if (!doc.sizes.count(sym))
        error("D-UNBOUND", "size symbol '" + sym + "' used in " + where + " is not bound in sizes", l);
  }

  std::optional<DType> dtype_of(const YNode& n, const std::string& where, const YNode* key) {
    std::string err;
    auto one = [&](const YNode& s) -> std::optional<DType> {
      if (s.kind != YNode::Kind::Scalar) {
        error("D-TYPE", "dtype of " + where + " must be a string or a list of strings, not a " + kind_name(s),
              vloc(s, key));
        return std::nullopt;
      }
      auto t = parse_dtype(s.value, err);
      if (!t) {
        error("D-DTYPE", "bad dtype '" + s.value + "' in " + where + ": " + err, loc_of(s.mark));
        return std::nullopt;
      }
      for (const auto& f : t->fields) {
        check_bound(f.lanes, where, loc_of(s.mark));
        for (const auto& b : f.buffer) check_bound(b, where, loc_of(s.mark));
      }
      return t;
    };
    if (n.kind != YNode::Kind::Seq) return one(n);
    DType out;
    for (const YNode& item : n.items) {
      auto t = one(item);
      if (!t) return std::nullopt;
      if (t->is_tuple()) {
        error("D-DTYPE", "tuples do not nest: each entry of the dtype of " + where + " must be one type",
              loc_of(item.mark));
        return std::nullopt;
      }
      out = concat(out, *t);
    }
    if (out.fields.size() < 2) {
      error("D-DTYPE", "a tuple dtype of " + where + " needs at least 2 fields", loc_of(n.mark));
      return std::nullopt;
    }
    return out;
  }

  std::optional<DataGen> data_gen_of(const YNode& n, const std::string& where, const YNode* key) {
    static const std::vector<std::string> gens{"rand", "randn", "ones", "binary", "multihot"};
    if (n.kind != YNode::Kind::Scalar) {
      error("D-TYPE", "data_gen of " + where + " must be a string, not a " + kind_name(n), vloc(n, key));
      return std::nullopt;
    }
    for (std::size_t i = 0; i < gens.size(); ++i)
      if (n.value == gens[i]) return static_cast<DataGen>(i);
    std::string hint = did_you_mean(n.value, gens);
    error("D-VALUE",
          "unknown data_gen '" + n.value + "' in " + where +
              (hint.empty() ? " (one of rand, randn, ones, binary, multihot)" : "; did you mean '" + hint + "'?"),
          loc_of(n.mark));
    return std::nullopt;
  }

  void name_of(const Fields& f, const std::string& where, const std::string& kind, std::string& out, Location& loc,
               bool identifier_underscore) {
    auto s = str(f, "name", where);
    if (!s) return;
    out = *s;
    loc = loc_of(f.get("name")->mark);
    if (!is_identifier(out, identifier_underscore)) {
      error("D-NAME",
            kind + " name '" + out + "' must match " +
                (identifier_underscore ? "[A-Za-z_][A-Za-z0-9_]*" : "[A-Za-z][A-Za-z0-9_]*"),
            loc);
      return;
    }
    if (is_reserved_word(out)) {
      error("D-NAME", kind + " name '" + out + "' is a reserved word", loc);
      return;
    }
    names.push_back({out, kind, loc});
  }

  void sizes(const YNode& n, const YNode* key) {
    if (n.kind != YNode::Kind::Map) {
      error("D-TYPE", "sizes must be a mapping of size symbols to positive integers, not a " + kind_name(n),
            vloc(n, key));
      return;
    }
    bool ok = true;
    for (std::size_t i = 0; i + 1 < n.items.size(); i += 2) {
      const YNode& k = n.items[i];
      const YNode& v = n.items[i + 1];
      if (k.kind != YNode::Kind::Scalar || !is_size_symbol_name(k.value)) {
        error("D-NAME", "size symbol '" + k.value + "' must match [A-Z][A-Za-z0-9]*", loc_of(k.mark));
        ok = false;
        continue;
      }
      if (doc.sizes.count(k.value)) {
        error("D-KEY", "duplicate key '" + k.value + "' in sizes", loc_of(k.mark));
        continue;
      }
      auto x = integer(v, "size " + k.value, 1, 2147483647, &k);
      if (!x) {
        ok = false;
        continue;
      }
      if (is_reserved_word(k.value)) {
        error("D-NAME", "size symbol '" + k.value + "' is a reserved word", loc_of(k.mark));
        ok = false;
        continue;
      }
      doc.sizes[k.value] = *x;
      names.push_back({k.value, "size symbol", loc_of(k.mark)});
    }
    sizes_ok = ok;
  }

  void inputs(const YNode& list) {
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      std::string where = "inputs[" + std::to_string(i) + "]";
      auto f = fields(list.items[i], where, {"name", "dtype", "dims", "data_gen", "min", "max", "scale"},
                      {"name", "dtype", "dims", "data_gen"});
      if (!f) continue;
      InputDecl in;
      in.loc = loc_of(list.items[i].mark);
      name_of(*f, where, "input", in.name, in.loc, false);
      if (!in.name.empty()) where = "input " + in.name;
      std::optional<DType> t;
      if (auto* v = f->get("dtype")) {
        t = dtype_of(*v, where, f->key("dtype"));
        if (t && t->is_tuple()) {
          error("D-DTYPE", "the dtype of " + where + " must not be a tuple (declare one input per field)",
                vloc(*v, f->key("dtype")));
          t.reset();
        }
        if (t) in.dtype = *t;
      }
      if (auto* v = f->get("dims")) dims_of(*v, where, in.dims, f->key("dims"));
      std::optional<DataGen> g;
      if (auto* v = f->get("data_gen")) g = data_gen_of(*v, where, f->key("data_gen"));
      if (g) in.gen = *g;
      if (auto* v = f->get("scale")) {
        if (auto x = number(*v, "scale of " + where, false, f->key("scale"))) in.scale = *x;
      }
      bool mh_type = t && t->scalar().multihot && !t->scalar().is_buffer();
      if (t && g) {
        if (*g == DataGen::Multihot && !mh_type)
          error("D-VALUE", "data_gen multihot needs dtype Multihot(fp32, L), but " + where + " has dtype " + t->str(),
                vloc(*f->get("data_gen"), f->key("data_gen")));
        else if (*g != DataGen::Multihot && t->scalar().multihot)
          error("D-VALUE", where + " has dtype " + t->str() + ", which needs data_gen: multihot",
                vloc(*f->get("data_gen"), f->key("data_gen")));
      }
      for (const char* k : {"min", "max"}) {
        const YNode* v = f->get(k);
        if (g && *g != DataGen::Multihot && v)
          error("D-KEY", std::string("key '") + k + "' in " + where + " applies only to data_gen: multihot",
                loc_of(f->key(k)->mark));
        if (g && *g == DataGen::Multihot && !v)
          error("D-MISSING", std::string("missing required key '") + k + "' in " + where + " (data_gen: multihot)",
                loc_of(list.items[i].mark));
      }
      if (g && *g == DataGen::Multihot && mh_type && f->get("min") && f->get("max")) {
        auto lo = integer(*f->get("min"), "min of " + where, 0, 2147483647, f->key("min"));
        auto hi = integer(*f->get("max"), "max of " + where, 0, 2147483647, f->key("max"));
        if (lo && hi) {
          in.mh_min = static_cast<int>(*lo);
          in.mh_max = static_cast<int>(*hi);
          multihot_range(in, *f);
        }
      }
      doc.inputs.push_back(std::move(in));
    }
  }

  void multihot_range(const InputDecl& in, const Fields& f) {
    if (in.mh_min > in.mh_max) {
      error("D-VALUE", "min " + std::to_string(in.mh_min) + " of input " + in.name + " exceeds max " +
                           std::to_string(in.mh_max),
            loc_of(f.get("min")->mark));
      return;
    }
    pending_multihot.push_back({doc.inputs.size(), loc_of(f.get("max")->mark)});  // `in` is pushed next
  }
  // Multihot inputs (by index in doc.inputs: names may repeat in a bad document) whose max is checked against the
  // lane count once alt_sizes is known.
  std::vector<std::pair<std::size_t, Location>> pending_multihot;

  void check_multihot_lanes() {
    for (const auto& [index, l] : pending_multihot) {
      if (index >= doc.inputs.size() || doc.inputs[index].dtype.fields.size() != 1) continue;
      const InputDecl* in = &doc.inputs[index];
      const std::string& name = in->name;
      for (const auto& [bname, b] : doc.static_bindings()) {
        auto lanes = in->dtype.scalar().lanes.eval(b);
        if (lanes && in->mh_max > *lanes) {
          error("D-VALUE", "max " + std::to_string(in->mh_max) + " of input " + name + " exceeds the lane count " +
                               in->dtype.scalar().lanes.str() + " = " + std::to_string(*lanes),
                l);
          break;
        }
      }
    }
  }

  void parameters(const YNode& list) {
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      std::string where = "parameters[" + std::to_string(i) + "]";
      auto f = fields(list.items[i], where, {"name", "dims", "data_gen", "scale"}, {"name", "dims", "data_gen"});
      if (!f) continue;
      ParamDecl p;
      p.loc = loc_of(list.items[i].mark);
      name_of(*f, where, "parameter", p.name, p.loc, false);
      if (!p.name.empty()) where = "parameter " + p.name;
      if (auto* v = f->get("dims")) dims_of(*v, where, p.dims, f->key("dims"));
      if (auto* v = f->get("data_gen")) {
        if (auto g = data_gen_of(*v, where, f->key("data_gen"))) {
          if (*g == DataGen::Multihot)
            error("D-VALUE", "parameters are fp32 tensors; data_gen multihot is not allowed for " + where,
                  loc_of(v->mark));
          p.gen = *g;
        }
      }
      if (auto* v = f->get("scale")) {
        if (auto x = number(*v, "scale of " + where, false, f->key("scale"))) p.scale = *x;
      }
      doc.parameters.push_back(std::move(p));
    }
  }

  void fns(const YNode& list) {
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      std::string where = "fns[" + std::to_string(i) + "]";
      auto f = fields(list.items[i], where, {"func_name", "name", "input_dtype", "output_dtype", "init", "body"},
                      {"func_name", "name", "input_dtype", "output_dtype", "body"});
      if (!f) continue;
      FnDecl fn;
      fn.loc = loc_of(list.items[i].mark);
      if (auto s = str(*f, "func_name", where)) {
        fn.func_name = *s;
        fn.loc = loc_of(f->get("func_name")->mark);
        if (!is_identifier(*s, true))
          error("D-NAME", "func_name '" + *s + "' must match [A-Za-z_][A-Za-z0-9_]*", fn.loc);
        else if (is_reserved_word(*s))
          error("D-NAME", "func_name '" + *s + "' is a reserved word", fn.loc);
        else
          names.push_back({*s, "fn", fn.loc});
        where = "fn " + *s;
      }
      if (auto s = str(*f, "name", where)) fn.display_name = *s;
      if (auto* v = f->get("input_dtype"))
        if (auto t = dtype_of(*v, where, f->key("input_dtype"))) fn.input = *t;
      bool out_ok = false;
      if (auto* v = f->get("output_dtype"))
        if (auto t = dtype_of(*v, where, f->key("output_dtype"))) fn.output = *t, out_ok = true;
      if (const YNode* v = f->get("init")) {
        std::vector<double> init;
        bool ok = true;
        auto lit = [&](const YNode& x) {
          auto d = number(x, "init value of " + where, true, f->key("init"));
          if (d) init.push_back(*d);
          else ok = false;
        };
        if (v->kind == YNode::Kind::Seq) {
          for (const YNode& x : v->items) lit(x);
        } else {
          lit(*v);
        }
        if (ok && out_ok && init.size() != fn.output.fields.size()) {
          error("D-VALUE", "init of " + where + " has " + std::to_string(init.size()) + " value(s) but output_dtype " +
                               fn.output.str() + " has " + std::to_string(fn.output.fields.size()) + " field(s)",
                vloc(*v, f->key("init")));
        } else if (ok && out_ok) {
          // A Multihot state starts as a selector too: every entry exactly 0 or 1.
          for (std::size_t j = 0; j < init.size(); ++j) {
            if (!fn.output.fields[j].multihot || init[j] == 0.0 || init[j] == 1.0) continue;
            const YNode& at = v->kind == YNode::Kind::Seq ? v->items[j] : *v;
            error("D-VALUE", "init value " + std::to_string(j) + " of " + where + " is for the Multihot field " +
                                 fn.output.fields[j].str() + ", so it must be 0 or 1",
                  vloc(at, f->key("init")));
          }
        }
        fn.init = std::move(init);
      }
      if (auto s = body(*f, "body", where, fn.body_line_starts)) fn.body = *s;
      doc.fns.push_back(std::move(fn));
    }
  }

  void outputs(const YNode& list) {
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      std::string where = "outputs[" + std::to_string(i) + "]";
      auto f = fields(list.items[i], where, {"name", "dtype", "dims"}, {"name", "dtype", "dims"});
      if (!f) continue;
      OutputDecl o;
      o.loc = loc_of(list.items[i].mark);
      name_of(*f, where, "output", o.name, o.loc, false);
      if (!o.name.empty()) where = "output " + o.name;
      if (auto* v = f->get("dtype"))
        if (auto t = dtype_of(*v, where, f->key("dtype"))) o.dtype = *t;
      if (auto* v = f->get("dims")) dims_of(*v, where, o.dims, f->key("dims"));
      doc.outputs.push_back(std::move(o));
    }
  }

  void verify(const YNode& n, const YNode* key) {
    auto f = fields(n, "verify", {"seeds", "atol", "rtol", "alt_sizes", "general_sizes"}, {}, key);
    if (!f) return;
    if (const YNode* s = seq(*f, "seeds", "verify")) {
      std::vector<std::uint64_t> seeds;
      for (const YNode& x : s->items) {
        if (x.kind == YNode::Kind::Scalar && !x.value.empty() && x.value.size() <= 20 &&
            std::all_of(x.value.begin(), x.value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
          errno = 0;
          unsigned long long v = std::strtoull(x.value.c_str(), nullptr, 10);
          if (errno == 0) {
            seeds.push_back(v);
            continue;
          }
        }
        error("D-TYPE", "a seed must be a non-negative integer, not " + (x.kind == YNode::Kind::Scalar ? "'" + x.value + "'" : "a " + kind_name(x)),
              loc_of(x.mark));
      }
      if (s->items.empty()) error("D-VALUE", "verify.seeds must list at least one seed", loc_of(s->mark));
      doc.verify.seeds = seeds;
    }
    for (const char* k : {"atol", "rtol"}) {
      if (const YNode* v = f->get(k)) {
        auto x = number(*v, std::string("verify.") + k, false, f->key(k));
        if (x && *x < 0) error("D-VALUE", std::string("verify.") + k + " must not be negative", loc_of(v->mark));
        else if (x) (k[0] == 'a' ? doc.verify.atol : doc.verify.rtol) = *x;
      }
    }
    if (const YNode* a = f->get("alt_sizes"))
      if (auto alt = size_override(*a, f->key("alt_sizes"), "verify.alt_sizes", "alt size"))
        doc.verify.alt_sizes = alt;
    if (const YNode* a = f->get("general_sizes"))
      if (auto g = size_override(*a, f->key("general_sizes"), "verify.general_sizes", "general size"))
        doc.verify.general_sizes = g;
  }

  // A second size binding (verify.alt_sizes, perf_sizes): a mapping of some of the task's size symbols to
  // positive integers, completed with the task's sizes. D-TYPE for a non-mapping, D-KEY for an unknown or
  // duplicate symbol, D-TYPE / D-VALUE (via integer()) for a value that is not a positive integer.
  std::optional<SizeBinding> size_override(const YNode& a, const YNode* key, const std::string& where,
                                           const std::string& what) {
    if (a.kind != YNode::Kind::Map) {
      error("D-TYPE",
            where + " must be a mapping of size symbols to positive integers, not a " + kind_name(a),
            vloc(a, key));
      return std::nullopt;
    }
    SizeBinding alt = doc.sizes;
    std::vector<std::string> syms;
    for (const auto& [s, v] : doc.sizes) syms.push_back(s);
    std::set<std::string> seen;
    for (std::size_t i = 0; i + 1 < a.items.size(); i += 2) {
      const YNode& k = a.items[i];
      if (k.kind != YNode::Kind::Scalar || !doc.sizes.count(k.value)) {
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
      if (auto x = integer(a.items[i + 1], what + " " + k.value, 1, 2147483647, &k)) alt[k.value] = *x;
    }
    return alt;
  }

  void meta(const YNode& n, const YNode* key) {
    auto f = fields(n, "meta", {"origin", "copies", "paper_affine", "attr", "needs", "len"}, {}, key);
    if (!f) return;
    doc.meta.present = true;
    if (auto s = str(*f, "origin", "meta")) doc.meta.origin = *s;
    if (auto s = str(*f, "attr", "meta")) {
      if (*s != "C" && *s != "CS") error("D-VALUE", "meta.attr must be C or CS, not '" + *s + "'", loc_of(f->get("attr")->mark));
      doc.meta.attr = *s;
    }
    auto int_field = [&](const char* k, int& out, int lo) {
      if (const YNode* v = f->get(k))
        if (auto x = integer(*v, std::string("meta.") + k, lo, 1000000, f->key(k))) out = static_cast<int>(*x);
    };
    int_field("copies", doc.meta.copies, 0);
    int_field("paper_affine", doc.meta.paper_affine, 0);
    int_field("len", doc.meta.len, 1);
    if (const YNode* v = f->get("needs")) {
      if (v->kind != YNode::Kind::Map) {
        error("D-TYPE", "meta.needs must be a mapping of primitive names to counts, not a " + kind_name(*v),
              vloc(*v, f->key("needs")));
        return;
      }
      static const std::vector<std::string> prims = [] {
        std::vector<std::string> names;
        for (const auto& e : primitives()) names.emplace_back(e.name);
        return names;
      }();
      for (std::size_t i = 0; i + 1 < v->items.size(); i += 2) {
        const YNode& k = v->items[i];
        if (k.kind != YNode::Kind::Scalar || std::find(prims.begin(), prims.end(), k.value) == prims.end()) {
          std::string hint = did_you_mean(k.value, prims);
          error("D-KEY", "unknown key '" + k.value + "' in meta.needs: not a primitive" +
                             (hint.empty() ? "" : "; did you mean '" + hint + "'?"),
                loc_of(k.mark));
          continue;
        }
        if (doc.meta.needs.count(k.value)) {
          error("D-KEY", "duplicate key '" + k.value + "' in meta.needs", loc_of(k.mark));
          continue;
        }
        if (auto x = integer(v->items[i + 1], "meta.needs." + k.value, 1, 1000000, &k))
          doc.meta.needs[k.value] = static_cast<int>(*x);
      }
    }
  }

  void check_namespace() {
    std::stable_sort(names.begin(), names.end(), [](const NameUse& a, const NameUse& b) {
      return std::pair(a.loc.line, a.loc.column) < std::pair(b.loc.line, b.loc.column);
    });
    std::map<std::string, const NameUse*, std::less<>> seen;
    for (const NameUse& u : names) {
      auto it = seen.find(u.name);
      const NameUse* prev = it != seen.end() ? it->second : nullptr;
      if (!prev && u.name.size() > 6 && u.name.ends_with("_value")) {
        auto s = seen.find(std::string_view(u.name).substr(0, u.name.size() - 6));
        if (s != seen.end() && s->second->kind == "size symbol") prev = s->second;
      }
      if (!prev && u.kind == "size symbol") {
        auto s = seen.find(u.name + "_value");
        if (s != seen.end()) prev = s->second;
      }
      if (prev) {
        error("D-DUP",
              u.kind + " name '" + u.name + "' clashes with " + prev->kind + " '" + prev->name + "' (line " +
                  std::to_string(prev->loc.line) + "): inputs, parameters, fns, outputs and sizes share one namespace",
              u.loc);
        continue;
      }
      seen[u.name] = &u;
    }
  }
};

std::string cut_keys(const Text& t, const YNode& root, const std::set<std::string>& drop);

std::optional<TaskDoc> walk_task(const Text& t, const YNode& root, std::string path, Diagnostics& diags) {
  TaskWalker w(t, diags);
  w.doc.path = std::move(path);
  if (root.kind == YNode::Kind::Null) {
    w.error("D-MISSING", "the document is empty: missing required key 'dialect' (expected a task document)", {1, 1});
    return std::nullopt;
  }
  static const std::vector<std::string> keys{"dialect", "id", "group", "title", "description", "sizes",
                                             "perf_sizes", "inputs", "parameters", "fns", "outputs",
                                             "reference", "verify", "meta", "impl"};
  auto f = w.fields(root, "the task document", keys,
                    {"dialect", "id", "group", "title", "description", "sizes", "inputs", "outputs", "reference"});
  if (!f) return std::nullopt;
  if (auto s = w.str(*f, "dialect", "the task document")) {
    w.doc.dialect = *s;
    if (*s != "step-v1")
      w.error("D-DIALECT", "unsupported dialect '" + *s + "' (expected step-v1)", loc_of(f->get("dialect")->mark));
  }
  for (auto [k, out] : {std::pair<const char*, std::string*>{"id", &w.doc.id}, {"group", &w.doc.group},
                        {"title", &w.doc.title}, {"description", &w.doc.description}})
    if (auto s = w.str(*f, k, "the task document")) *out = *s;
  if (f->get("id") && f->get("group") && !w.doc.id.empty()) {
    auto slash = w.doc.id.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == w.doc.id.size() ||
        w.doc.id.find('/', slash + 1) != std::string::npos || w.doc.id.substr(0, slash) != w.doc.group)
      w.error("D-VALUE", "id '" + w.doc.id + "' must have the form " + w.doc.group + "/<name> (group/name)",
              loc_of(f->get("id")->mark));
  }
  if (const YNode* v = f->get("sizes")) w.sizes(*v, f->key("sizes"));
  if (const YNode* v = f->get("perf_sizes"))
    if (auto p = w.size_override(*v, f->key("perf_sizes"), "perf_sizes", "perf size")) w.doc.perf_sizes = p;
  if (const YNode* v = w.seq(*f, "inputs", "the task document")) w.inputs(*v);
  if (const YNode* v = w.seq(*f, "parameters", "the task document")) w.parameters(*v);
  if (const YNode* v = w.seq(*f, "fns", "the task document")) w.fns(*v);
  if (const YNode* v = w.seq(*f, "outputs", "the task document")) {
    w.outputs(*v);
    if (v->items.empty()) w.error("D-VALUE", "a task needs at least one output", loc_of(v->mark));
  }
  if (const YNode* v = f->get("inputs"); v && v->kind == YNode::Kind::Seq && v->items.empty())
    w.error("D-VALUE", "a task needs at least one input", loc_of(v->mark));
  if (auto s = w.body(*f, "reference", "the task document", w.doc.reference_line_starts)) w.doc.reference = *s;
  if (const YNode* v = f->get("verify")) w.verify(*v, f->key("verify"));
  if (const YNode* v = f->get("meta")) w.meta(*v, f->key("meta"));
  if (f->get("impl")) {
    if (auto s = w.body(*f, "impl", "the task document", w.doc.impl_line_starts, &w.doc.impl_loc)) w.doc.impl = *s;
  }
  w.check_namespace();
  w.check_multihot_lanes();
  if (w.failed) return std::nullopt;
  w.doc.raw_text_without_impl = cut_keys(t, root, {"impl", "meta", "verify"});
  return std::move(w.doc);
}

// The document text without the given top-level keys (each key runs to the line before the next key).
std::string cut_keys(const Text& t, const YNode& root, const std::set<std::string>& drop) {
  if (root.flow) {
    // A flow-style root mapping: re-emit the kept entries one per line.
    std::string out;
    for (std::size_t i = 0; i + 1 < root.items.size(); i += 2) {
      if (drop.count(root.items[i].value)) continue;
      std::size_t b = t.offset(root.items[i].mark.line, root.items[i].mark.column);
      std::size_t e = i + 2 < root.items.size() ? t.offset(root.items[i + 2].mark.line, root.items[i + 2].mark.column)
                                                : t.s.size();
      std::string part(t.s.substr(b, e - b));
      while (!part.empty() && (part.back() == ',' || part.back() == '}' || std::isspace(static_cast<unsigned char>(part.back()))))
        part.pop_back();
      out += part + "\n";
    }
    return out;
  }
  std::vector<std::pair<int, bool>> starts;  // (line0, dropped)
  for (std::size_t i = 0; i + 1 < root.items.size(); i += 2)
    starts.emplace_back(root.items[i].mark.line, drop.count(root.items[i].value) > 0);
  std::string out;
  std::size_t first = starts.empty() ? t.line_off.size() : static_cast<std::size_t>(starts.front().first);
  out += std::string(t.s.substr(0, t.offset(static_cast<int>(first), 0)));
  for (std::size_t i = 0; i < starts.size(); ++i) {
    if (starts[i].second) continue;
    std::size_t b = t.offset(starts[i].first, 0);
    std::size_t e = i + 1 < starts.size() ? t.offset(starts[i + 1].first, 0) : t.s.size();
    out += std::string(t.s.substr(b, e - b));
  }
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

// ------------------------------------------------------------------------------------ solutions, mutants
std::optional<SolutionDoc> walk_solution(const Text& t, const YNode& root, Diagnostics& diags) {
  Walker w(t, diags);
  auto f = w.fields(root, "the solution file", {"task", "impl"}, {"task", "impl"});
  if (!f) return std::nullopt;
  SolutionDoc s;
  if (auto id = w.str(*f, "task", "the solution file")) s.task_id = *id;
  if (auto b = w.body(*f, "impl", "the solution file", s.impl_line_starts, &s.loc)) s.impl = *b;
  if (w.failed) return std::nullopt;
  return s;
}

std::optional<MutantFile> walk_mutants(const Text& t, const YNode& root, Diagnostics& diags) {
  Walker w(t, diags);
  auto f = w.fields(root, "the mutant file", {"task", "mutants"}, {"task", "mutants"});
  if (!f) return std::nullopt;
  MutantFile mf;
  if (auto id = w.str(*f, "task", "the mutant file")) mf.task_id = *id;
  if (const YNode* list = w.seq(*f, "mutants", "the mutant file")) {
    for (std::size_t i = 0; i < list->items.size(); ++i) {
      std::string where = "mutants[" + std::to_string(i) + "]";
      auto mfields = w.fields(list->items[i], where, {"name", "what", "stage", "code", "impl"},
                              {"name", "stage", "code", "impl"});
      if (!mfields) continue;
      MutantDoc m;
      m.loc = loc_of(list->items[i].mark);
      if (auto s = w.str(*mfields, "name", where)) m.name = *s;
      if (auto s = w.str(*mfields, "what", where)) m.what = *s;
      if (auto s = w.str(*mfields, "stage", where)) {
        Stage st;
        if (!parse_stage(*s, st)) w.error("D-VALUE", "unknown stage '" + *s + "' in " + where, loc_of(mfields->get("stage")->mark));
        m.stage = *s;
      }
      if (auto s = w.str(*mfields, "code", where)) m.code = *s;
      if (auto b = w.body(*mfields, "impl", where, m.impl_line_starts)) m.impl = *b;
      mf.mutants.push_back(std::move(m));
    }
  }
  if (w.failed) return std::nullopt;
  return mf;
}

}  // namespace

// ------------------------------------------------------------------------------------------- public API
std::string_view data_gen_name(DataGen g) {
  switch (g) {
    case DataGen::Rand: return "rand";
    case DataGen::Randn: return "randn";
    case DataGen::Ones: return "ones";
    case DataGen::Binary: return "binary";
    case DataGen::Multihot: return "multihot";
  }
  return "rand";
}

const FnDecl* TaskDoc::find_fn(std::string_view func_name) const {
  for (const auto& f : fns)
    if (f.func_name == func_name) return &f;
  return nullptr;
}

std::vector<SizeBinding> TaskDoc::bindings() const {
  std::vector<SizeBinding> out{sizes};
  if (verify.alt_sizes) out.push_back(*verify.alt_sizes);
  return out;
}

std::vector<TaskDoc::BindingRef> TaskDoc::static_binding_refs() const {
  std::vector<BindingRef> out{{"sizes", &sizes}};
  auto add = [&](const char* name, const std::optional<SizeBinding>& b) {
    if (!b) return;
    for (const auto& o : out)
      if (*o.sizes == *b) return;
    out.push_back({name, &*b});
  };
  add("verify.alt_sizes", verify.alt_sizes);
  add("verify.general_sizes", verify.general_sizes);
  add("perf_sizes", perf_sizes);
  return out;
}

std::vector<NamedBinding> TaskDoc::static_bindings() const {
  std::vector<NamedBinding> out;
  for (const auto& r : static_binding_refs()) out.push_back({r.name, *r.sizes});
  return out;
}

std::string binding_text(const SizeBinding& b) {
  std::string s;
  for (const auto& [k, v] : b) s += (s.empty() ? "" : ", ") + k + "=" + std::to_string(v);
  return s;
}

SizeBinding TaskDoc::perf_binding() const { return perf_sizes ? *perf_sizes : sizes; }

TaskNames task_names(const TaskDoc& d) {
  TaskNames n;
  for (const auto& x : d.inputs) n.inputs.insert(x.name);
  for (const auto& x : d.parameters) n.parameters.insert(x.name);
  for (const auto& x : d.fns) n.fns.insert(x.func_name);
  for (const auto& x : d.outputs) n.outputs.insert(x.name);
  for (const auto& [s, v] : d.sizes) n.sizes.insert(s);
  return n;
}

std::optional<TaskDoc> load_task_text(std::string_view text, std::string path, Diagnostics& diags) {
  Text t(text);
  auto root = parse_yaml(t, diags);
  if (!root) return std::nullopt;
  return walk_task(t, *root, std::move(path), diags);
}

AnyDoc load_any_text(std::string_view text, std::string path, Diagnostics& diags) {
  AnyDoc out;
  Text t(text);
  auto root = parse_yaml(t, diags);
  if (!root) return out;
  bool has_task_key = false, has_mutants = false;
  if (root->kind == YNode::Kind::Map)
    for (std::size_t i = 0; i < root->items.size(); i += 2) {
      has_task_key |= root->items[i].value == "task";
      has_mutants |= root->items[i].value == "mutants";
    }
  if (has_task_key && has_mutants) out.mutants = walk_mutants(t, *root, diags);
  else if (has_task_key) out.solution = walk_solution(t, *root, diags);
  else out.task = walk_task(t, *root, std::move(path), diags);
  return out;
}

std::optional<std::string> read_document_file(const std::string& path, Diagnostics& diags) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.push_back(make_error("IO-READ", "cannot open '" + path + "'", {}));
    return std::nullopt;
  }
  std::string data;
  data.resize(kMaxDocumentBytes + 1);
  in.read(data.data(), static_cast<std::streamsize>(data.size()));
  data.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) {
    diags.push_back(make_error("IO-READ", "cannot read '" + path + "'", {}));
    return std::nullopt;
  }
  return data;
}

std::optional<TaskDoc> load_task_file(const std::string& path, Diagnostics& diags) {
  auto text = read_document_file(path, diags);
  if (!text) return std::nullopt;
  return load_task_text(*text, path, diags);
}

AnyDoc load_any_file(const std::string& path, Diagnostics& diags) {
  auto text = read_document_file(path, diags);
  if (!text) return {};
  return load_any_text(*text, path, diags);
}

}  // namespace sf::step
