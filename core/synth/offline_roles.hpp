// Offline distiller and abstractor (issue 5 §6): template-based answers to the distiller and abstractor
// prompts of core/agent/distiller.cpp, so the memory learns on the builtin backend through the same code path
// as with an LLM (the answers are in exactly the YAML format parse_distill_answer / parse_abstract_answer
// read, plus a `pattern:` field per experience that the sage engine keeps for the synthesizer).
//
// Distiller: from the episode's last verified attempt, the dataflow chains (2-4 single-input statements, see
// program_chains) become experiences. First the fragment that turned a failing attempt into a passing one (a
// chain of the verified program that does not occur in the attempt before it), with the diagnostic code it
// fixed; then up to two more chains of the solved task. Rule text names the chain, the task and its
// description (so BM25 finds it for related tasks); evidence names the diagnostic code(s); example = the
// fragment's statements; pattern = "A>B>C". An episode without a verified attempt gives `experiences: []`.
//
// Abstractor: a one-sentence resident rule naming the chain (or the experience's first sentence) and at most
// four lines of its example.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/llm/chat_types.hpp"

namespace sf::synth {

// The role a request is for, read from its system message (the role statement core/agent writes first):
// "distiller", "abstractor", or "" (the proposer, or anything else).
std::string offline_role(const std::vector<llm::ChatMessage>& messages);

// The answer texts (never throw; garbage in gives `experiences: []` / a generic rule).
std::string offline_distill_answer(const std::vector<llm::ChatMessage>& messages);
std::string offline_abstract_answer(const std::vector<llm::ChatMessage>& messages);

// The builtin provider's dispatch: an answer for distiller / abstractor requests, nullopt otherwise.
std::optional<llm::ChatResult> offline_role_chat(const llm::ChatRequest& request);

}  // namespace sf::synth
