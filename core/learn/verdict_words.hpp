// Verdicts for people (issue 21): the GUI shows a word or two, the stage and code go in its tooltip.
#pragma once

#include <string>

namespace sf::learn {

// "pass", "no program" (the built-in synthesizer's search found none: code agent::kNoProgramCode), "no impl"
// (an answer without a usable program: P-NO-IMPL, P-EMPTY-IMPL, P-ADOPTION*, L-RESPONSE-SIZE), "LLM error",
// "syntax error" (stage parse: the STeP program's P-SYNTAX, …),
// "name error", "affine error", "type error", "wrong shape", "runtime error", "over limit", "wrong output",
// "task error", "I/O error", "infeasible", "internal error"; any other stage reads "fail".
std::string verdict_word(bool pass, const std::string& stage, const std::string& code);

}  // namespace sf::learn
