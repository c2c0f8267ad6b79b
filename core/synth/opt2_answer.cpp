#include "core/synth/opt2_answer.hpp"

#include "core/llm/builtin_backend.hpp"
#include "core/synth/opt2_propose.hpp"

namespace sf::synth::opt2 {

namespace {

constexpr std::size_t kMaxText = 256 * 1024;
constexpr std::size_t kMaxIds = 16;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size() && out.size() < 20000) {
    std::size_t e = text.find('\n', pos);
    if (e == std::string::npos) e = text.size();
    std::string l = text.substr(pos, e - pos);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back(std::move(l));
    pos = e + 1;
  }
  return out;
}

// The body of `impl: |` in the first ```yaml block after line `from` (indent removed).
std::string impl_block(const std::vector<std::string>& ls, std::size_t from) {
  bool in = false, body = false;
  std::string out;
  for (std::size_t i = from; i < ls.size(); ++i) {
    const std::string& l = ls[i];
    if (l.rfind("```", 0) == 0) {
      if (in) break;
      in = true;
      continue;
    }
    if (!in) continue;
    if (!body) {
      if (l.rfind("impl: |", 0) == 0) body = true;
      continue;
    }
    if (l.rfind("  ", 0) != 0 && !l.empty()) break;
    out += (l.size() >= 2 ? l.substr(2) : std::string()) + "\n";
  }
  return out;
}

}  // namespace

Answer read_answer(const std::string& raw) {
  Answer a;
  const std::string text = raw.substr(0, kMaxText);
  auto ls = lines_of(text);
  a.impl = impl_block(ls, 0);
  for (const auto& l : ls) {
    if (l.rfind("adopted:", 0) != 0) continue;
    auto open = l.find('['), close = l.find(']');
    if (open == std::string::npos || close == std::string::npos || close < open) break;
    std::string cur;
    for (std::size_t i = open + 1; i <= close && a.adopted.size() < kMaxIds; ++i) {
      char c = l[i];
      if (c == ',' || c == ']') {
        if (!cur.empty()) a.adopted.push_back(cur);
        cur.clear();
      } else if (c != ' ' && c != '"' && c != '\'' && cur.size() < 64) {
        cur.push_back(c);
      }
    }
    break;
  }
  return a;
}

std::optional<llm::ChatResult> opt2_chat(const llm::ChatRequest& request, const step::TaskDoc& task) {
  std::string text;
  for (const auto& m : request.messages)
    if (m.role == "user" && text.size() < kMaxText) text += m.content.substr(0, kMaxText - text.size()) + "\n";
  auto ls = lines_of(text);
  std::optional<std::size_t> program;
  std::vector<std::string> busiest;
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
    } else if (section == "Retrieved experiences" && l.rfind("- [", 0) == 0 && rules.size() < kMaxIds) {
      auto close = l.find(']');
      auto mv = l.find("(move: `");
      if (close == std::string::npos || mv == std::string::npos) continue;
      auto end = l.find('`', mv + 8);
      if (end == std::string::npos) continue;
      if (auto r = parse_rule_move(l.substr(mv + 8, end - mv - 8), l.substr(3, close - 3))) rules.push_back(*r);
    }
  }
  if (!program) return std::nullopt;
  std::string impl = impl_block(ls, *program);
  ProposeOptions po;
  po.seed = request.seed.value_or(0) * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(request.sample_index) + 1;
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
