#include "core/agent/response_parser.hpp"
#include "core/agent/text_util.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace sf::agent {

namespace {

using text::indent_chars;
using text::indent_of;
using text::is_blank;
using text::lower;
using text::trim;

struct Line {
  int no = 0;        // 1-based response line
  std::string text;  // without the line end
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> out;
  std::size_t pos = 0;
  int no = 1;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view l = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    out.push_back({no++, std::string(l)});
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

// A fence line: optional indentation, then 3+ backticks or tildes. Returns the fence char and length.
bool fence_of(std::string_view s, char& ch, std::size_t& len, std::string& info) {
  std::size_t i = indent_chars(s);
  if (i >= s.size() || (s[i] != '`' && s[i] != '~')) return false;
  ch = s[i];
  std::size_t j = i;
  while (j < s.size() && s[j] == ch) ++j;
  len = j - i;
  if (len < 3) return false;
  info = trim(s.substr(j));
  return true;
}

struct Region {
  std::vector<Line> lines;
  bool fenced = false;
};

// Splits the answer into fenced blocks and the text outside them (all outside text is one region).
void split_regions(const std::vector<Line>& lines, std::vector<Region>& fenced, Region& outside) {
  outside.fenced = false;
  std::size_t i = 0;
  while (i < lines.size()) {
    char ch;
    std::size_t len;
    std::string info;
    if (!fence_of(lines[i].text, ch, len, info)) {
      outside.lines.push_back(lines[i]);
      ++i;
      continue;
    }
    Region r;
    r.fenced = true;
    ++i;
    while (i < lines.size()) {
      char c2;
      std::size_t l2;
      std::string info2;
      if (fence_of(lines[i].text, c2, l2, info2) && c2 == ch && l2 >= len && info2.empty()) break;
      r.lines.push_back(lines[i]);
      ++i;
    }
    ++i;  // the closing fence (or past the end for an unclosed last block)
    fenced.push_back(std::move(r));
  }
}

// Index of the last line that is a `key:` (optionally after "- "), or -1.
int find_key(const std::vector<Line>& lines, std::string_view key) {
  for (int i = static_cast<int>(lines.size()) - 1; i >= 0; --i) {
    std::string_view s = lines[i].text;
    std::size_t p = indent_chars(s);
    if (p < s.size() && s[p] == '-' && p + 1 < s.size() && (s[p + 1] == ' ' || s[p + 1] == '\t')) {
      p = p + 1 + indent_chars(s.substr(p + 1));
    }
    if (s.compare(p, key.size(), key) != 0) continue;
    std::size_t q = p + key.size();
    while (q < s.size() && (s[q] == ' ' || s[q] == '\t')) ++q;
    if (q < s.size() && s[q] == ':') return i;
  }
  return -1;
}

// Column (0-based chars) just after the colon of `key:` on the line.
std::size_t after_colon(std::string_view s) { return s.find(':') + 1; }

bool looks_like_yaml_key(std::string_view s) {
  std::size_t p = indent_chars(s);
  std::size_t q = p;
  while (q < s.size() && (std::isalnum(static_cast<unsigned char>(s[q])) || s[q] == '_' || s[q] == '-')) ++q;
  if (q == p || q >= s.size() || s[q] != ':') return false;
  return q + 1 == s.size() || s[q + 1] == ' ' || s[q + 1] == '\t';
}

std::string unquote_double(std::string_view s, bool& closed, std::size_t& consumed) {
  std::string out;
  closed = false;
  std::size_t i = 1;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      closed = true;
      ++i;
      break;
    }
    if (c == '\\' && i + 1 < s.size()) {
      char n = s[++i];
      out += n == 'n' ? '\n' : n == 't' ? '\t' : n == 'r' ? '\r' : n;
    } else {
      out += c;
    }
  }
  consumed = i;
  return out;
}

struct ImplResult {
  std::string text;
  int first_line = 0;
  Location key_loc;
};

// Extracts the value of the `impl:` key at lines[k].
ImplResult extract_impl(const std::vector<Line>& lines, int k) {
  ImplResult res;
  const std::string& key_line = lines[k].text;
  int key_indent = indent_of(key_line);
  res.key_loc = {lines[k].no, static_cast<int>(indent_chars(key_line)) + 1};
  std::string rest = trim(std::string_view(key_line).substr(after_colon(key_line)));
  std::vector<std::pair<int, std::string>> body;  // (line no, text)

  if (!rest.empty() && (rest[0] == '"' || rest[0] == '\'')) {
    // A quoted scalar (possibly over several lines): join the lines, then unquote.
    std::string joined = rest;
    int i = k + 1;
    auto closed_quote = [&](const std::string& s) {
      if (s[0] == '\'') {
        std::size_t n = 0;
        for (std::size_t p = 1; p < s.size(); ++p) n += s[p] == '\'';
        return n % 2 == 1;
      }
      bool closed;
      std::size_t used;
      unquote_double(s, closed, used);
      return closed;
    };
    while (!closed_quote(joined) && i < static_cast<int>(lines.size())) joined += "\n" + trim(lines[i++].text);
    if (joined[0] == '"') {
      bool closed;
      std::size_t used;
      res.text = unquote_double(joined, closed, used);
    } else {
      std::string out;
      for (std::size_t p = 1; p < joined.size(); ++p) {
        if (joined[p] == '\'') {
          if (p + 1 < joined.size() && joined[p + 1] == '\'') {
            out += '\'';
            ++p;
            continue;
          }
          break;
        }
        out += joined[p];
      }
      res.text = out;
    }
    res.first_line = lines[k].no;
    return res;
  }

  bool block_indicator = !rest.empty() && (rest[0] == '|' || rest[0] == '>');
  if (!rest.empty() && !block_indicator) body.emplace_back(lines[k].no, rest);  // inline first line

  int i = k + 1;
  bool any_indented = false;
  for (; i < static_cast<int>(lines.size()); ++i) {
    const std::string& t = lines[i].text;
    if (is_blank(t)) {
      body.emplace_back(lines[i].no, "");
      continue;
    }
    if (indent_of(t) <= key_indent) break;
    any_indented = true;
    body.emplace_back(lines[i].no, t);
  }
  if (!any_indented && (body.empty() || is_blank(body.front().second) || block_indicator || rest.empty())) {
    // An unindented body: take the following lines up to the `return` line or the next YAML key.
    body.erase(std::remove_if(body.begin(), body.end(), [](const auto& b) { return b.second.empty(); }), body.end());
    for (i = k + 1; i < static_cast<int>(lines.size()); ++i) {
      const std::string& t = lines[i].text;
      if (!is_blank(t) && looks_like_yaml_key(t)) break;
      body.emplace_back(lines[i].no, t);
      std::string s = trim(t);
      if (s == "return" || s.rfind("return ", 0) == 0 || s.rfind("return(", 0) == 0) break;
    }
  }
  while (!body.empty() && is_blank(body.back().second)) body.pop_back();
  while (!body.empty() && is_blank(body.front().second)) body.erase(body.begin());
  if (body.empty()) return res;
  // Dedent by the smallest indentation of the block's lines (the inline first line does not count).
  std::size_t common = std::string::npos;
  for (const auto& [no, t] : body) {
    if (t.empty() || (no == lines[k].no)) continue;
    common = std::min(common, indent_chars(t));
  }
  if (common == std::string::npos) common = 0;
  res.first_line = body.front().first;
  for (std::size_t b = 0; b < body.size(); ++b) {
    const auto& [no, t] = body[b];
    std::string_view v = t;
    if (no != lines[k].no) v.remove_prefix(std::min(common, indent_chars(v)));
    res.text += v;
    res.text += '\n';
  }
  return res;
}

bool looks_like_program(const Region& r) {
  bool ret = false, step = false;
  for (const auto& l : r.lines) {
    std::string s = trim(l.text);
    if (s == "return" || s.rfind("return ", 0) == 0 || s.rfind("return(", 0) == 0) ret = true;
    if (s.find("step.") != std::string::npos) step = true;
  }
  return ret && step;
}

}  // namespace

// Adoption and rules_used list parsing lives in adoption_list.cpp.
void parse_adoption_block(const std::vector<std::string>& texts, const std::vector<int>& line_nos, int key_index,
                          std::size_t max_entries, std::vector<AdoptionEntry>& out, Diagnostics& diags);
void parse_rules_used_list(const std::vector<std::string>& texts, const std::vector<int>& line_nos, int key_index,
                           std::size_t max_entries, std::vector<std::string>& out, Diagnostics& diags);

std::optional<bool> ParsedResponse::adopted(const std::string& id) const {
  for (const auto& e : adoption)
    if (e.id == id) return e.adopted;
  return std::nullopt;
}

namespace {

// A list that goes with the program (`adoption:`, `rules_used:`): the key in the impl's region if there, else
// the last fenced block that has it, else the text outside blocks. Returns the region's lines as texts and
// line numbers and the key's index in them (-1: no such key).
int find_list_key(const Region* impl_region, const std::vector<Region>& fenced, const Region& outside,
                  const std::vector<std::string_view>& keys, std::vector<std::string>& texts, std::vector<int>& nos) {
  auto find_any = [&](const Region& r) {
    int best = -1;
    for (auto key : keys) best = std::max(best, find_key(r.lines, key));
    return best;
  };
  const Region* region = nullptr;
  int at = -1;
  if (impl_region && (at = find_any(*impl_region)) >= 0) region = impl_region;
  for (auto it = fenced.rbegin(); it != fenced.rend() && !region; ++it)
    if ((at = find_any(*it)) >= 0) region = &*it;
  if (!region && (at = find_any(outside)) >= 0) region = &outside;
  if (!region) return -1;
  for (const auto& l : region->lines) {
    texts.push_back(l.text);
    nos.push_back(l.no);
  }
  return at;
}

// Blanks every <think>…</think> span (keeping its newlines, so line numbers stay) and returns its text.
std::string strip_think(std::string& text) {
  std::string reasoning;
  std::size_t pos = 0;
  while ((pos = text.find("<think>", pos)) != std::string::npos) {
    std::size_t end = text.find("</think>", pos);
    std::size_t stop = end == std::string::npos ? text.size() : end + 8;
    std::size_t inner = pos + 7, inner_end = end == std::string::npos ? text.size() : end;
    if (!reasoning.empty()) reasoning += "\n";
    reasoning += text.substr(inner, inner_end - inner);
    for (std::size_t i = pos; i < stop; ++i)
      if (text[i] != '\n') text[i] = ' ';
    pos = stop;
  }
  return reasoning;
}

}  // namespace

ParsedResponse parse_response(std::string_view original, const std::vector<std::string>& retrieved_ids,
                              const ResponseParserLimits& limits) {
  ParsedResponse out;
  std::string stripped;
  std::string_view text = original;
  if (original.size() <= limits.max_bytes && original.find("<think>") != std::string_view::npos) {
    stripped.assign(original);
    out.reasoning = strip_think(stripped);
    text = stripped;
  }
  if (text.size() > limits.max_bytes) {
    out.diagnostics.push_back(make_error("L-RESPONSE-SIZE",
                                         "the answer has " + std::to_string(text.size()) + " bytes; the limit is " +
                                             std::to_string(limits.max_bytes),
                                         Location{1, 1}));
    out.missing_ids = retrieved_ids;
    return out;
  }
  std::vector<Line> lines = split_lines(text);
  std::vector<Region> fenced;
  Region outside;
  split_regions(lines, fenced, outside);

  // 1. The impl.
  const Region* impl_region = nullptr;
  int impl_key = -1;
  for (auto it = fenced.rbegin(); it != fenced.rend() && !impl_region; ++it) {
    int k = find_key(it->lines, "impl");
    if (k >= 0) {
      impl_region = &*it;
      impl_key = k;
      out.impl_source = "fenced";
    }
  }
  if (!impl_region) {
    int k = find_key(outside.lines, "impl");
    if (k >= 0) {
      impl_region = &outside;
      impl_key = k;
      out.impl_source = "bare";
    }
  }
  if (impl_region) {
    ImplResult r = extract_impl(impl_region->lines, impl_key);
    if (is_blank(r.text)) {
      out.diagnostics.push_back(make_error("P-EMPTY-IMPL", "the impl: block is empty", r.key_loc));
    } else {
      out.impl = std::move(r.text);
      out.impl_line = r.first_line;
    }
  } else {
    for (auto it = fenced.rbegin(); it != fenced.rend(); ++it) {
      if (!looks_like_program(*it)) continue;
      std::string body;
      std::size_t first = 0, last = it->lines.size();
      while (first < last && is_blank(it->lines[first].text)) ++first;
      while (last > first && is_blank(it->lines[last - 1].text)) --last;
      std::size_t common = std::string::npos;
      for (std::size_t i = first; i < last; ++i)
        if (!is_blank(it->lines[i].text)) common = std::min(common, indent_chars(it->lines[i].text));
      for (std::size_t i = first; i < last; ++i) {
        std::string_view v = it->lines[i].text;
        v.remove_prefix(std::min(common, indent_chars(v)));
        body += v;
        body += '\n';
      }
      out.impl = std::move(body);
      out.impl_line = it->lines[first].no;
      out.impl_source = "fenced-program";
      impl_region = &*it;
      break;
    }
    if (!out.impl)
      out.diagnostics.push_back(make_error("P-NO-IMPL", "the answer contains no impl: block and no STeP program",
                                           Location{1, 1}));
  }

  // 2. The adoption list: in the impl's region if there, else the last one anywhere.
  std::vector<AdoptionEntry> raw;
  Location ad_loc;
  {
    std::vector<std::string> texts;
    std::vector<int> nos;
    const int ad_key = find_list_key(impl_region, fenced, outside, {"adoption"}, texts, nos);
    if (ad_key >= 0) {
      out.has_adoption_block = true;
      ad_loc = {nos[ad_key], static_cast<int>(indent_chars(texts[ad_key])) + 1};
      parse_adoption_block(texts, nos, ad_key, limits.max_entries, raw, out.diagnostics);
    }
  }
  // The resident rules the answer says it used, found like the adoption list.
  {
    std::vector<std::string> texts;
    std::vector<int> nos;
    const int key = find_list_key(impl_region, fenced, outside, {"rules_used", "rules-used", "used_rules"}, texts, nos);
    if (key >= 0) {
      out.has_rules_used = true;
      parse_rules_used_list(texts, nos, key, limits.max_entries, out.rules_used, out.diagnostics);
    }
  }

  // 3. Resolve against the retrieved ids.
  std::set<std::string> retrieved(retrieved_ids.begin(), retrieved_ids.end());
  std::set<std::string> unknown_seen;
  for (auto& e : raw) {
    auto dup = std::find_if(out.adoption.begin(), out.adoption.end(), [&](const AdoptionEntry& a) { return a.id == e.id; });
    if (dup != out.adoption.end()) {
      if (!dup->adopted && e.adopted) {
        *dup = e;
      } else if (e.adopted && dup->adopted != e.adopted) {
        out.diagnostics.push_back(make_warning("P-ADOPTION-DUP",
                                               "item " + e.id + " is listed twice with different states; the first counts",
                                               e.loc));
      }
      continue;
    }
    if (!retrieved.count(e.id) && unknown_seen.insert(e.id).second) {
      out.unknown_ids.push_back(e.id);
      out.diagnostics.push_back(
          make_error("P-ADOPTION-UNKNOWN", "the adoption list names " + e.id + ", which was not retrieved", e.loc));
    }
    out.adoption.push_back(e);
  }
  for (const auto& id : retrieved_ids) {
    auto it = std::find_if(out.adoption.begin(), out.adoption.end(), [&](const AdoptionEntry& a) { return a.id == id; });
    if (it != out.adoption.end() && it->adopted) continue;
    if (std::find(out.missing_ids.begin(), out.missing_ids.end(), id) != out.missing_ids.end()) continue;
    out.missing_ids.push_back(id);
    out.diagnostics.push_back(make_error("P-ADOPTION-MISSING", "no adoption state for retrieved item " + id,
                                         it != out.adoption.end() ? it->loc : ad_loc));
  }
  sort_and_cap(out.diagnostics, 1000);
  return out;
}

}  // namespace sf::agent
