// The guardian (algorithms §1): gate = the affine checker (any A-MULTI error means a stream is consumed
// more than once); corrector = the deterministic Copy-insertion rewrite (step::insert_copies) or an LLM
// call that sees only the impl. The LLM fix is kept only if it passes every static check afterwards
// (affine and types); otherwise the rewrite is used. It never touches programs the gate lets through.
#pragma once

#include "core/agent/proposer.hpp"
#include "core/step/task.hpp"
#include "core/verify/checker.hpp"

#include <string>

namespace sf::verify {
class Verifier;
}

namespace sf::agent {

enum class GuardianMode { Rewrite, Llm };
std::optional<GuardianMode> parse_guardian_mode(const std::string& s);  // "rewrite" | "llm"

struct GuardResult {
  std::string impl;          // the program to verify (the input when nothing was fixed)
  bool gate_fired = false;   // the input has an A-MULTI error
  std::string action;        // "none", "rewrite", "llm", "llm-fallback-rewrite", "unparsable"
  std::string diff;          // line diff input -> output ("" when unchanged)
  Diagnostics gate_diags;    // the input's static diagnostics
  // The static result of `impl` (the program to verify): hand it to Verifier::verify so the sample is checked
  // once. Never null after guard().
  std::shared_ptr<const verify::CheckResult> checked;
  llm::Usage usage;          // of the LLM call (zero for the rewrite)
  std::optional<double> cost_usd;
};

// A compact line diff: "- old" / "+ new" lines for changed lines (core/common/text_diff: Myers), "" if equal.
std::string line_diff(const std::string& before, const std::string& after);

// The deterministic corrector: parse, insert_copies, print. nullopt when the impl does not parse or
// fails the name checks.
std::optional<std::string> copy_rewrite(const step::TaskDoc& task, const std::string& impl);

class Guardian {
 public:
  // `backend` is only used in Llm mode (may be null for Rewrite). `checker`: the static checks run through this
  // verifier (its options and cache) when set, so its result can be handed on to its verify.
  Guardian(llm::ChatBackend* backend, RoleContext ctx, verify::Verifier* checker = nullptr)
      : backend_(backend), ctx_(std::move(ctx)), checker_(checker) {}

  GuardResult guard(const step::TaskDoc& task, const std::string& impl, GuardianMode mode, int sample_index = 0);

  // The corrector's prompt: only the impl (no task, no manual beyond the Copy rule).
  static std::vector<llm::ChatMessage> llm_prompt(const std::string& impl, const Diagnostics& affine_errors);

 private:
  std::shared_ptr<const verify::CheckResult> check(const step::TaskDoc& task, const std::string& impl) const;

  llm::ChatBackend* backend_;
  RoleContext ctx_;
  verify::Verifier* checker_ = nullptr;
};

}  // namespace sf::agent
