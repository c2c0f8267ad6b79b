#include "core/agent/prompt_builder.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace sf::agent {

namespace {

std::optional<std::string> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string trim_right(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

// The numbered list of index.md: lines "<digits>. `file.md` ..." in order.
std::vector<std::string> index_files(const std::string& index) {
  std::vector<std::string> files;
  std::istringstream ss(index);
  std::string line;
  while (std::getline(ss, line)) {
    std::size_t i = 0;
    while (i < line.size() && line[i] == ' ') ++i;
    std::size_t d = i;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
    if (i == d || i + 1 >= line.size() || line[i] != '.') continue;
    auto a = line.find('`', i);
    if (a == std::string::npos) continue;
    auto b = line.find('`', a + 1);
    if (b == std::string::npos) continue;
    std::string name = line.substr(a + 1, b - a - 1);
    if (name.empty() || name.find('/') != std::string::npos || name.find("..") != std::string::npos) continue;
    files.push_back(name);
  }
  return files;
}

void section(std::string& out, const std::string& title) {
  if (!out.empty()) out += "\n";
  out += "## " + title + "\n\n";
}

std::string demo_text(const Demonstration& d, int k) {
  std::string s = "### Demonstration " + std::to_string(k) + ": " + d.task_id + "\n\n```yaml\n";
  s += trim_right(d.task_text) + "\n";
  s += "impl: |\n" + indent_lines(trim_right(d.impl), 2) + "\n```\n";
  return s;
}

std::string answer_format(const PromptInput& in) {
  std::string s =
      "Answer with exactly one fenced YAML block (```yaml) holding the program as `impl: |` (a literal block, "
      "indented by two spaces, ending with a `return` statement). Write only the impl: the task's inputs, "
      "parameters, fns and sizes are given; do not restate them.\n";
  if (!in.experiences.empty()) {
    s += "Experiences were retrieved for you, so add an `adoption:` list to the same block with exactly one entry "
         "per retrieved experience id (";
    for (std::size_t i = 0; i < in.experiences.size(); ++i) s += (i ? ", " : "") + in.experiences[i].id;
    s += "): `adopted: yes` if it shaped your program, `no` otherwise, and a one-line rationale.\n";
  }
  if (!in.rules.empty())
    s += "Resident rules are in context, so add a `rules_used:` list to the same block with the ids of the resident "
         "rules your program follows (`rules_used: []` when it follows none).\n";
  s += "\n```yaml\nimpl: |\n  E1 = step.Map(fn=fn_name).apply(E0)\n  return E1\n";
  if (!in.experiences.empty()) {
    s += "adoption:\n";
    for (std::size_t i = 0; i < in.experiences.size() && i < 2; ++i)
      s += "  - {id: " + in.experiences[i].id + ", adopted: " + (i == 0 ? "yes" : "no") + ", rationale: \"...\"}\n";
  }
  if (!in.rules.empty()) s += "rules_used: [" + in.rules.front().id + "]\n";
  s += "```\n";
  return s;
}

// The demonstrations section: the static start of the user message ("" without demonstrations).
std::string demos_section(const PromptInput& in, std::size_t demos_used) {
  std::string out;
  if (!in.demos.empty()) {
    section(out, "Demonstrations");
    out += "Verified solutions of other tasks.\n";
    if (demos_used < in.demos.size()) {
      out += "(" + std::to_string(in.demos.size() - demos_used) + " of " + std::to_string(in.demos.size()) +
             " demonstrations were omitted to fit the token budget.)\n";
    }
    for (std::size_t i = 0; i < demos_used; ++i) out += "\n" + demo_text(in.demos[i], static_cast<int>(i + 1));
  }
  return out;
}

std::string user_text(const PromptInput& in, std::size_t demos_used) {
  std::string out = demos_section(in, demos_used);
  if (!in.rules.empty()) {
    section(out, "Resident rules");
    for (const auto& r : in.rules) {
      out += "- [" + r.id + "] " + trim_right(r.text) + "\n";
      if (!r.example.empty()) out += "  Example:\n  ```\n" + indent_lines(trim_right(r.example), 2) + "\n  ```\n";
    }
  }
  if (!in.experiences.empty()) {
    section(out, "Retrieved experiences");
    out += "Each has an id; state in `adoption:` whether you adopted it.\n\n";
    for (const auto& e : in.experiences) {
      out += "- id: " + e.id + "\n  rule: " + trim_right(e.rule) + "\n";
      if (!e.evidence.empty()) out += "  evidence: " + trim_right(e.evidence) + "\n";
      if (!e.pattern.empty()) out += "  pattern: " + trim_right(e.pattern) + "\n";
      if (!e.code_example.empty())
        out += "  example:\n  ```\n" + indent_lines(trim_right(e.code_example), 2) + "\n  ```\n";
    }
  }
  section(out, "Task");
  out += "Write the `impl` for this task document.\n\n```yaml\n" + trim_right(in.task_text) + "\n```\n";
  if (in.baseline_cycles)
    out += "\nThe reference solution takes " + std::to_string(*in.baseline_cycles) +
           " cycles under the cost model (at the task's perf_sizes); fewer is faster.\n";
  if (in.previous_attempt && in.performance_feedback) {
    section(out, "Previous attempt");
    out += "Your previous program is correct. Make it faster under the cost model without changing what it "
           "computes.\n\n```\n" +
           trim_right(*in.previous_attempt) + "\n```\n\nPerformance:\n\n```\n" +
           trim_right(*in.performance_feedback) + "\n```\n";
  } else if (in.previous_attempt) {
    section(out, "Previous attempt");
    out += "Your previous program failed verification. Fix it.\n\n```\n" + trim_right(*in.previous_attempt) +
           "\n```\n";
    if (in.previous_diagnostics && !in.previous_diagnostics->empty())
      out += "\nVerifier diagnostics (line:column in the program above):\n\n```\n" +
             trim_right(*in.previous_diagnostics) + "\n```\n";
  }
  if (!in.already_tried.empty()) {
    section(out, "Already tried");
    out += "These programs were already tried for this task and failed verification. Do not answer any of them "
           "again: write something different.\n";
    for (const auto& p : in.already_tried) out += "\n```\n" + trim_right(p) + "\n```\n";
  }
  if (in.instruction && !trim_right(*in.instruction).empty()) {
    section(out, "Instruction");
    out += "The user working on this program asks:\n\n" + trim_right(*in.instruction) + "\n";
  }
  section(out, "Answer format");
  out += answer_format(in);
  return out;
}

}  // namespace

std::string indent_lines(const std::string& text, int n) {
  std::string pad(static_cast<std::size_t>(n), ' ');
  std::string out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    if (!line.empty()) out += pad + line;
    if (nl == std::string::npos) break;
    out += "\n";
    pos = nl + 1;
  }
  return out;
}

std::optional<std::string> load_manual(const std::string& resource_dir, ManualMode mode, std::string& error,
                                       std::int64_t auto_budget_tokens) {
  std::filesystem::path dir = std::filesystem::path(resource_dir) / "manual";
  auto cheatsheet = [&]() -> std::optional<std::string> {
    auto t = read_file(dir / "cheatsheet.md");
    if (!t) error = "cannot read " + (dir / "cheatsheet.md").string();
    return t ? std::optional<std::string>(trim_right(*t) + "\n") : std::nullopt;
  };
  if (mode == ManualMode::Cheatsheet) return cheatsheet();
  auto index = read_file(dir / "index.md");
  if (!index) {
    error = "cannot read " + (dir / "index.md").string();
    return std::nullopt;
  }
  auto files = index_files(*index);
  if (files.empty()) {
    error = (dir / "index.md").string() + " lists no manual files";
    return std::nullopt;
  }
  std::string all;
  for (const auto& f : files) {
    auto t = read_file(dir / f);
    if (!t) {
      error = "cannot read " + (dir / f).string() + " (listed in index.md)";
      return std::nullopt;
    }
    if (!all.empty()) all += "\n";
    all += trim_right(*t) + "\n";
  }
  if (mode == ManualMode::Auto && estimate_tokens(all.size()) > auto_budget_tokens) return cheatsheet();
  return all;
}

std::string system_prompt(const std::string& manual_text) {
  return "You are the proposer of StepForge: you write STeP (Streaming Tensor Programs) implementations of "
         "operators. A verifier parses, type-checks and affine-checks your program, simulates it and compares it "
         "with the reference. The STeP manual follows.\n\n" +
         trim_right(manual_text) + "\n";
}

BuiltPrompt build_prompt(const PromptInput& in, const PromptOptions& opt) {
  BuiltPrompt p;
  std::string sys = system_prompt(in.manual_text);
  std::size_t used = in.demos.size();
  std::string user = user_text(in, used);
  if (opt.max_prompt_tokens > 0) {
    while (estimate_tokens(sys.size() + user.size()) > opt.max_prompt_tokens && used > 0) {
      --used;
      user = user_text(in, used);
    }
    p.over_budget = estimate_tokens(sys.size() + user.size()) > opt.max_prompt_tokens;
  }
  p.demos_used = static_cast<int>(used);
  p.demos_omitted = static_cast<int>(in.demos.size() - used);
  p.estimated_tokens = estimate_tokens(sys.size() + user.size());
  p.cache_prefix = sys;
  p.cache_user_prefix = demos_section(in, used);
  p.messages = {{"system", std::move(sys)}, {"user", std::move(user)}};
  return p;
}

}  // namespace sf::agent
