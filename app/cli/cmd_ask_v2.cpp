// ask --optimise on a STeP-25 task: judge the program, one round through the backend, judge the answer.
#include "app/cli/cmd_ask_v2.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

#include "core/agent/agent_types.hpp"
#include "core/agent/proposer.hpp"
#include "core/common/speedup.hpp"
#include "core/common/text_diff.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/llm/preflight.hpp"
#include "core/step2/perf/task_perf.hpp"
#include "core/synth/opt2_answer.hpp"

namespace sf::cli {

namespace {

namespace opt2 = synth::opt2;

constexpr double kTolerance = kDefaultFastTolerance;

std::string pct(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", x);
  return buf;
}

std::string joined(const std::vector<std::string>& ids) {
  std::string s;
  for (const auto& id : ids) s += (s.empty() ? "" : ", ") + id;
  return s.empty() ? "none" : s;
}

// What a round ended with: an answer with a program, or why there is none.
struct Outcome {
  std::optional<opt2::Answer> answer;
  std::string no_answer;  // "truncated: ...", "no program: ...", "<kind>: <message>"
  bool truncated = false;
};

Outcome read_outcome(const llm::ChatResponse& resp, int max_tokens) {
  Outcome out;
  if (agent::answer_truncated(resp.finish_reason)) {
    out.truncated = true;
    out.no_answer = "truncated: " + agent::truncation_notice(max_tokens, resp.usage.output_tokens, "--max-tokens");
    return out;
  }
  auto a = opt2::read_answer(resp.text);
  if (a.impl.empty()) {
    out.no_answer = resp.finish_reason == llm::kFinishNoProgram
                        ? "no program: the builtin optimiser found no rewrite (" + resp.text.substr(0, 200) + ")"
                        : "no program: the answer contains no program (a ```yaml block with `impl: |`)";
    return out;
  }
  out.answer = std::move(a);
  return out;
}

void print_usage_line(const llm::ChatResponse& r) {
  std::cout << "  usage: " << r.usage.input_tokens << " in (" << r.usage.cached_input_tokens << " cached), "
            << r.usage.output_tokens << " out, latency " << r.latency_s << " s" << (r.from_cache ? " (cache)" : "")
            << ", finish " << (r.finish_reason.empty() ? "?" : r.finish_reason) << "\n";
}

std::string verdict_text(const opt2::Judgement& before, const opt2::Judgement& after) {
  const std::string cycles = std::to_string(before.cycles) + " -> " + std::to_string(after.cycles) + " cycles";
  switch (after.verdict) {
    case opt2::Verdict::Faster:
    case opt2::Verdict::Slower: {
      const double sp = after.cycles > 0 ? static_cast<double>(before.cycles) / static_cast<double>(after.cycles) : 0;
      return std::string(opt2::verdict_name(after.verdict)) + ", " + cycles + ", speedup " +
             speedup_text(sp, kTolerance, 2, true) + ", " + pct(before.pct_of_peak) + " -> " +
             pct(after.pct_of_peak) + " of peak";
    }
    case opt2::Verdict::Infeasible:
      return "infeasible [" + after.detail + "], " + cycles + " (the program breaks a chip limit)";
    case opt2::Verdict::Incorrect: break;
  }
  return "incorrect (" + after.detail + "), " + std::to_string(before.cycles) + " cycles before";
}

}  // namespace

std::string indented_head(const std::string& s, int n) {
  std::string out;
  int k = 0;
  std::size_t pos = 0;
  while (pos < s.size() && k < n) {
    auto nl = s.find('\n', pos);
    out += "    " + s.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
    ++k;
    if (nl == std::string::npos) return out;
    pos = nl + 1;
  }
  if (pos < s.size()) out += "    ...\n";
  return out;
}

llm::StreamCallback stream_printer(bool json) {
  if (json) {
    return [](const llm::StreamDelta& d) {
      nlohmann::json j = {{"type", "delta"}, {"text", d.text}, {"output_tokens", d.output_tokens}, {"done", d.done}};
      if (!d.reasoning.empty()) j["reasoning"] = d.reasoning;
      if (!d.progress.empty()) j["progress"] = d.progress;
      std::cout << j.dump() << "\n" << std::flush;
    };
  }
  return [](const llm::StreamDelta& d) {
    if (!d.progress.empty()) std::cout << "[" << d.progress << "]\n";
    std::cout << d.text;
    if (d.done) std::cout << "\n-- end of answer (" << d.output_tokens << " tokens out)\n";
    std::cout << std::flush;
  };
}

int cmd_ask_v2(const AskV2Options& o, const llm::BackendConfig& cfg, llm::ChatBackend& backend,
               const step::TaskDoc& task, const std::string& resources) {
  std::string err;
  auto chip = step2::perf::chip_for(task, o.chip == "default" ? std::string() : o.chip, resources, err);
  if (!chip) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  auto card = opt2::read_operator_card(resources, err);
  if (!card) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  const opt2::Opt2Task t{task, o.program, *chip};
  const opt2::Judgement before = opt2::judge(t, o.program, 0, kTolerance);
  if (before.verdict == opt2::Verdict::Incorrect || before.verdict == opt2::Verdict::Infeasible) {
    std::cerr << "error: the program of " << o.from << " is "
              << (before.verdict == opt2::Verdict::Infeasible ? "infeasible on " + chip->name + " [" : "not correct [")
              << before.detail << "]: repair it first (only a correct program is optimised)\n";
    return 2;
  }
  llm::ChatRequest req = opt2::round_request(t, o.program, before, {}, *card);
  req.model = cfg.model;
  req.temperature = o.temperature;
  req.max_tokens = o.max_tokens;
  req.seed = o.seed;
  if (o.stream) req.on_delta = stream_printer(o.json);
  const std::size_t chars = agent::prompt_chars(req.messages);
  if (!o.json) {
    std::cout << "== optimise " << task.id << " (STeP-25, chip " << chip->name << ") from " << o.from << "\n"
              << "  before: " << before.cycles << " cycles, " << pct(before.pct_of_peak) << " of peak, bottleneck "
              << before.bottleneck << "\n"
              << "== proposer  prompt: " << req.messages.size() << " messages, " << chars << " chars (~"
              << agent::estimate_tokens(chars) << " tokens)\n"
              << std::flush;
  }
  llm::CancelToken cancel;
  const llm::ChatResult res = backend.chat(req, cancel);
  if (!res.ok()) {
    auto d = llm::diagnose_failure(cfg, cfg.model, res.error);
    if (d.infrastructure) {  // no verdict: the endpoint failed, not the model
      std::cerr << "error: " << d.message << "\n";
      return 3;
    }
  }
  Outcome out = res.ok() ? read_outcome(*res.response, o.max_tokens)
                         : Outcome{std::nullopt, res.error.kind + ": " + res.error.message, false};
  std::optional<opt2::Judgement> after;
  if (out.answer) after = opt2::judge(t, out.answer->impl, before.cycles, kTolerance);
  const bool faster = after && after->verdict == opt2::Verdict::Faster;

  if (o.json) {
    nlohmann::json v = {{"type", "verdict"},          {"task", task.id},
                        {"dialect", "step-v2"},       {"action", "optimise"},
                        {"chip", chip->name},         {"cycles_before", before.cycles},
                        {"pct_of_peak_before", before.pct_of_peak}, {"prompt_chars", chars}};
    if (res.ok()) {
      v["usage"] = {{"input_tokens", res.response->usage.input_tokens},
                    {"cached_input_tokens", res.response->usage.cached_input_tokens},
                    {"output_tokens", res.response->usage.output_tokens}};
      v["finish_reason"] = res.response->finish_reason;
      v["from_cache"] = res.response->from_cache;
    }
    if (!out.answer) v["error"] = out.no_answer;
    if (out.truncated) {
      v["truncated"] = true;
      v["max_tokens"] = o.max_tokens;
    }
    if (after) {
      v["verdict"] = opt2::verdict_name(after->verdict);
      v["detail"] = after->detail;
      v["cycles_after"] = after->cycles;
      v["pct_of_peak_after"] = after->pct_of_peak;
      if (after->cycles > 0) v["speedup"] = static_cast<double>(before.cycles) / static_cast<double>(after->cycles);
      v["faster"] = faster;
      v["adopted"] = out.answer->adopted;
      v["unterminated"] = out.answer->unterminated;
      v["impl"] = out.answer->impl;
    }
    std::cout << v.dump() << "\n";
    return faster ? 0 : 1;
  }
  if (res.ok()) {
    if (!o.stream) std::cout << "  response:\n" << indented_head(res.response->text, 40);
    print_usage_line(*res.response);
  }
  std::cout << "verdict: " << task.id << ": ";
  if (!after) {
    std::cout << "no answer: " << out.no_answer << "\n";
    return 1;
  }
  std::cout << verdict_text(before, *after) << ", adopted: " << joined(out.answer->adopted) << "\n";
  if (out.answer->unterminated) std::cout << "  note: the answer's program block is not closed (read to its end)\n";
  const std::string d = text::unified_diff(o.program, out.answer->impl, "program", "proposal");
  std::cout << "== diff against " << o.from << "\n" << (d.empty() ? std::string("(identical)\n") : d);
  std::cout << "== proposal (" << opt2::verdict_name(after->verdict) << ")\n" << out.answer->impl;
  return faster ? 0 : 1;
}

}  // namespace sf::cli
