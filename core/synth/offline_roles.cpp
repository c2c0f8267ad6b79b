#include "core/synth/offline_roles.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"
#include "core/synth/guidance.hpp"
#include "core/verify/checker.hpp"

namespace sf::synth {

namespace {

constexpr std::size_t kMaxPromptBytes = 1u << 20;
constexpr std::size_t kMaxExperiences = 3;

struct Attempt {
  bool pass = false;
  std::string impl, diagnostics;
};

struct DistillPrompt {
  std::string task_id, task_text;
  std::vector<Attempt> attempts;
};

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t e = text.find('\n', pos);
    if (e == std::string_view::npos) e = text.size();
    std::string_view l = text.substr(pos, e - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    out.push_back(l);
    if (e == text.size()) break;
    pos = e + 1;
  }
  return out;
}

std::string trim_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

const std::string* user_text(const std::vector<llm::ChatMessage>& messages) {
  for (const auto& m : messages)
    if (m.role == "user") return &m.content;
  return nullptr;
}

// The distiller prompt of core/agent/distiller.cpp: `## Task <id>`, its ```yaml block, `### Attempt N
// (verified| failed)` with a fenced impl and optional `Diagnostics:` block.
DistillPrompt parse_distill_prompt(const std::string& text) {
  DistillPrompt p;
  auto ls = lines_of(text);
  enum class Want { None, TaskYaml, AttemptImpl, Diags } want = Want::None;
  std::string* block = nullptr;
  bool in_fence = false;
  for (auto l : ls) {
    if (in_fence) {
      if (l.starts_with("```")) {
        in_fence = false;
        block = nullptr;
        continue;
      }
      if (block) block->append(l).push_back('\n');
      continue;
    }
    if (l.starts_with("```")) {
      in_fence = true;
      if (want == Want::TaskYaml)
        block = &p.task_text;
      else if (want == Want::AttemptImpl && !p.attempts.empty())
        block = &p.attempts.back().impl;
      else if (want == Want::Diags && !p.attempts.empty())
        block = &p.attempts.back().diagnostics;
      else
        block = nullptr;
      want = Want::None;
      continue;
    }
    if (l.starts_with("## Task ")) {
      p.task_id = trim_spaces(l.substr(8));
      want = Want::TaskYaml;
    } else if (l.starts_with("### Attempt ")) {
      Attempt a;
      a.pass = l.find("(verified)") != std::string_view::npos;
      p.attempts.push_back(a);
      want = Want::AttemptImpl;
    } else if (l.starts_with("Diagnostics:")) {
      want = Want::Diags;
    } else if (l.starts_with("## ")) {
      want = Want::None;
    }
  }
  return p;
}

// The error codes in formatted diagnostics ("file:l:c: error: message [CODE]"), in order, without repeats.
std::vector<std::string> codes_of(const std::string& diags) {
  std::vector<std::string> out;
  for (auto l : lines_of(diags)) {
    if (l.find(": error: ") == std::string_view::npos) continue;
    auto close = l.rfind(']');
    auto open = l.rfind('[');
    if (open == std::string_view::npos || close == std::string_view::npos || close <= open + 1) continue;
    std::string c(l.substr(open + 1, close - open - 1));
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string quote(std::string_view s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q.push_back('\\');
    if (c == '\n' || c == '\r' || c == '\t') {
      q.push_back(' ');
      continue;
    }
    q.push_back(c);
  }
  q.push_back('"');
  return q;
}

std::string arrows(const std::string& pattern) {
  std::string s;
  for (char c : pattern) {
    if (c == '>')
      s += " > ";
    else
      s.push_back(c);
  }
  return s;
}

// The statements of `impl` that realise `pattern` in order (each line calls the next primitive), or "".
std::string fragment_lines(const std::string& impl, const std::string& pattern) {
  std::vector<std::string> prims;
  std::size_t pos = 0;
  while (pos <= pattern.size()) {
    auto e = pattern.find('>', pos);
    prims.push_back(pattern.substr(pos, e == std::string::npos ? std::string::npos : e - pos));
    if (e == std::string::npos) break;
    pos = e + 1;
  }
  auto ls = lines_of(impl);
  std::string out;
  std::size_t from = 0;
  for (const auto& p : prims) {
    const std::string call = "step." + p + "(";
    bool found = false;
    for (std::size_t i = from; i < ls.size(); ++i) {
      if (ls[i].find(call) != std::string_view::npos) {
        out += trim_spaces(ls[i]) + "\n";
        from = i + 1;
        found = true;
        break;
      }
    }
    if (!found) return "";
  }
  return out;
}

std::string first_sentence(std::string_view s, std::size_t max_chars) {
  std::string t = trim_spaces(s);
  auto dot = t.find(". ");
  if (dot != std::string::npos) t = t.substr(0, dot + 1);
  if (t.size() > max_chars) t = t.substr(0, max_chars);
  std::replace(t.begin(), t.end(), '\n', ' ');
  return t;
}

struct Exp {
  std::string rule, evidence, pattern, example;
};

std::string render(const std::vector<Exp>& xs) {
  std::string out = "```yaml\nexperiences:";
  if (xs.empty()) return out + " []\n```\n";
  out += "\n";
  for (const auto& x : xs) {
    out += "  - rule: " + quote(x.rule) + "\n";
    out += "    evidence: " + quote(x.evidence) + "\n";
    if (!x.pattern.empty()) out += "    pattern: " + quote(x.pattern) + "\n";
    if (!x.example.empty()) {
      out += "    example: |\n";
      for (auto l : lines_of(x.example))
        if (!l.empty()) out += "      " + std::string(l) + "\n";
    }
  }
  return out + "```\n";
}

}  // namespace

std::string offline_role(const std::vector<llm::ChatMessage>& messages) {
  for (const auto& m : messages) {
    if (m.role != "system") continue;
    if (m.content.starts_with("You are the distiller of StepForge")) return "distiller";
    if (m.content.starts_with("You are the abstractor of StepForge")) return "abstractor";
    return "";
  }
  return "";
}

std::string offline_distill_answer(const std::vector<llm::ChatMessage>& messages) {
  const std::string* text = user_text(messages);
  if (!text || text->size() > kMaxPromptBytes) return render({});
  DistillPrompt p = parse_distill_prompt(*text);
  auto win = std::find_if(p.attempts.begin(), p.attempts.end(), [](const Attempt& a) { return a.pass; });
  if (win == p.attempts.end() || win->impl.empty()) return render({});
  Diagnostics ds;
  auto task = step::load_task_text(p.task_text, "task", ds);
  if (!task) return render({});
  auto ok = verify::check_program(*task, win->impl, {});
  if (!ok.ok()) return render({});
  std::vector<std::string> patterns;
  for (const auto& f : program_chains(*ok.program, *ok.typed)) {
    std::string pat = f.pattern();
    if (std::find(patterns.begin(), patterns.end(), pat) == patterns.end()) patterns.push_back(pat);
  }
  // Longest chains first (most specific), then first occurrence.
  std::stable_sort(patterns.begin(), patterns.end(), [](const std::string& a, const std::string& b) {
    return std::count(a.begin(), a.end(), '>') > std::count(b.begin(), b.end(), '>');
  });
  const std::string about = task->title.empty() ? first_sentence(task->description, 160)
                                                : task->title + ": " + first_sentence(task->description, 160);
  std::vector<Exp> xs;
  std::set<std::string> used;
  // The fragment that turned the failing attempt before the verified one into a passing one.
  if (win != p.attempts.begin()) {
    const Attempt& failed = *(win - 1);
    auto fcheck = verify::check_program(*task, failed.impl, {});
    std::vector<std::string> codes = codes_of(failed.diagnostics);
    std::string code = codes.empty() ? "a failed verification" : codes.front();
    for (const auto& pat : patterns) {
      if (fcheck.program && pattern_occurs(*fcheck.program, pat)) continue;
      Exp x;
      x.pattern = pat;
      x.rule = "The chain " + arrows(pat) + " fixed a failing attempt (" + code + ") on task " + p.task_id +
               " (" + about + "): build that dataflow chain when the output needs it.";
      x.evidence = code;
      for (std::size_t i = 1; i < codes.size() && i < 3; ++i) x.evidence += ", " + codes[i];
      x.evidence += " in the failing attempt; verified after adding " + arrows(pat) + ".";
      x.example = fragment_lines(win->impl, pat);
      xs.push_back(std::move(x));
      used.insert(pat);
      break;
    }
  }
  // Fragments of the solved task.
  for (const auto& pat : patterns) {
    if (xs.size() >= kMaxExperiences) break;
    if (used.count(pat)) continue;
    // Skip sub-chains of a chain already kept (A>B inside A>B>C).
    bool sub = false;
    for (const auto& u : used)
      if (u.find(pat) != std::string::npos) sub = true;
    if (sub) continue;
    Exp x;
    x.pattern = pat;
    x.rule = "The dataflow chain " + arrows(pat) + " helped solve task " + p.task_id + " (" + about +
             "): consider it for operators of the same shape.";
    x.evidence = "verified program of " + p.task_id +
                 (win == p.attempts.begin() ? " at the first attempt" : " after failed attempts") + ".";
    x.example = fragment_lines(win->impl, pat);
    xs.push_back(std::move(x));
    used.insert(pat);
  }
  return render(xs);
}

std::string offline_abstract_answer(const std::vector<llm::ChatMessage>& messages) {
  const std::string* text = user_text(messages);
  std::string rule, example;
  if (text && text->size() <= kMaxPromptBytes) {
    bool in_fence = false, in_example = false;
    for (auto l : lines_of(*text)) {
      if (l.starts_with("rule: ") && rule.empty()) rule = trim_spaces(l.substr(6));
      if (l.starts_with("example:")) in_example = true;
      if (l.starts_with("```")) {
        if (in_fence) in_example = false;
        in_fence = !in_fence;
        continue;
      }
      if (in_fence && in_example && !l.empty()) example += trim_spaces(l) + "\n";
    }
  }
  std::string out = "```yaml\n";
  std::string chain;
  if (auto a = rule.find("chain "); a != std::string::npos) {
    // "chain A > B > C ...": words joined by " > ".
    std::size_t pos = a + 6;
    while (true) {
      std::size_t e = rule.find_first_of(" ,.;:()", pos);
      std::string word = rule.substr(pos, e == std::string::npos ? std::string::npos : e - pos);
      if (word.empty()) break;
      chain += (chain.empty() ? "" : " > ") + word;
      if (e == std::string::npos || rule.compare(e, 3, " > ") != 0) break;
      pos = e + 3;
    }
    if (chain.find('>') == std::string::npos) chain.clear();
  }
  std::string resident =
      !chain.empty() ? "Where an operator needs it, build " + chain +
                           " as one dataflow chain (each step "
                           "consumes the previous one's stream)."
                     : (rule.empty() ? std::string("Check the verifier's diagnostics before changing the "
                                                   "program.")
                                     : first_sentence(rule, 300));
  out += "rule: " + quote(resident) + "\n";
  if (!example.empty()) {
    out += "example: |\n";
    int n = 0;
    for (auto l : lines_of(example))
      if (!l.empty() && n++ < 4) out += "  " + std::string(l) + "\n";
  }
  return out + "```\n";
}

std::optional<llm::ChatResult> offline_role_chat(const llm::ChatRequest& request) {
  const std::string role = offline_role(request.messages);
  if (role.empty()) return std::nullopt;
  llm::ChatResponse resp;
  resp.text = role == "distiller" ? offline_distill_answer(request.messages)
                                  : offline_abstract_answer(request.messages);
  resp.finish_reason = "stop";
  return llm::ChatResult::success(std::move(resp));
}

}  // namespace sf::synth
