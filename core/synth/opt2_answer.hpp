// The STeP-25 optimisation round as text (docs/synth.md, "STeP-25 optimiser"; docs/llm.md, "STeP-25
// optimisation rounds"): the request a chat model is sent (round_request: a system message with the role, the
// operator card and the answer format, then a user message with the task, the program, its performance and
// the retrieved experiences), what the builtin backend answers to it, and the reader of an answer (builtin or a
// real model's). All bounded and defensive: a prompt or an answer is untrusted text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/llm/chat_types.hpp"
#include "core/step/task.hpp"
#include "core/synth/opt2_campaign.hpp"

namespace sf::synth::opt2 {

struct Answer {
  std::string impl;                  // "" when the answer has no program
  std::vector<std::string> adopted;  // ids of the `adopted: [..]` line (none when it is missing)
  // The program's fenced block was not closed: the answer stopped inside it (cut at a token limit, or a model
  // that forgot the closing fence). `impl` is what the block held.
  bool unterminated = false;
};

// Reads the program and the adopted ids of an answer. The program: the last fenced block (``` or ~~~, any
// language) with an `impl:` key (`impl: |`, `|-`, any indentation), else an `impl:` key outside fences, else
// the last fenced block that is itself a program (a `target = step.Op(...)` line); its common indentation
// removed. Tolerated: prose around it, CRLF, tabs, <think> blocks, an unclosed last fence. The ids: the last
// `adopted:` line (also inside backticks or bold, with or without brackets); ids are [A-Za-z0-9_.:-], at most
// 16. At most 256 KiB of the answer are read.
Answer read_answer(const std::string& text);

// The role statement at the head of the system message of round_request.
extern const char* const kRoleStatement;

// One optimisation round as a chat request (the one builder of the campaign engine and `ask --optimise`):
// messages[0] (system): kRoleStatement, `## Operator card` (card), `## Answer format`; it is the static part
// of every round and the prompt-cache prefix (cache_prefix_hint). messages[1] (user): round_prompt's
// `## Task`, `## Program to improve`, `## Performance` and `## Retrieved experiences` (when there are rules).
// Model, temperature, max_tokens, seed and sample index are the caller's to set.
llm::ChatRequest round_request(const Opt2Task& t, const std::string& impl, const Judgement& perf,
                               const std::vector<const BankRule*>& rules, const std::string& card);

// <resource_dir>/step2_operator_card.md (at most 64 KiB); nullopt with `error` when it cannot be read.
std::optional<std::string> read_operator_card(const std::string& resource_dir, std::string& error);

// The builtin optimiser's reply to a v2 optimisation prompt (it reads the user messages); nullopt when the
// prompt has no `## Program to improve` block (not an optimisation round).
std::optional<llm::ChatResult> opt2_chat(const llm::ChatRequest& request, const step::TaskDoc& task);

}  // namespace sf::synth::opt2
