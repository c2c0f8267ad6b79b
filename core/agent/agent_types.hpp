// Value types shared by the agent roles: what a prompt is built from, and the trace event every role
// call emits (algorithms §1). TraceEvent::to_json goes into the campaign event log; it never holds a key
// (requests and headers are redacted by core/llm, and the event only carries message texts).
#pragma once

#include "core/agent/response_parser.hpp"
#include "core/llm/chat_types.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sf::agent {

// A solved task shown to the proposer: the task text (without impl) and a verified program.
struct Demonstration {
  std::string task_id;
  std::string task_text;
  std::string impl;
};

// A cold-memory item as the proposer sees it (algorithms §4.1: id, rule text, evidence, optional example).
struct Experience {
  std::string id;
  std::string rule;
  std::string evidence;
  std::string code_example;
  // Optional machine-readable pattern: primitive names joined by '>' along a dataflow chain
  // ("Bufferize>Repeat>Streamify"); printed as `pattern:` (core/synth reports adoption truthfully from it).
  std::string pattern;
};

// A hot (resident) rule: always in context.
struct ResidentRule {
  std::string id;
  std::string text;
  std::string example;
};

struct PromptInput {
  std::string manual_text;  // the static prefix (see load_manual)
  std::vector<Demonstration> demos;
  std::vector<ResidentRule> rules;
  std::vector<Experience> experiences;  // retrieved items; their ids must be answered in `adoption:`
  std::string task_text;                // TaskDoc::raw_text_without_impl
  std::optional<std::string> previous_attempt;      // refinement mode
  std::optional<std::string> previous_diagnostics;  // refinement mode: the verifier's diagnostics, formatted
  // Optimisation mode: previous_attempt is a correct program and this is its cost-model feedback
  // (cost::feedback_text); the prompt then asks for a faster program instead of a fix.
  std::optional<std::string> performance_feedback;
  // The reference solution's cycles under the cost model, shown with the task (nullopt: not shown).
  std::optional<std::int64_t> baseline_cycles;
  // Novelty (campaign config `novelty`): distinct programs of this task that already failed verification,
  // shown as "already tried, write something different" (oldest first).
  std::vector<std::string> already_tried;
  // A free-text instruction from the user (interactive rounds: "Ask…"), shown as its own section.
  std::optional<std::string> instruction;

  std::vector<std::string> experience_ids() const;
};

// One role call (or one deterministic guardian step), as recorded in traces and event logs.
struct TraceEvent {
  std::string role;     // "proposer", "guardian", "distiller", "abstractor", "verifier"
  std::string task_id;
  int iteration = 0;    // Algorithm 1 iteration (adaptive) or 0
  int round = 0;        // refinement round (memory mode) or 0
  int sample_index = 0;
  std::string model;
  double temperature = 0.0;
  std::optional<std::uint64_t> seed;
  std::vector<llm::ChatMessage> prompt;  // empty for deterministic steps
  std::string response;                  // the model's answer text
  std::optional<std::string> impl;       // the parsed (or rewritten) program
  std::vector<AdoptionEntry> adoption;
  // The resident rules the answer says it used (ParsedResponse::rules_used); nullopt: the answer has no list.
  std::optional<std::vector<std::string>> rules_used;
  llm::Usage usage;
  std::optional<double> cost_usd;        // nullopt: no price for the model (or no call)
  double latency_s = 0.0;
  bool from_cache = false;
  std::string error_kind, error_message;  // an LLM error ("" when the call succeeded)
  int error_http_status = 0;              // of that error (0: none)
  int error_attempts = 0;                 // HTTP attempts the failed call made
  std::string finish_reason;              // "stop", "length", ... as the backend normalised it ("" unknown)
  std::string reasoning;                  // reasoning the provider returned apart from the answer
  Diagnostics diagnostics;                // parse diagnostics of the answer, or the verdict's
  std::optional<bool> pass;               // verdict (verifier / guardian gate result) when known
  std::string stage, code;                // verdict stage and first error code ("" on pass)
  std::string guardian_action;            // "none", "rewrite", "llm", "llm-fallback-rewrite", "unfixable"
  std::string guardian_diff;              // line diff of the guardian's change ("" if none)
};

using TraceSink = std::function<void(const TraceEvent&)>;

nlohmann::json to_json(const TraceEvent& e);
nlohmann::json to_json(const AdoptionEntry& a);

// Prompt size in characters and an estimate of tokens (characters / 4, rounded up).
std::size_t prompt_chars(const std::vector<llm::ChatMessage>& messages);
std::int64_t estimate_tokens(std::size_t chars);

}  // namespace sf::agent
