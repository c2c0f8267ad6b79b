// The `adoption:` list of a proposer answer: block items (`- id: m1` / `adopted: yes` / `rationale: ...`),
// flow items (`- {id: m1, adopted: no, rationale: ...}`) or a flow list (`adoption: [{...}, {...}]`).
// Unquoted commas inside a rationale are kept: a flow map is split only before a known key.
// Also the `rules_used:` list (the resident rules the answer says it used): a flow list, block items or a
// comma-separated scalar of rule ids.
#include "core/agent/response_parser.hpp"
#include "core/agent/text_util.hpp"

#include <algorithm>
#include <cctype>

namespace sf::agent {

namespace {

using text::indent_chars;
using text::indent_of;
using text::is_blank;
using text::lower;
using text::trim;

// Removes one pair of matching surrounding quotes or backticks.
std::string unquote(std::string s) {
  s = trim(s);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'' || s.front() == '`') && s.back() == s.front()) {
    std::string inner = s.substr(1, s.size() - 2);
    if (s.front() == '"') {
      std::string out;
      for (std::size_t i = 0; i < inner.size(); ++i) {
        if (inner[i] == '\\' && i + 1 < inner.size()) {
          char n = inner[++i];
          out += n == 'n' ? '\n' : n == 't' ? '\t' : n;
        } else {
          out += inner[i];
        }
      }
      return out;
    }
    return inner;
  }
  return s;
}

enum class Field { Id, Adopted, Rationale, Other };

Field field_of(const std::string& key) {
  std::string k = lower(trim(key));
  if (k == "id" || k == "item" || k == "item_id" || k == "experience") return Field::Id;
  if (k == "adopted" || k == "adoption" || k == "state" || k == "status") return Field::Adopted;
  if (k == "rationale" || k == "reason" || k == "why") return Field::Rationale;
  return Field::Other;
}

std::optional<bool> parse_state(const std::string& v) {
  std::string s = lower(unquote(v));
  while (!s.empty() && (s.back() == '.' || s.back() == ',' || s.back() == ';')) s.pop_back();
  for (auto& c : s)
    if (c == '_' || c == ' ') c = '-';
  if (s == "yes" || s == "y" || s == "true" || s == "adopted" || s == "1" || s == "on") return true;
  if (s == "no" || s == "n" || s == "false" || s == "not-adopted" || s == "notadopted" || s == "0" || s == "off" ||
      s == "rejected" || s == "unused")
    return false;
  return std::nullopt;
}

// "key: value" -> (key, value); false if the line is not a pair.
bool split_pair(std::string_view s, std::string& key, std::string& value) {
  std::size_t p = indent_chars(s);
  std::size_t q = p;
  while (q < s.size() && (std::isalnum(static_cast<unsigned char>(s[q])) || s[q] == '_' || s[q] == '-')) ++q;
  if (q == p) return false;
  std::size_t c = q;
  while (c < s.size() && s[c] == ' ') ++c;
  if (c >= s.size() || s[c] != ':') return false;
  key = std::string(s.substr(p, q - p));
  value = trim(s.substr(c + 1));
  return true;
}

struct Builder {
  AdoptionEntry e;
  bool has_id = false;
  bool has_state = false;
  std::string state_text;
};

void set_field(Builder& b, const std::string& key, const std::string& value) {
  switch (field_of(key)) {
    case Field::Id:
      b.e.id = unquote(value);
      b.has_id = !b.e.id.empty();
      break;
    case Field::Adopted:
      b.has_state = true;
      b.state_text = value;
      b.e.adopted = parse_state(value);
      break;
    case Field::Rationale:
      b.e.rationale = unquote(value);
      break;
    case Field::Other:
      break;
  }
}

// Splits the inside of a flow map before each known key at depth 0 outside quotes.
void parse_flow_map(std::string_view inner, Builder& b) {
  std::vector<std::size_t> starts;
  char quote = 0;
  int depth = 0;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    char c = inner[i];
    if (quote) {
      if (c == '\\' && quote == '"') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      // a quote only opens a scalar at its start (after ':' or ',')
      std::size_t j = i;
      while (j > 0 && inner[j - 1] == ' ') --j;
      if (j == 0 || inner[j - 1] == ':' || inner[j - 1] == ',' || inner[j - 1] == '{') quote = c;
      continue;
    }
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (depth != 0) continue;
    if (i == 0 || c == ',') {
      std::size_t k = c == ',' ? i + 1 : i;
      std::string key, value;
      if (split_pair(inner.substr(k), key, value) && field_of(key) != Field::Other) starts.push_back(k);
    }
  }
  for (std::size_t s = 0; s < starts.size(); ++s) {
    std::size_t end = s + 1 < starts.size() ? starts[s + 1] - 1 : inner.size();  // drop the separating comma
    std::string key, value;
    if (split_pair(inner.substr(starts[s], end - starts[s]), key, value)) set_field(b, key, value);
  }
}

void finish(Builder& b, std::size_t max_entries, std::vector<AdoptionEntry>& out, Diagnostics& diags) {
  if (!b.has_id) {
    diags.push_back(make_error("P-ADOPTION", "an adoption entry has no id", b.e.loc));
    return;
  }
  if (!b.has_state) {
    diags.push_back(make_error("P-ADOPTION", "adoption entry " + b.e.id + " has no adopted: yes|no", b.e.loc));
  } else if (!b.e.adopted) {
    diags.push_back(make_error("P-ADOPTION",
                               "adoption entry " + b.e.id + ": adopted must be yes or no, got '" + trim(b.state_text) + "'",
                               b.e.loc));
  }
  if (out.size() < max_entries) out.push_back(b.e);
}

// Text from `s` up to its matching closing bracket, joining lines; `i` advances over consumed lines.
std::string gather_balanced(const std::vector<std::string>& texts, std::size_t& i, std::string first) {
  auto balance = [](const std::string& s) {
    int d = 0;
    char q = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
      char c = s[k];
      if (q) {
        if (c == '\\' && q == '"') ++k;
        else if (c == q) q = 0;
      } else if (c == '"') {
        q = c;
      } else if (c == '{' || c == '[') {
        ++d;
      } else if (c == '}' || c == ']') {
        --d;
      }
    }
    return d;
  };
  std::string s = std::move(first);
  std::size_t guard = 0;
  while (balance(s) > 0 && i + 1 < texts.size() && guard++ < 200) s += " " + trim(texts[++i]);
  return s;
}

// Splits "{...}, {...}" (the inside of a flow list) into flow maps.
std::vector<std::string> split_flow_items(const std::string& s) {
  std::vector<std::string> items;
  int d = 0;
  char q = 0;
  std::size_t start = std::string::npos;
  for (std::size_t k = 0; k < s.size(); ++k) {
    char c = s[k];
    if (q) {
      if (c == '\\' && q == '"') ++k;
      else if (c == q) q = 0;
      continue;
    }
    if (c == '"') q = c;
    if (c == '{') {
      if (d == 0) start = k;
      ++d;
    } else if (c == '}') {
      if (--d == 0 && start != std::string::npos) {
        items.push_back(s.substr(start + 1, k - start - 1));
        start = std::string::npos;
      }
    }
  }
  return items;
}

// A resident rule id as an answer writes it: `mem-000003`, `"mem-000003"`, `[mem-000003]`, `id: mem-000003`,
// `{id: mem-000003}`, `mem-000003 (the bufferize rule)`: the leading run of id characters ("" when none).
std::string rule_id_of(std::string entry) {
  entry = trim(entry);
  if (entry.size() >= 2 && entry.front() == '{' && entry.back() == '}') entry = trim(entry.substr(1, entry.size() - 2));
  std::string key, value;
  if (split_pair(entry, key, value) && (field_of(key) == Field::Id || lower(key) == "rule")) entry = value;
  entry = unquote(entry);
  if (entry.size() >= 2 && entry.front() == '[' && entry.back() == ']') entry = entry.substr(1, entry.size() - 2);
  entry = unquote(entry);
  std::size_t n = 0;
  while (n < entry.size() && n < 128 &&
         (std::isalnum(static_cast<unsigned char>(entry[n])) || entry[n] == '-' || entry[n] == '_' || entry[n] == '.'))
    ++n;
  return entry.substr(0, n);
}

// Splits the inside of a flow list at commas outside quotes and braces.
std::vector<std::string> split_flow_list(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (char c : s) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!is_blank(cur)) out.push_back(cur);
  return out;
}

}  // namespace

void parse_rules_used_list(const std::vector<std::string>& texts, const std::vector<int>& line_nos, int key_index,
                           std::size_t max_entries, std::vector<std::string>& out, Diagnostics& diags) {
  const std::string& key_line = texts[key_index];
  const int key_indent = indent_of(key_line);
  auto k = static_cast<std::size_t>(key_index);
  const Location key_loc{line_nos[k], static_cast<int>(indent_chars(key_line)) + 1};
  std::string rest = trim(std::string_view(key_line).substr(key_line.find(':') + 1));
  if (auto hash = rest.find(" #"); hash != std::string::npos) rest = trim(rest.substr(0, hash));
  std::vector<std::pair<std::string, Location>> entries;
  if (!rest.empty() && rest[0] == '[') {
    std::string all = gather_balanced(texts, k, rest);
    std::size_t close = all.rfind(']');
    for (const auto& e : split_flow_list(all.substr(1, close == std::string::npos || close == 0 ? std::string::npos
                                                                                                   : close - 1)))
      entries.emplace_back(e, key_loc);
  } else if (!rest.empty()) {
    const std::string word = lower(unquote(rest));
    if (word != "none" && word != "null" && word != "~" && word != "no" && word != "-")
      for (const auto& e : split_flow_list(rest)) entries.emplace_back(e, key_loc);
  } else {
    for (std::size_t i = k + 1; i < texts.size(); ++i) {
      const std::string& t = texts[i];
      if (is_blank(t)) continue;
      const int ind = indent_of(t);
      const std::size_t p = indent_chars(t);
      const bool dash = t[p] == '-' && (p + 1 == t.size() || t[p + 1] == ' ' || t[p + 1] == '\t');
      if (ind < key_indent || (ind == key_indent && !dash)) break;
      if (dash) entries.emplace_back(t.substr(p + 1), Location{line_nos[i], static_cast<int>(p) + 1});
      // other lines under the key (a rationale of the previous entry): nothing to read
    }
  }
  for (const auto& [entry, loc] : entries) {
    const std::string id = rule_id_of(entry);
    if (id.empty()) {
      std::string shown = trim(entry).substr(0, 60);
      diags.push_back(make_warning("P-RULES-USED", "a rules_used entry is not a rule id: '" + shown + "'", loc));
      continue;
    }
    if (std::find(out.begin(), out.end(), id) == out.end() && out.size() < max_entries) out.push_back(id);
  }
}

void parse_adoption_block(const std::vector<std::string>& texts, const std::vector<int>& line_nos, int key_index,
                          std::size_t max_entries, std::vector<AdoptionEntry>& out, Diagnostics& diags) {
  const std::string& key_line = texts[key_index];
  int key_indent = indent_of(key_line);
  std::string rest = trim(std::string_view(key_line).substr(key_line.find(':') + 1));
  auto k = static_cast<std::size_t>(key_index);
  Location key_loc{line_nos[k], static_cast<int>(indent_chars(key_line)) + 1};

  if (!rest.empty() && rest[0] == '[') {
    std::string all = gather_balanced(texts, k, rest);
    for (const auto& item : split_flow_items(all)) {
      Builder b;
      b.e.loc = key_loc;
      parse_flow_map(item, b);
      finish(b, max_entries, out, diags);
    }
    return;
  }

  std::optional<Builder> cur;
  int item_indent = -1;
  Field last_field = Field::Other;
  bool literal = false;  // the last value was `|` / `>`: continuation lines keep their line breaks
  for (std::size_t i = k + 1; i < texts.size(); ++i) {
    const std::string& t = texts[i];
    if (is_blank(t)) continue;
    int ind = indent_of(t);
    std::size_t p = indent_chars(t);
    bool dash = t[p] == '-' && (p + 1 == t.size() || t[p + 1] == ' ' || t[p + 1] == '\t');
    if (ind < key_indent || (ind == key_indent && !dash)) break;
    if (dash && (item_indent < 0 || ind <= item_indent)) {
      if (cur) finish(*cur, max_entries, out, diags);
      cur.emplace();
      cur->e.loc = {line_nos[i], static_cast<int>(p) + 1};
      item_indent = ind;
      last_field = Field::Other;
      literal = false;
      std::string body = trim(std::string_view(t).substr(p + 1));
      if (!body.empty() && body[0] == '{') {
        std::string all = gather_balanced(texts, i, body);
        auto items = split_flow_items(all);
        if (!items.empty()) parse_flow_map(items[0], *cur);
        continue;
      }
      std::string key, value;
      if (split_pair(body, key, value)) {
        last_field = field_of(key);
        literal = value == "|" || value == ">" || value == "|-" || value == ">-";
        set_field(*cur, key, literal ? "" : value);
      } else if (!body.empty()) {
        // "- m3: yes, because ..." is not the format; keep the text as a rationale for the report.
        cur->e.rationale = body;
      }
      continue;
    }
    if (!cur) break;  // text under adoption: that is not a list
    std::string key, value;
    if (split_pair(t, key, value) && field_of(key) != Field::Other && !literal) {
      last_field = field_of(key);
      literal = value == "|" || value == ">" || value == "|-" || value == ">-";
      set_field(*cur, key, literal ? "" : value);
      continue;
    }
    if (split_pair(t, key, value) && field_of(key) != Field::Other && literal && indent_of(t) <= item_indent + 2) {
      last_field = field_of(key);
      literal = value == "|" || value == ">" || value == "|-" || value == ">-";
      set_field(*cur, key, literal ? "" : value);
      continue;
    }
    // A continuation line of the last value (multi-line rationale).
    if (last_field == Field::Rationale) {
      std::string& r = cur->e.rationale;
      if (!r.empty()) r += literal ? "\n" : " ";
      r += trim(t);
    }
  }
  if (cur) finish(*cur, max_entries, out, diags);
  if (out.empty() && rest != "[]" && rest != "" ) {
    diags.push_back(make_error("P-ADOPTION", "the adoption list is not a YAML list", key_loc));
  }
}

}  // namespace sf::agent
