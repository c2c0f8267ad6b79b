// The proposer prompt (algorithms §1): system = the static manual prefix (cacheable by Anthropic prompt
// caching), user = demonstrations, resident rules, retrieved experiences with their ids, the task without
// impl, in refinement mode the previous attempt and its diagnostics, and the answer format.
// When the prompt exceeds the token budget, demonstrations are dropped from the end of the list (the
// caller orders them by priority) until it fits, and the prompt says how many were left out.
#pragma once

#include "core/agent/agent_types.hpp"
#include "core/llm/chat_types.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sf::agent {

enum class ManualMode { Full, Cheatsheet, Auto };

// Loads the manual from <resource_dir>/manual: the files index.md lists (its numbered list of backquoted
// names, in order), joined with blank lines; Cheatsheet mode loads cheatsheet.md only; Auto uses the full
// manual when its token estimate is at most `auto_budget_tokens`, else the cheat sheet.
// Returns nullopt with `error` set when a file is missing or index.md lists nothing.
std::optional<std::string> load_manual(const std::string& resource_dir, ManualMode mode, std::string& error,
                                       std::int64_t auto_budget_tokens = 25000);

struct PromptOptions {
  std::int64_t max_prompt_tokens = 0;  // 0 = unlimited; estimate = characters / 4
};

struct BuiltPrompt {
  std::vector<llm::ChatMessage> messages;  // [system, user]
  std::string cache_prefix;                // == messages[0].content (the static prefix)
  // The start of messages[1] that every sample of an iteration shares: the demonstrations section ("" when
  // there are none). Anthropic prompt caching sets its second breakpoint after it.
  std::string cache_user_prefix;
  int demos_used = 0;
  int demos_omitted = 0;
  std::int64_t estimated_tokens = 0;
  bool over_budget = false;  // still over max_prompt_tokens with no demonstration left
};

BuiltPrompt build_prompt(const PromptInput& in, const PromptOptions& opt = {});
inline std::vector<llm::ChatMessage> build_messages(const PromptInput& in, const PromptOptions& opt = {}) {
  return build_prompt(in, opt).messages;
}

// The system prompt: role statement + manual (exactly; no per-request content).
std::string system_prompt(const std::string& manual_text);
// `text` with every line indented by `n` spaces (empty lines stay empty).
std::string indent_lines(const std::string& text, int n);

}  // namespace sf::agent
