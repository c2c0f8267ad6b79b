#include "core/agent/proposer.hpp"

#include <algorithm>

#include "core/llm/builtin_backend.hpp"

namespace sf::agent {

llm::ChatResult call_role(llm::ChatBackend& backend, const RoleContext& ctx, const std::string& role,
                          std::vector<llm::ChatMessage> messages, const std::string& cache_prefix,
                          double temperature, std::optional<std::uint64_t> seed, int sample_index,
                          TraceEvent& event, const std::string& cache_user_prefix) {
  llm::ChatRequest req;
  req.model = ctx.model;
  req.messages = std::move(messages);
  req.temperature = temperature;
  req.max_tokens = ctx.max_tokens;
  req.seed = seed;
  req.sample_index = sample_index;
  req.cache_prefix_hint = cache_prefix;
  req.cache_user_prefix_hint = cache_user_prefix;
  req.on_delta = ctx.on_delta;

  event.role = role;
  event.task_id = ctx.task_id;
  event.iteration = ctx.iteration;
  event.round = ctx.round;
  event.sample_index = sample_index;
  event.model = ctx.model;
  event.temperature = temperature;
  event.seed = seed;
  event.prompt = req.messages;

  std::string refused;
  llm::ChatResult r = ctx.admit && !ctx.admit(req, refused) ? llm::ChatResult::failure("budget", refused)
                                                            : backend.chat(req, ctx.cancel);
  if (r.ok()) {
    event.response = r.response->text;
    event.usage = r.response->usage;
    event.latency_s = r.response->latency_s;
    event.from_cache = r.response->from_cache;
    event.finish_reason = r.response->finish_reason;
    event.reasoning = r.response->reasoning;
    if (ctx.prices) event.cost_usd = ctx.prices->cost(ctx.model, r.response->usage);
  } else {
    event.error_kind = r.error.kind;
    event.error_message = r.error.message;
    event.error_http_status = r.error.http_status;
    event.error_attempts = r.error.attempts;
  }
  return r;
}

bool answer_truncated(const std::string& finish_reason) {
  return finish_reason == "length" || finish_reason == "max_tokens";
}

std::string truncation_feedback(int max_tokens, std::int64_t output_tokens) {
  return "the answer was cut at the token limit (max_tokens = " + std::to_string(max_tokens) + ", " +
         std::to_string(output_tokens) +
         " output tokens) before it was complete; answer again, shorter: only the yaml block with impl: (and the "
         "lists asked for), no explanation";
}

std::string truncation_notice(int max_tokens, std::int64_t output_tokens, const std::string& setting) {
  const long long suggested = std::min<long long>(2LL * std::max(max_tokens, 1), 1000000);
  return "the answer was cut at the token limit (max_tokens = " + std::to_string(max_tokens) + "; the model wrote " +
         std::to_string(output_tokens) + " output tokens) before it held a complete program; raise " + setting +
         " (e.g. " + setting + " " + std::to_string(suggested) + ") and ask again";
}

Proposal Proposer::propose(const PromptInput& in, int sample_index, double temperature,
                           std::optional<std::uint64_t> seed) {
  Proposal p;
  p.prompt = build_prompt(in, prompt_opt_);
  TraceEvent ev;
  auto r = call_role(backend_, ctx_, "proposer", p.prompt.messages, p.prompt.cache_prefix, temperature, seed,
                     sample_index, ev, p.prompt.cache_user_prefix);
  if (!r.ok()) {
    p.error = r.error.kind + ": " + r.error.message;
  } else {
    p.response = r.response->text;
    p.usage = r.response->usage;
    p.finish_reason = r.response->finish_reason;
    p.latency_s = r.response->latency_s;
    p.cost_usd = ev.cost_usd;
    p.parsed = parse_response(p.response, in.experience_ids());
    const bool cut = answer_truncated(p.finish_reason);  // a verdict of its own, whatever the fragment parses to
    if (p.parsed.impl && !cut) {
      p.impl = *p.parsed.impl;
      p.ok = true;
      ev.impl = p.impl;
    }
    if (!cut) {
      ev.adoption = p.parsed.adoption;
      if (p.parsed.has_rules_used) ev.rules_used = p.parsed.rules_used;
    }
    if (!p.parsed.reasoning.empty())  // inline <think> blocks, next to any the provider returned apart
      ev.reasoning = ev.reasoning.empty() ? p.parsed.reasoning : ev.reasoning + "\n" + p.parsed.reasoning;
    ev.diagnostics = p.parsed.diagnostics;
    if (!p.ok) {
      if (cut) {
        p.fail_stage = p.fail_code = "truncated";
        p.fail_message = truncation_feedback(ctx_.max_tokens, p.usage.output_tokens);
      } else if (r.response->finish_reason == llm::kFinishNoProgram) {
        p.fail_stage = "search";
        p.fail_code = kNoProgramCode;
        p.fail_message = "the built-in synthesizer found no program within its search budget";
      } else {
        p.fail_stage = "parse";
        p.fail_code = p.parsed.diagnostics.empty() ? "P-NO-IMPL" : p.parsed.diagnostics.front().code;
        p.fail_message = "the answer contains no impl";
      }
      ev.pass = false;
      ev.stage = p.fail_stage;
      ev.code = p.fail_code;
    }
  }
  if (ctx_.sink) ctx_.sink(ev);
  return p;
}

}  // namespace sf::agent
