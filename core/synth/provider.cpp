#include "core/synth/provider.hpp"

#include <memory>
#include <string_view>

#include "core/common/hash.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/step/parser.hpp"
#include "core/step/printer.hpp"
#include "core/step/task.hpp"
#include "core/synth/offline_roles.hpp"
#include "core/synth/opt2_answer.hpp"
#include "core/verify/verifier.hpp"

namespace sf::synth {

namespace {

constexpr std::size_t kMaxDemos = 64;
constexpr std::size_t kMaxTried = 64;

// The contents of the first fenced block (any info string; fences at column 0), "" when none.
std::string first_block(const std::string& text) {
  std::size_t pos = 0;
  std::string out;
  bool in = false;
  while (pos < text.size()) {
    std::size_t e = text.find('\n', pos);
    if (e == std::string::npos) e = text.size();
    std::string_view line(text.data() + pos, e - pos);
    if (line.starts_with("```")) {
      if (in) return out;
      in = true;
    } else if (in) {
      out.append(line).push_back('\n');
    }
    pos = e + 1;
  }
  return {};  // unterminated
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Sections of a prompt: "## Title" lines at column 0 start a section; text before the first is dropped.
std::vector<std::pair<std::string, std::string>> sections(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t pos = 0;
  bool in_fence = false;
  while (pos < text.size()) {
    std::size_t e = text.find('\n', pos);
    if (e == std::string::npos) e = text.size();
    std::string_view line(text.data() + pos, e - pos);
    if (line.starts_with("```")) in_fence = !in_fence;
    if (!in_fence && line.starts_with("## ")) {
      out.emplace_back(std::string(trim(line.substr(3))), std::string());
    } else if (!out.empty()) {
      out.back().second.append(line).push_back('\n');
    }
    pos = e + 1;
  }
  return out;
}

// The contents of every fenced block whose opening line starts with `open` ("```yaml", or "```" for any;
// fences at column 0).
std::vector<std::string> fenced_blocks(const std::string& text, std::string_view open) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  std::string* cur = nullptr;
  while (pos < text.size()) {
    std::size_t e = text.find('\n', pos);
    if (e == std::string::npos) e = text.size();
    std::string_view line(text.data() + pos, e - pos);
    if (cur == nullptr && line.starts_with(open)) {
      out.emplace_back();
      cur = &out.back();
    } else if (cur != nullptr && line.starts_with("```")) {
      cur = nullptr;
    } else if (cur != nullptr) {
      cur->append(line).push_back('\n');
    }
    pos = e + 1;
  }
  if (cur != nullptr) out.pop_back();  // unterminated fence: not a block
  return out;
}

std::vector<std::string> yaml_blocks(const std::string& text) { return fenced_blocks(text, "```yaml"); }

// The pattern of a line with `pattern:` ("A>B>C", backquotes dropped, up to the first blank), or "".
// A slow->fast rewrite "A>B => C" may have blanks around its "=>" (they are dropped).
std::string pattern_in(std::string_view line) {
  std::size_t k = line.find("pattern:");
  if (k == std::string_view::npos) return {};
  std::string r(trim(line.substr(k + 8)));
  for (std::size_t p; (p = r.find(" =>")) != std::string::npos;) r.erase(p, 1);
  for (std::size_t p; (p = r.find("=> ")) != std::string::npos;) r.erase(p + 2, 1);
  std::string_view rest = r;
  while (!rest.empty() && rest.front() == '`') rest.remove_prefix(1);
  std::size_t e = rest.find_first_of(" `),;\t");
  return std::string(rest.substr(0, e));
}

// Every `pattern:` of the resident rules (their text or an extra line) with the id of the rule it belongs
// to (the `- [id] text` line it is in or follows; "" before the first). Rules are reported in `rules_used`.
void rule_patterns(const std::string& text, std::vector<std::string>& patterns, std::vector<std::string>& ids) {
  std::size_t pos = 0;
  std::string cur;
  while (pos < text.size()) {
    std::size_t e = text.find('\n', pos);
    if (e == std::string::npos) e = text.size();
    std::string_view line(text.data() + pos, e - pos);
    if (line.starts_with("- [")) {
      std::size_t close = line.find(']');
      cur = close == std::string_view::npos ? std::string() : std::string(trim(line.substr(3, close - 3)));
    }
    std::string p = pattern_in(line);
    if (!p.empty() && patterns.size() < 64) {
      patterns.push_back(std::move(p));
      ids.push_back(cur);
    }
    pos = e + 1;
  }
}

std::vector<MemoryPattern> experiences(const std::string& text) {
  std::vector<MemoryPattern> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t e = text.find('\n', pos);
    if (e == std::string::npos) e = text.size();
    std::string_view line(text.data() + pos, e - pos);
    if (line.starts_with("- id:")) {
      out.push_back({std::string(trim(line.substr(5))), ""});
    } else if (!out.empty() && line.starts_with("  pattern:")) {
      out.back().pattern = pattern_in(line);
    }
    pos = e + 1;
  }
  return out;
}

}  // namespace

PromptContents parse_prompt(const std::vector<llm::ChatMessage>& messages) {
  PromptContents pc;
  for (const auto& m : messages) {
    if (m.role != "user") continue;
    for (const auto& [title, body] : sections(m.content)) {
      // Performance objective: the prompt states the reference cycles or asks for a faster program.
      if ((title == "Task" && body.find("The reference solution takes") != std::string::npos) ||
          (title == "Previous attempt" &&
           body.find("Your previous program is correct. Make it faster") != std::string::npos))
        pc.performance = true;
      if (title == "Task") {
        auto b = yaml_blocks(body);
        if (!b.empty()) pc.task_text = b.front();
      } else if (title == "Demonstrations") {
        for (auto& b : yaml_blocks(body)) pc.demo_texts.push_back(std::move(b));
      } else if (title == "Retrieved experiences") {
        pc.memory = experiences(body);
      } else if (title == "Resident rules") {
        rule_patterns(body, pc.rule_patterns, pc.rule_ids);
      } else if (title == "Already tried") {
        for (auto& b : fenced_blocks(body, "```")) {
          if (pc.tried.size() >= kMaxTried) break;  // bounded work on a hostile prompt
          pc.tried.push_back(std::move(b));
        }
      } else if (title == "Previous attempt" &&
                 body.find("Your previous program is correct. Make it faster") != std::string::npos) {
        pc.previous_impl = first_block(body);  // the program; the Performance block follows it
      }
    }
  }
  return pc;
}

SynthOptions options_for(const llm::ChatRequest& request) {
  SynthOptions o;
  o.temperature = request.temperature > 0 ? request.temperature : 0.0;
  o.seed = splitmix64(request.seed.value_or(0) ^ splitmix64(static_cast<std::uint64_t>(request.sample_index)));
  // Deterministic: the evaluation budget is the only limit; the wall clock is a safety net that turns the
  // answer into a `timeout` error (never a silently different program).
  o.time_limit_s = 0;
  o.wall_limit_s = kWallSafetyNetS;
  return o;
}

llm::ChatResult synth_chat(const llm::ChatRequest& request, const llm::CancelToken& cancel) {
  if (cancel.cancelled()) return llm::ChatResult::failure("cancelled", "request cancelled");
  if (auto role_answer = offline_role_chat(request)) return *role_answer;  // distiller / abstractor (offline_roles)
  PromptContents pc = parse_prompt(request.messages);
  if (pc.task_text.empty()) {
    return llm::ChatResult::failure("provider",
                                    "synth: the prompt has no `## Task` section with a ```yaml block");
  }
  Diagnostics ds;
  auto task = step::load_task_text(pc.task_text, "task", ds);
  if (!task) {
    std::string msg = "synth: the task document of the prompt does not load";
    if (!ds.empty()) msg += ": " + ds.front().message;
    return llm::ChatResult::failure("provider", msg);
  }
  // A STeP-25 optimisation round: the fallible optimiser answers (opt2_answer.hpp), unverified.
  if (task->is_v2())
    if (auto answer = opt2::opt2_chat(request, *task)) return *answer;
  std::vector<std::unique_ptr<step::TaskDoc>> demo_tasks;
  std::vector<Demonstration> demos;
  for (const auto& text : pc.demo_texts) {
    if (demos.size() >= kMaxDemos) break;  // bounded work on a hostile prompt
    Diagnostics dd;
    auto d = step::load_task_text(text, "demonstration", dd);
    if (!d || !d->impl) continue;  // an unreadable demonstration is ignored, like a confusing example
    demo_tasks.push_back(std::make_unique<step::TaskDoc>(std::move(*d)));
    demos.push_back({demo_tasks.back().get(), *demo_tasks.back()->impl});
  }
  Guidance g = mine_guidance(demos, pc.memory, &*task);  // the most relevant demonstrations
  g.rule_patterns = pc.rule_patterns;
  g.rule_ids = pc.rule_ids;
  auto progress = [&](std::string line, std::string text = {}, bool done = false) {
    if (!request.on_delta) return;
    llm::StreamDelta d;
    d.progress = std::move(line);
    d.text = std::move(text);
    d.output_tokens = static_cast<std::int64_t>((d.text.size() + 3) / 4);
    d.done = done;
    request.on_delta(d);
  };
  progress("synth: searching programs for " + task->id + " (" + std::to_string(demos.size()) + " demonstrations, " +
           std::to_string(pc.memory.size() + pc.rule_patterns.size()) + " memory patterns" +
           (pc.previous_impl.empty() ? std::string() : ", from the previous program") + ")");
  verify::Verifier verifier;
  Synthesizer syn(verifier);
  SynthOptions so = options_for(request);
  so.previous_impl = pc.previous_impl;  // an optimisation round starts from the correct program
  so.optimise = pc.performance;         // correctness: stop at the first verified program
  for (const auto& text : pc.tried) {     // `## Already tried` (config novelty): never answered again
    Diagnostics td;
    if (auto prog = step::parse_impl(text, {}, td)) so.avoid_keys.push_back(step::canonical_key(*prog, &task->sizes));
  }
  SynthResult r = syn.run(*task, g, so);
  if (cancel.cancelled()) return llm::ChatResult::failure("cancelled", "request cancelled");
  if (r.timed_out)
    return llm::ChatResult::failure(
        "timeout", "synth: the wall-clock safety net (" + std::to_string(static_cast<int>(kWallSafetyNetS)) +
                       " s) ended the search after " + std::to_string(r.stats.candidates) +
                       " candidate evaluations (the result would depend on the machine's load)");
  llm::ChatResponse resp;
  if (r.found) {
    resp.text = r.response;
  } else {
    resp.text = "The built-in synthesizer found no program within its budget (" +
                std::to_string(r.stats.candidates) + " candidates, depth " + std::to_string(r.stats.depth) +
                ").\n";
    if (!r.adoption.empty()) {
      resp.text += "\n```yaml\nadoption:\n";
      for (const auto& a : r.adoption)
        resp.text += "  - {id: " + a.id + ", adopted: no, rationale: \"no program\"}\n";
      resp.text += "```\n";
    }
  }
  resp.finish_reason = r.found ? "stop" : llm::kFinishNoProgram;
  resp.latency_s = r.stats.seconds;
  progress(std::string(r.found ? "synth: found a program" : "synth: no program") + " after " +
               std::to_string(r.stats.candidates) + " candidate evaluations (depth " + std::to_string(r.stats.depth) +
               ", " + std::to_string(r.stats.verified) + " verified, " + std::to_string(r.stats.seconds) + " s)",
           resp.text, true);
  return llm::ChatResult::success(std::move(resp));
}

void register_builtin_provider() {
  llm::register_builtin_provider(kProviderName, synth_chat);
}

}  // namespace sf::synth
