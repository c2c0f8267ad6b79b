// The STeP-25 optimisation round as text (docs/synth.md, "STeP-25 optimiser"): what the builtin backend
// answers to a v2 optimisation prompt (opt2_campaign.hpp round_prompt: `## Program to improve`,
// `## Performance`, `## Retrieved experiences`), and the reader of an answer (builtin or a real model's):
// the program of the first ```yaml block with `impl: |` and the `adopted: [ids]` line. Both bounded and
// defensive: a prompt or answer is untrusted text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/llm/chat_types.hpp"
#include "core/step/task.hpp"

namespace sf::synth::opt2 {

struct Answer {
  std::string impl;                  // "" when the answer has no program
  std::vector<std::string> adopted;  // ids of the `adopted: [..]` line
};
Answer read_answer(const std::string& text);

// The builtin optimiser's reply to a v2 optimisation prompt; nullopt when the prompt has no
// `## Program to improve` block (not an optimisation round).
std::optional<llm::ChatResult> opt2_chat(const llm::ChatRequest& request, const step::TaskDoc& task);

}  // namespace sf::synth::opt2
