// The parts of one refinement round that campaign episodes (sage) and interactive rounds (the editor's agent
// actions, `stepforge-cli ask --from`) share, so both build the same prompts, ask the same adoption
// question and record the same events: memory context, the proposer call with its one adoption re-ask
// (algorithms §4.2), the verifier's trace event, the diagnostics text fed back, adoption_record bodies.
#pragma once

#include "core/agent/agent_types.hpp"
#include "core/agent/prompt_builder.hpp"
#include "core/agent/proposer.hpp"
#include "core/learn/events.hpp"
#include "core/llm/preflight.hpp"
#include "core/memory/memory_store.hpp"
#include "core/verify/verifier.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sf::learn {

inline constexpr std::size_t kMaxDiagnosticsShown = 20;

// The verifier's diagnostics as fed back to the proposer: one formatted line each, at most 20 (then a count).
std::string format_round_diagnostics(const Diagnostics& ds);

// Retrieval (query) and the resident rules of `mem` into `in.experiences` / `in.rules`; returns the
// candidates (in the order shown) and fills `hot_ids`.
std::vector<memory::Candidate> add_memory_context(const memory::MemoryStore& mem, const std::string& query,
                                                  agent::PromptInput& in, std::set<std::string>& hot_ids);
// The items `cands` names as `in.experiences` (ids missing from `mem` are skipped).
void add_experiences(const memory::MemoryStore& mem, const std::vector<memory::Candidate>& cands,
                     agent::PromptInput& in);

struct AdoptedProposal {
  agent::Proposal proposal;
  bool answered = false;  // the proposer call returned an answer
  std::string impl;       // the program of the last answer ("" when none)
  std::map<std::string, agent::AdoptionEntry> resolved;  // retrieved id -> its adoption entry
  std::set<std::string> reasked;                         // ids that needed the re-ask
};

// The proposer call and, when the answer leaves a retrieved id unresolved or names an unknown id (hot ids
// excepted), exactly one re-ask; none for an answer cut at max_tokens (a verdict of its own). Every call's
// trace goes to ctx.sink. Stops early when `cancelled()`.
AdoptedProposal propose_with_adoption(llm::ChatBackend& backend, const agent::RoleContext& ctx,
                                      const agent::PromptOptions& popt, const agent::PromptInput& in, int round,
                                      double temperature, std::uint64_t seed, const std::set<std::string>& hot_ids,
                                      const std::function<bool()>& cancelled);

// The verdict of a round that has no program to verify (`ap.impl` empty): the proposer call failed (stage
// "llm", code = the first trace's error kind, else "llm"), or its answer had none (the proposal's fail_*:
// stage and code "truncated" for an answer cut at max_tokens, stage "search" + code no-program when the
// built-in synthesizer found none within its budget, else stage "parse" + the parser's code, P-NO-IMPL).
void set_no_program_verdict(const AdoptedProposal& ap, const std::vector<agent::TraceEvent>& traces, Verdict& v);

// The first call in `traces` that failed for a reason that is not the model's answer (llm::diagnose_failure:
// authentication, model not found, rejected request, spend cap, retries exhausted, connection refused, TLS,
// a missing key), diagnosed against `backend`; nullopt when there is none. Cancelled calls do not count.
std::optional<llm::FailureDiagnosis> endpoint_failure(const llm::BackendConfig& backend,
                                                      const std::vector<agent::TraceEvent>& traces);

// The `verifier` trace event of a round (diagnostics capped at kMaxDiagnosticsShown).
agent::TraceEvent verifier_event(const std::string& task, int iteration, int round, const std::string& model,
                                 const std::string& impl, const verify::Report& rep, const std::string& diags_text);

// The `adoption_record` event of one retrieved item (docs/memory.md); `resolved` = the model gave the item a
// state.
store::AdoptionEntry adoption_record(int episode, const std::string& task, int round, const memory::Candidate& c,
                                    const std::map<std::string, agent::AdoptionEntry>& resolved,
                                    const std::set<std::string>& reasked, const std::string& before,
                                    const std::string& after);

}  // namespace sf::learn
