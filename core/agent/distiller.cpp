#include "core/agent/distiller.hpp"

#include "core/common/sha256.hpp"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdio>
#include <map>

namespace sf::agent {

namespace {

constexpr int kMaxDepth = 32;

// The last fenced block's body, else the whole text.
std::string answer_body(const std::string& text) {
  std::size_t close = text.rfind("```");
  if (close == std::string::npos) return text;
  std::size_t open = text.rfind("```", close == 0 ? 0 : close - 1);
  if (open == std::string::npos || open == close) return text;
  std::size_t body = text.find('\n', open);
  if (body == std::string::npos || body >= close) return text;
  return text.substr(body + 1, close - body - 1);
}

bool too_deep(const std::string& s) {
  int depth = 0;
  for (char c : s) {
    if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

std::optional<YAML::Node> load_yaml(const std::string& body, const std::string& code, Diagnostics& diags) {
  if (too_deep(body)) {
    diags.push_back(make_error(code, "the answer is nested too deeply", {1, 1}));
    return std::nullopt;
  }
  try {
    return YAML::Load(body);
  } catch (const YAML::Exception& e) {
    diags.push_back(make_error(code, "the answer is not YAML: " + e.msg,
                               {e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0}));
  } catch (const std::exception& e) {
    diags.push_back(make_error(code, std::string("the answer is not YAML: ") + e.what(), {1, 1}));
  }
  return std::nullopt;
}

// A scalar field as text (a sequence of scalars is joined by newlines); "" when absent or not text.
std::string field(const YAML::Node& m, std::initializer_list<const char*> keys, std::size_t max_chars) {
  for (const char* k : keys) {
    YAML::Node v = m[k];
    if (!v) continue;
    std::string s;
    if (v.IsScalar()) s = v.Scalar();
    else if (v.IsSequence())
      for (const auto& x : v)
        if (x.IsScalar()) s += (s.empty() ? "" : "\n") + x.Scalar();
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    if (s.size() > max_chars) s.resize(max_chars);
    if (!s.empty()) return s;
  }
  return "";
}

}  // namespace

DistillResult parse_distill_answer(const std::string& text, const std::string& task_id, const DistillLimits& lim) {
  DistillResult r;
  if (text.size() > lim.max_answer_bytes) {
    r.diagnostics.push_back(make_error("P-DISTILL",
                                       "the answer has " + std::to_string(text.size()) + " bytes; the limit is " +
                                           std::to_string(lim.max_answer_bytes),
                                       {1, 1}));
    return r;
  }
  auto doc = load_yaml(answer_body(text), "P-DISTILL", r.diagnostics);
  if (!doc) return r;
  YAML::Node list;
  try {
    if (doc->IsSequence()) list = *doc;
    else if (doc->IsMap() && doc->operator[]("experiences") && doc->operator[]("experiences").IsSequence())
      list = doc->operator[]("experiences");
    else if (doc->IsMap() && doc->operator[]("rule"))
      list.push_back(*doc);
  } catch (const std::exception&) {
  }
  if (!list || !list.IsSequence()) {
    r.diagnostics.push_back(make_error("P-DISTILL", "the answer has no experiences: list", {1, 1}));
    return r;
  }
  std::size_t k = 0;
  for (const auto& item : list) {
    ++k;
    if (!item.IsMap()) {
      r.diagnostics.push_back(make_error("P-DISTILL", "experience " + std::to_string(k) + " is not a mapping",
                                         {item.Mark().line + 1, item.Mark().column + 1}));
      continue;
    }
    Experience e;
    e.rule = field(item, {"rule", "text"}, lim.max_field_chars);
    if (e.rule.empty()) {
      r.diagnostics.push_back(make_error("P-DISTILL", "experience " + std::to_string(k) + " has no rule",
                                         {item.Mark().line + 1, item.Mark().column + 1}));
      continue;
    }
    e.evidence = field(item, {"evidence"}, lim.max_field_chars);
    e.code_example = field(item, {"example", "code_example", "code"}, lim.max_field_chars);
    e.id = "exp-" + sha256_hex(task_id + "\n" + e.rule).substr(0, 10);
    if (r.experiences.size() >= lim.max_items) {
      r.diagnostics.push_back(make_warning("P-DISTILL", "more than " + std::to_string(lim.max_items) +
                                                            " experiences; the rest are ignored"));
      break;
    }
    r.experiences.push_back(std::move(e));
  }
  return r;
}

AbstractResult parse_abstract_answer(const std::string& text, const std::string& experience_id,
                                     const DistillLimits& lim) {
  AbstractResult r;
  if (text.size() > lim.max_answer_bytes) {
    r.diagnostics.push_back(make_error("P-ABSTRACT",
                                       "the answer has " + std::to_string(text.size()) + " bytes; the limit is " +
                                           std::to_string(lim.max_answer_bytes),
                                       {1, 1}));
    return r;
  }
  auto doc = load_yaml(answer_body(text), "P-ABSTRACT", r.diagnostics);
  if (!doc) return r;
  if (!doc->IsMap()) {
    r.diagnostics.push_back(make_error("P-ABSTRACT", "the answer is not a mapping with a rule", {1, 1}));
    return r;
  }
  ResidentRule rule;
  rule.text = field(*doc, {"rule", "text"}, lim.max_field_chars);
  if (rule.text.empty()) {
    r.diagnostics.push_back(make_error("P-ABSTRACT", "the answer has no rule", {1, 1}));
    return r;
  }
  rule.example = field(*doc, {"example", "code_example", "code"}, lim.max_field_chars);
  rule.id = "rule-" + experience_id;
  r.rule = std::move(rule);
  return r;
}

namespace {

// The step primitives a program calls (`step.Name(`), in order of appearance.
std::vector<std::string> primitives(const std::string& impl) {
  std::vector<std::string> out;
  for (std::size_t p = impl.find("step."); p != std::string::npos; p = impl.find("step.", p + 5)) {
    std::size_t b = p + 5, e = b;
    while (e < impl.size() && (std::isalnum(static_cast<unsigned char>(impl[e])) || impl[e] == '_')) ++e;
    if (e > b && e < impl.size() && impl[e] == '(') out.push_back(impl.substr(b, e - b));
  }
  return out;
}

std::string counted(const std::vector<std::string>& names) {
  std::map<std::string, int> n;
  std::vector<std::string> order;
  for (const auto& x : names)
    if (n[x]++ == 0) order.push_back(x);
  std::string s;
  for (const auto& x : order) s += (s.empty() ? "" : ", ") + x + (n[x] > 1 ? " x" + std::to_string(n[x]) : "");
  return s.empty() ? "none" : s;
}

std::vector<std::string> trimmed_lines(const std::string& s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b < s.size()) {
    std::size_t e = s.find('\n', b);
    if (e == std::string::npos) e = s.size();
    std::string l = s.substr(b, e - b);
    while (!l.empty() && (l.back() == ' ' || l.back() == '\r')) l.pop_back();
    std::size_t f = l.find_first_not_of(' ');
    if (f != std::string::npos) out.push_back(l.substr(f));
    b = e + 1;
  }
  return out;
}

}  // namespace

std::optional<Experience> speedup_experience(const Episode& ep, const DistillLimits& lim) {
  const EpisodeAttempt* slow = nullptr;
  const EpisodeAttempt* fast = nullptr;
  for (const auto& a : ep.attempts) {
    if (!a.pass || !a.feasible || !a.cycles || a.impl.empty()) continue;
    if (!slow) slow = &a;
    if (!fast || *a.cycles < *fast->cycles) fast = &a;
  }
  if (!slow || !fast || *fast->cycles >= *slow->cycles) return std::nullopt;
  // What changed: the primitives, and the lines only one of the two programs has (multiset difference).
  const auto pb = primitives(slow->impl), pa = primitives(fast->impl);
  std::map<std::string, int> diff;
  for (const auto& l : trimmed_lines(slow->impl)) --diff[l];
  for (const auto& l : trimmed_lines(fast->impl)) ++diff[l];
  int removed = 0, added = 0;
  for (const auto& [l, d] : diff) (d < 0 ? removed : added) += d < 0 ? -d : d;
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.2f", static_cast<double>(*slow->cycles) / static_cast<double>(*fast->cycles));
  Experience x;
  x.rule = "A faster program for " + ep.task_id + ": " + std::to_string(*slow->cycles) + " -> " +
           std::to_string(*fast->cycles) + " cycles (" + ratio + "x) by changing the primitives from [" +
           counted(pb) + "] to [" + counted(pa) + "] (" + std::to_string(removed) + " lines removed, " +
           std::to_string(added) + " added).";
  x.evidence = "before (" + std::to_string(*slow->cycles) + " cycles):\n" + slow->impl + "\nafter (" +
               std::to_string(*fast->cycles) + " cycles):\n" + fast->impl;
  if (x.evidence.size() > lim.max_field_chars) x.evidence.resize(lim.max_field_chars);
  x.code_example = fast->impl.size() > lim.max_field_chars ? fast->impl.substr(0, lim.max_field_chars) : fast->impl;
  x.id = "exp-" + sha256_hex(ep.task_id + "\n" + x.rule).substr(0, 10);
  return x;
}

std::vector<llm::ChatMessage> Distiller::prompt(const Episode& ep, const DistillLimits& lim) {
  std::string sys =
      "You are the distiller of StepForge. From a finished episode of writing a STeP program, extract at most "
      "three reusable experiences: general rules about STeP (primitives, shapes, affine use, fns) that would "
      "have avoided the failures or that made the final program work. Do not restate the task or its solution.";
  std::string user = "## Task " + ep.task_id + "\n\n```yaml\n" + ep.task_text + "\n```\n\n## Attempts\n";
  std::size_t first = ep.attempts.size() > lim.max_attempts_shown ? ep.attempts.size() - lim.max_attempts_shown : 0;
  for (std::size_t i = first; i < ep.attempts.size(); ++i) {
    const auto& a = ep.attempts[i];
    user += "\n### Attempt " + std::to_string(i + 1) + (a.pass ? " (verified)" : " (failed)") + "\n\n```\n" +
            a.impl + "\n```\n";
    if (!a.diagnostics.empty()) user += "Diagnostics:\n```\n" + a.diagnostics + "\n```\n";
  }
  if (ep.final_program) user += "\n## Final verified program\n\n```\n" + *ep.final_program + "\n```\n";
  user +=
      "\n## Answer format\n\nOne fenced YAML block:\n\n```yaml\nexperiences:\n  - rule: \"one or two sentences\"\n"
      "    evidence: \"the diagnostic or observation that supports it\"\n    example: |\n"
      "      optional minimal STeP lines\n```\n";
  return {{"system", sys}, {"user", user}};
}

DistillResult Distiller::distill(const Episode& ep) {
  TraceEvent ev;
  RoleContext ctx = ctx_;
  if (ctx.task_id.empty()) ctx.task_id = ep.task_id;
  auto r = call_role(backend_, ctx, "distiller", prompt(ep, lim_), "", 0.0, std::nullopt, 0, ev);
  DistillResult out;
  if (!r.ok()) {
    out.error = r.error.kind + ": " + r.error.message;
  } else {
    out = parse_distill_answer(r.response->text, ep.task_id, lim_);
    ev.diagnostics = out.diagnostics;
  }
  if (ctx_.sink) ctx_.sink(ev);
  return out;
}

std::vector<llm::ChatMessage> Abstractor::prompt(const Experience& e) {
  std::string sys =
      "You are the abstractor of StepForge. Turn a validated experience about STeP programming into one concise "
      "resident rule (at most two sentences) that holds across tasks, with an optional minimal code example "
      "(at most four STeP lines).";
  std::string user = "## Experience " + e.id + "\n\nrule: " + e.rule + "\n";
  if (!e.evidence.empty()) user += "evidence: " + e.evidence + "\n";
  if (!e.code_example.empty()) user += "example:\n```\n" + e.code_example + "\n```\n";
  user += "\n## Answer format\n\nOne fenced YAML block:\n\n```yaml\nrule: \"...\"\nexample: |\n  optional\n```\n";
  return {{"system", sys}, {"user", user}};
}

AbstractResult Abstractor::abstract(const Experience& e) {
  TraceEvent ev;
  auto r = call_role(backend_, ctx_, "abstractor", prompt(e), "", 0.0, std::nullopt, 0, ev);
  AbstractResult out;
  if (!r.ok()) {
    out.error = r.error.kind + ": " + r.error.message;
  } else {
    out = parse_abstract_answer(r.response->text, e.id, lim_);
    ev.diagnostics = out.diagnostics;
  }
  if (ctx_.sink) ctx_.sink(ev);
  return out;
}

}  // namespace sf::agent
