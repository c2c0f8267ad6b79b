// One proposer -> guardian -> verifier round trip on a task (the `stepforge-cli ask` command, and the
// unit of work of a campaign sample). Every step emits a TraceEvent: proposer, guardian, verifier.
#pragma once

#include "core/agent/guardian.hpp"
#include "core/agent/proposer.hpp"
#include "core/step/task.hpp"
#include "core/verify/verifier.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sf::agent {

struct RoundTripOptions {
  double temperature = 0.0;
  std::optional<std::uint64_t> seed;
  int sample_index = 0;
  GuardianMode guardian = GuardianMode::Rewrite;
  bool use_guardian = true;  // false: `single` mode (the proposal must be affine by itself)
  PromptOptions prompt;
};

struct RoundTripResult {
  Proposal proposal;
  std::optional<GuardResult> guard;  // set when the proposal had an impl and the guardian ran
  std::optional<verify::Report> report;  // set when there was a program to verify
  std::vector<TraceEvent> events;        // in order: proposer, guardian, verifier
  bool pass = false;
  std::string error;  // the LLM error, or why there was nothing to verify
};

// `input.task_text` defaults to task.raw_text_without_impl when empty. The ctx's sink (if any) also
// receives every event as it happens.
RoundTripResult run_round_trip(llm::ChatBackend& backend, const step::TaskDoc& task, PromptInput input,
                               RoleContext ctx, verify::Verifier& verifier, const RoundTripOptions& opt = {});

}  // namespace sf::agent
