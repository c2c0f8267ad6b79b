// The located YAML tree of a document and the walker's helpers (document_tree.hpp).
#include "core/step/document_tree.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <sstream>

namespace sf::step::detail {

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


Location loc_of(const YAML::Mark& m) {
  if (m.line < 0) return {};
  return {m.line + 1, m.column + 1};
}


namespace {

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

}  // namespace

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

}  // namespace sf::step::detail
