#include "core/synth/opt2_answer.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <string_view>

#include "core/llm/builtin_backend.hpp"
#include "core/synth/opt2_propose.hpp"

namespace sf::synth::opt2 {

const char* const kRoleStatement =
    "You optimise programs written in STeP-25 (dialect step-v2), the streaming tensor program language of a "
    "dataflow accelerator with off-chip memory. Each round you are shown a task, a correct program for it, the "
    "program's performance as the cost model measured it and, when there are any, experiences retrieved from "
    "earlier rounds. Answer a faster program for the same task: it must compute the same outputs from the same "
    "inputs, write every dim as a size expression, and stay within the chip's limits (a program that is wrong, "
    "does not check or breaks a limit is a failed round). Change only what you expect to make it faster.";

namespace {

constexpr std::size_t kAnswerMaxText = 256 * 1024;
constexpr std::size_t kAnswerMaxLines = 20000;
constexpr std::size_t kAnswerMaxBlocks = 64;
constexpr std::size_t kAnswerMaxIds = 16;
constexpr std::size_t kAnswerMaxIdChars = 64;
constexpr std::size_t kCardMaxBytes = 64 * 1024;

using AnswerLines = std::vector<std::string>;

AnswerLines lines_of(std::string_view text) {
  AnswerLines out;
  std::size_t pos = 0;
  while (pos < text.size() && out.size() < kAnswerMaxLines) {
    std::size_t e = text.find('\n', pos);
    if (e == std::string_view::npos) e = text.size();
    std::string l(text.substr(pos, e - pos));
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back(std::move(l));
    pos = e + 1;
  }
  return out;
}

// The answer without its <think>...</think> blocks (reasoning models that inline their reasoning); an
// unterminated one runs to the end.
std::string without_think(std::string_view text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find("<think>", pos);
    out += text.substr(pos, open == std::string_view::npos ? std::string_view::npos : open - pos);
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find("</think>", open);
    if (close == std::string_view::npos) break;
    pos = close + 8;
  }
  return out;
}

std::size_t indent_chars(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}
bool blank(std::string_view s) { return indent_chars(s) == s.size(); }

// A fence line: indentation, then 3 or more backticks or tildes, then an optional info string ("yaml").
struct Fence {
  char ch = 0;
  std::size_t len = 0;
  bool info = false;
};
std::optional<Fence> fence_of(std::string_view s) {
  const std::size_t i = indent_chars(s);
  if (i >= s.size() || (s[i] != '`' && s[i] != '~')) return std::nullopt;
  std::size_t j = i;
  while (j < s.size() && s[j] == s[i]) ++j;
  if (j - i < 3) return std::nullopt;
  return Fence{s[i], j - i, !blank(s.substr(j))};
}

// A fenced block's body: lines [begin, end); `closed` when a closing fence follows it.
struct Block {
  std::size_t begin = 0, end = 0;
  bool closed = false;
};

// The fenced blocks from line `from` on (at most kAnswerMaxBlocks); `inside` (when given) marks every line of them.
std::vector<Block> blocks_of(const AnswerLines& ls, std::size_t from, std::vector<bool>* inside) {
  std::vector<Block> out;
  auto mark = [&](std::size_t i) {
    if (inside && i < inside->size()) (*inside)[i] = true;
  };
  std::size_t i = from;
  while (i < ls.size() && out.size() < kAnswerMaxBlocks) {
    auto open = fence_of(ls[i]);
    if (!open) {
      ++i;
      continue;
    }
    mark(i);
    Block b;
    b.begin = ++i;
    for (; i < ls.size(); ++i) {
      auto f = fence_of(ls[i]);
      if (f && f->ch == open->ch && f->len >= open->len && !f->info) {
        b.closed = true;
        break;
      }
      mark(i);
    }
    b.end = i;
    if (b.closed) mark(i++);
    out.push_back(b);
  }
  return out;
}

bool is_impl_key(std::string_view s) {
  std::size_t p = indent_chars(s);
  if (s.substr(p, 4) != "impl") return false;
  p += 4;
  while (p < s.size() && s[p] == ' ') ++p;
  return p < s.size() && s[p] == ':';
}

// `targets = step.Op(...)...`: a statement of a program.
bool is_statement(std::string_view s) {
  const std::size_t eq = s.find('=');
  if (eq == std::string_view::npos || blank(s.substr(0, eq))) return false;
  for (char c : s.substr(0, eq))
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != ',' && c != ' ' && c != '\t') return false;
  const std::string_view rhs = s.substr(eq + 1 + indent_chars(s.substr(eq + 1)));
  return rhs.starts_with("step.");
}

// AnswerLines [begin, end) with their common indentation removed; blank lines at either end dropped.
std::string dedent(const AnswerLines& ls, std::size_t begin, std::size_t end) {
  while (begin < end && blank(ls[begin])) ++begin;
  while (end > begin && blank(ls[end - 1])) --end;
  std::size_t common = std::string::npos;
  for (std::size_t i = begin; i < end; ++i)
    if (!blank(ls[i])) common = std::min(common, indent_chars(ls[i]));
  std::string out;
  for (std::size_t i = begin; i < end; ++i) out += (blank(ls[i]) ? std::string() : ls[i].substr(common)) + "\n";
  return out;
}

// The value of the `impl:` key at line k, read up to line `end`: the block scalar (the lines indented deeper
// than the key; in a fenced block whose body is not indented, the rest of the block), with an inline value
// after the colon as its first line.
std::string impl_value(const AnswerLines& ls, std::size_t k, std::size_t end, bool fenced) {
  const std::size_t key_indent = indent_chars(ls[k]);
  std::string rest = ls[k].substr(ls[k].find(':') + 1);
  rest = rest.substr(indent_chars(rest));
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.pop_back();
  std::size_t i = k + 1;
  while (i < end && (blank(ls[i]) || indent_chars(ls[i]) > key_indent)) ++i;
  std::string body = dedent(ls, k + 1, i);
  if (body.empty() && fenced) body = dedent(ls, k + 1, end);  // `impl: |` with an unindented body
  if (!rest.empty() && rest[0] != '|' && rest[0] != '>') body = rest + "\n" + body;
  return body;
}

// The program of a fenced block: its `impl:` value when it has the key, else "".
std::string impl_in(const AnswerLines& ls, const Block& b) {
  for (std::size_t i = b.begin; i < b.end; ++i)
    if (is_impl_key(ls[i])) return impl_value(ls, i, b.end, true);
  return {};
}

std::size_t skip(std::string_view s, std::size_t p, std::string_view chars) {
  while (p < s.size() && chars.find(s[p]) != std::string_view::npos) ++p;
  return p;
}

// The position after the colon of an `adopted:` line (also `- adopted:`, "`adopted: [..]`", "**Adopted:**").
std::optional<std::size_t> after_adopted_key(std::string_view l) {
  constexpr std::string_view kKey = "adopted";
  std::size_t p = skip(l, 0, " \t`*->_");
  if (l.size() < p + kKey.size()) return std::nullopt;
  for (std::size_t k = 0; k < kKey.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(l[p + k])) != kKey[k]) return std::nullopt;
  p = skip(l, p + kKey.size(), " *`_");
  if (p >= l.size() || l[p] != ':') return std::nullopt;
  return p + 1;
}

bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > kAnswerMaxIdChars || id == "none") return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' || c == '-';
  });
}

// The ids of the last `adopted:` line: inside [...] when there are brackets, else the rest of the line.
std::vector<std::string> adopted_ids(const AnswerLines& ls) {
  std::vector<std::string> out;
  for (std::size_t i = ls.size(); i-- > 0;) {
    auto at = after_adopted_key(ls[i]);
    if (!at) continue;
    std::string_view v = std::string_view(ls[i]).substr(*at);
    if (auto open = v.find('['); open != std::string_view::npos) {
      v = v.substr(open + 1);
      v = v.substr(0, v.find(']'));
    }
    std::size_t pos = 0;
    while (pos <= v.size() && out.size() < kAnswerMaxIds) {
      std::size_t comma = v.find(',', pos);
      if (comma == std::string_view::npos) comma = v.size();
      std::string_view id = v.substr(pos, comma - pos);
      const std::size_t b = skip(id, 0, " \t`*\"'");
      std::size_t e = id.size();
      while (e > b && std::string_view(" \t`*\"'.").find(id[e - 1]) != std::string_view::npos) --e;
      id = id.substr(b, e - b);
      if (valid_id(id) && std::find(out.begin(), out.end(), id) == out.end()) out.emplace_back(id);
      pos = comma + 1;
    }
    break;
  }
  return out;
}

}  // namespace

Answer read_answer(const std::string& raw) {
  Answer a;
  const AnswerLines ls = lines_of(without_think(std::string_view(raw).substr(0, kAnswerMaxText)));
  std::vector<bool> inside(ls.size(), false);
  const auto blocks = blocks_of(ls, 0, &inside);
  for (auto b = blocks.rbegin(); b != blocks.rend() && a.impl.empty(); ++b) {
    a.impl = impl_in(ls, *b);
    a.unterminated = !b->closed;
  }
  for (std::size_t i = 0; i < ls.size() && a.impl.empty(); ++i)
    if (!inside[i] && is_impl_key(ls[i])) a.impl = impl_value(ls, i, ls.size(), false), a.unterminated = false;
  for (auto b = blocks.rbegin(); b != blocks.rend() && a.impl.empty(); ++b) {
    if (!std::any_of(ls.begin() + b->begin, ls.begin() + b->end, [](const auto& l) { return is_statement(l); }))
      continue;
    a.impl = dedent(ls, b->begin, b->end);
    a.unterminated = !b->closed;
  }
  if (a.impl.empty()) a.unterminated = false;
  a.adopted = adopted_ids(ls);
  return a;
}

llm::ChatRequest round_request(const Opt2Task& t, const std::string& impl, const Judgement& perf,
                               const std::vector<const BankRule*>& rules, const std::string& card) {
  // round_prompt with no card: "## Operator card" (empty), the sections of the round, "## Answer format" last.
  const std::string full = round_prompt(t, impl, perf, rules, "");
  const std::size_t task_at = full.find("## Task\n");
  const std::size_t format_at = full.rfind("\n## Answer format\n");
  std::string user = full, format;
  if (task_at != std::string::npos && format_at != std::string::npos && task_at < format_at) {
    user = full.substr(task_at, format_at + 1 - task_at);
    format = full.substr(format_at + 1);
  }
  std::string system = std::string(kRoleStatement) + "\n\n## Operator card\n\n" + card;
  if (!system.ends_with('\n')) system += '\n';
  if (!format.empty()) system += "\n" + format;
  llm::ChatRequest r;
  r.messages = {{"system", system}, {"user", user}};
  r.cache_prefix_hint = system;  // the same in every round of a campaign
  return r;
}

std::optional<std::string> read_operator_card(const std::string& resource_dir, std::string& error) {
  const std::string path = resource_dir + "/step2_operator_card.md";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot read the STeP-25 operator card";
    return std::nullopt;
  }
  std::string text(kCardMaxBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kCardMaxBytes) {
    error = path + ": the operator card is larger than 64 KiB";
    return std::nullopt;
  }
  return text;
}

std::optional<llm::ChatResult> opt2_chat(const llm::ChatRequest& request, const step::TaskDoc& task) {
  std::string text;
  for (const auto& m : request.messages)
    if (m.role == "user" && text.size() < kAnswerMaxText) text += m.content.substr(0, kAnswerMaxText - text.size()) + "\n";
  auto ls = lines_of(text);
  std::optional<std::size_t> program;
  std::vector<std::string> busiest;
  std::string perf;
  std::vector<Rule> rules;
  std::string section;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::string& l = ls[i];
    if (l.rfind("## ", 0) == 0) {
      section = l.substr(3);
      if (section == "Program to improve") program = i;
      continue;
    }
    if (section == "Performance" && l.rfind("  ", 0) == 0 && l.find(" (") != std::string::npos &&
        l.rfind("  violation", 0) != 0 && busiest.size() < 3) {
      busiest.push_back(l.substr(2, l.find(" (") - 2));
      perf += l + "\n";  // the node's line with its limit, for the proposer (read_perf)
    } else if (section == "Retrieved experiences" && l.rfind("- [", 0) == 0 && rules.size() < kAnswerMaxIds) {
      auto close = l.find(']');
      auto mv = l.find("(move: `");
      if (close == std::string::npos || mv == std::string::npos) continue;
      auto end = l.find('`', mv + 8);
      if (end == std::string::npos) continue;
      if (auto r = parse_rule_move(l.substr(mv + 8, end - mv - 8), l.substr(3, close - 3))) rules.push_back(*r);
    }
  }
  if (!program) return std::nullopt;
  const auto blocks = blocks_of(ls, *program, nullptr);
  const std::string impl = blocks.empty() ? std::string() : impl_in(ls, blocks.front());
  ProposeOptions po;
  po.seed = request.seed.value_or(0) * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(request.sample_index) + 1;
  po.perf_text = perf;
  auto p = propose(task, impl, busiest, rules, po);
  llm::ChatResponse resp;
  if (!p.ok) {
    resp.text = "No rewrite: " + p.error + ".\n";
    resp.finish_reason = llm::kFinishNoProgram;
    return llm::ChatResult::success(std::move(resp));
  }
  for (const auto& m : p.moves) resp.text += "- " + m.what + (m.rule_id.empty() ? "" : " (from " + m.rule_id + ")") + "\n";
  resp.text += "\n```yaml\nimpl: |\n";
  for (const auto& l : lines_of(p.impl))
    if (!l.empty()) resp.text += "  " + l + "\n";
  resp.text += "```\nadopted: [";
  for (std::size_t i = 0; i < p.adopted.size(); ++i) resp.text += (i ? ", " : "") + p.adopted[i];
  resp.text += "]\n";
  resp.finish_reason = "stop";
  return llm::ChatResult::success(std::move(resp));
}

}  // namespace sf::synth::opt2
