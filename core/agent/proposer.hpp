// Roles over a chat backend (algorithms §1). Every call emits one TraceEvent to the role's sink.
#pragma once

#include <functional>

#include "core/agent/agent_types.hpp"
#include "core/agent/prompt_builder.hpp"
#include "core/llm/chat_backend.hpp"
#include "core/llm/price_table.hpp"

#include <optional>
#include <string>

namespace sf::agent {

// What every role needs to make a call and record it.
struct RoleContext {
  std::string model;
  int max_tokens = 2048;
  const llm::PriceTable* prices = nullptr;  // cost is nullopt without a table or a price for the model
  TraceSink sink;
  std::string task_id;
  int iteration = 0;
  int round = 0;
  llm::CancelToken cancel;
  // Streaming: the answer of every call of this context as it arrives (llm::ChatRequest::on_delta).
  llm::StreamCallback on_delta;
  // Asked before every call with the request (campaign budgets); false refuses the call: it fails with the
  // error kind "budget" and the reason in `why`, and nothing is sent.
  std::function<bool(const llm::ChatRequest& request, std::string& why)> admit;
};

// Sends `messages`, fills the common event fields (prompt, response, usage, cost, latency, error).
// cache_prefix / cache_user_prefix: the prompt-cache breakpoints (llm::ChatRequest::cache_prefix_hint,
// cache_user_prefix_hint; "" = none).
llm::ChatResult call_role(llm::ChatBackend& backend, const RoleContext& ctx, const std::string& role,
                          std::vector<llm::ChatMessage> messages, const std::string& cache_prefix,
                          double temperature, std::optional<std::uint64_t> seed, int sample_index,
                          TraceEvent& event, const std::string& cache_user_prefix = {});

// True for a finish reason that says the answer was cut at the token limit ("length"; Anthropic's max_tokens
// is normalised to it, and is accepted as given too).
bool answer_truncated(const std::string& finish_reason);
// The verdict message and refinement feedback for a cut answer: where it was cut and what to do.
std::string truncation_feedback(int max_tokens, std::int64_t output_tokens);
// The same news for the person who asked (`ask`, the agent panel): the answer was cut at the token limit, which
// limit, and the setting that raises it (`setting`, e.g. "--max-tokens"), with a suggested value.
std::string truncation_notice(int max_tokens, std::int64_t output_tokens, const std::string& setting);

struct Proposal {
  bool ok = false;             // the call succeeded and an impl was found
  std::string impl;            // the parsed program ("" when none)
  ParsedResponse parsed;
  std::string response;
  std::string error;           // the LLM error ("kind: message") when the call failed
  std::string finish_reason;   // the answer's finish reason ("length": cut at max_tokens, see answer_truncated)
  llm::Usage usage;
  std::optional<double> cost_usd;
  double latency_s = 0.0;
  BuiltPrompt prompt;
  // Why an answered call gave no program (set when the call succeeded and ok is false): stage and code
  // "truncated" when the answer was cut at max_tokens (answer_truncated; the message says where, and the
  // fragment's program is never used), stage "search" + code kNoProgramCode when the built-in synthesizer
  // searched and found none (finish reason llm::kFinishNoProgram), else stage "parse" + the parser's first code
  // (P-NO-IMPL).
  std::string fail_stage, fail_code, fail_message;
};

// The verdict code of "the built-in synthesizer found no program within its search budget".
inline constexpr const char* kNoProgramCode = "no-program";

class Proposer {
 public:
  Proposer(llm::ChatBackend& backend, RoleContext ctx, PromptOptions prompt_opt = {})
      : backend_(backend), ctx_(std::move(ctx)), prompt_opt_(prompt_opt) {}

  Proposal propose(const PromptInput& in, int sample_index, double temperature,
                   std::optional<std::uint64_t> seed = std::nullopt);

 private:
  llm::ChatBackend& backend_;
  RoleContext ctx_;
  PromptOptions prompt_opt_;
};

}  // namespace sf::agent
