// The synthesizer behind core/llm's builtin seam (provider name "synth"): it reads the proposer's prompt
// (core/agent/prompt_builder layout, docs/agents.md) like an LLM would — the `## Task` document, the
// `## Demonstrations`, the `## Resident rules` and `## Retrieved experiences` with their optional `pattern:`
// (which steer the search) — and answers with
// the text an LLM returns (```yaml impl + adoption). It reads nothing else (never solutions).
#pragma once

#include <string>
#include <vector>

#include "core/llm/chat_types.hpp"
#include "core/synth/synthesizer.hpp"

namespace sf::synth {

inline constexpr const char* kProviderName = "synth";
// Wall-clock safety net of one builtin answer: hitting it is a `timeout` error, never a different program.
inline constexpr double kWallSafetyNetS = 120.0;

// What the provider found in a prompt.
struct PromptContents {
  std::string task_text;                // the ```yaml block of `## Task` ("" if absent)
  std::vector<std::string> demo_texts;  // each demonstration's ```yaml block (task text + impl)
  std::vector<MemoryPattern> memory;    // one per retrieved experience id (pattern "" when none)
  std::vector<std::string> rule_patterns;  // `pattern:` of the `## Resident rules` (steer the search)
  std::vector<std::string> rule_ids;       // the id of the rule each pattern belongs to ("" unknown)
  bool performance = false;  // the prompt shows reference cycles or asks for a faster program
  // `## Previous attempt` of an optimisation round ("Your previous program is correct. Make it faster…"):
  // the program of its first ``` block ("" otherwise, e.g. for a repair round).
  std::string previous_impl;
  // `## Already tried` (config novelty): the program of each fenced block; the search skips them.
  std::vector<std::string> tried;
};

// Splits the user message(s) of a proposer prompt into its parts (never throws).
PromptContents parse_prompt(const std::vector<llm::ChatMessage>& messages);

// The search options for a request: the request's temperature, a seed derived from (seed, sample index).
SynthOptions options_for(const llm::ChatRequest& request);

// The provider function: parse, mine the demonstrations, search, answer. A prompt without a loadable
// task gives a "provider" error.
llm::ChatResult synth_chat(const llm::ChatRequest& request, const llm::CancelToken& cancel);

// Registers synth_chat as the builtin provider "synth".
void register_builtin_provider();

}  // namespace sf::synth
