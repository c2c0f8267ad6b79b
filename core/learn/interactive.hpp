// Interactive rounds: the agent at the expert's side (issue 18). One round = Propose (a program from
// scratch), Repair (the user's program + its verifier diagnostics, as a refinement round) or Optimise (a
// correct program + its cost-model feedback), each optionally with a free-text instruction (Ask…). A round
// uses the same prompt builder, proposer + adoption re-ask, guardian, verifier and cost model as campaign
// rounds (core/learn/round_parts), optionally the memory of a chosen workspace (retrieval, resident rules,
// adoption list; read-only), and appends its events — the campaign schema — to a session workspace, so the
// trace pane, the audit pane and the memory's credit assignment read interactive rounds like campaign ones.
// No Qt: the GUI runs it on a worker thread, `stepforge-cli ask --from` runs it headless.
#pragma once

#include "core/agent/guardian.hpp"
#include "core/agent/proposer.hpp"
#include "core/cost/baseline.hpp"
#include "core/cost/cost_model.hpp"
#include "core/learn/events.hpp"
#include "core/llm/backend_config.hpp"
#include "core/llm/chat_backend.hpp"
#include "core/llm/price_table.hpp"
#include "core/memory/memory_store.hpp"
#include "core/step/task.hpp"
#include "core/verify/verifier.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::store {
class Workspace;
}

namespace sf::learn {

enum class InteractiveAction { Propose, Repair, Optimise };
std::string_view action_name(InteractiveAction a);  // "propose", "repair", "optimise"
std::optional<InteractiveAction> parse_action(std::string_view s);

// The config key `mode` of a session workspace's campaign.json.
inline constexpr const char* kInteractiveMode = "interactive";
// The longest instruction kept (characters); longer ones are cut.
inline constexpr std::size_t kMaxInstructionChars = 8000;

struct InteractiveOptions {
  std::string model;
  // The backend's config (never a key): names the endpoint, the key variable and the fix when a call fails
  // for a reason that is not the model's answer (llm::diagnose_failure).
  llm::BackendConfig endpoint;
  int max_tokens = 4096;
  int max_prompt_tokens = 0;  // 0 = unlimited
  double temperature = 0.0;
  std::uint64_t seed = 0;     // sample seeds derive from (seed, task, round)
  agent::GuardianMode guardian = agent::GuardianMode::Rewrite;
  std::string chip = "default";        // cost-model chip profile (name or path)
  verify::VerifyOptions verify;
  nlohmann::json session_config;       // echoed into a new session workspace's campaign.json (never a key)
};

struct InteractiveRequest {
  InteractiveAction action = InteractiveAction::Propose;
  std::string program;      // the editor's program (impl body); used by Repair and Optimise
  std::string instruction;  // Ask…: a free-text instruction ("" = none)
};

struct InteractiveResult {
  int round = 0;  // the session's round number (0-based; continues an existing session log)
  InteractiveAction action = InteractiveAction::Propose;
  std::string task;
  std::string instruction;
  bool cancelled = false;
  // "" on success; "request" (bad request, no call made), "endpoint" (a call failed for a reason that is not the
  // model's answer: a wrong key, a retired model, no server; `error` names the cause and the fix; like a
  // cancelled round nothing is logged), an LLM error kind about the answer, "parse" (an answer without a
  // program), "search" (the built-in synthesizer found none), "truncated" (the answer was cut at max_tokens),
  // "internal", "io"
  std::string error_kind;
  std::string error;       // its message
  std::string input_feedback;  // what was sent with the program: diagnostics (Repair) or cost feedback (Optimise)
  std::string response;        // the model's last answer text
  std::string proposal;        // the answer's program before the guardian ("" when none)
  std::string impl;            // the verified program (after the guardian; "" when none)
  std::optional<agent::GuardResult> guard;
  std::optional<verify::Report> report;
  bool pass = false;
  std::optional<std::int64_t> cycles, baseline_cycles;
  std::optional<double> speedup;
  std::optional<bool> feasible;
  std::vector<memory::Candidate> retrieved;              // shown experiences, in prompt order
  std::vector<std::string> resident;                     // resident rule ids in the prompt
  std::map<std::string, agent::AdoptionEntry> adoption;  // retrieved id -> the model's adoption entry
  std::vector<agent::TraceEvent> traces;                 // proposer(s), guardian, verifier
  UsageByRole usage;
  double elapsed_s = 0.0;
  bool verified() const { return pass; }
};

class InteractiveSession {
 public:
  // `backend` (thread-safe, outlives the session), `prices` (optional), the proposer's manual text.
  InteractiveSession(llm::ChatBackend& backend, const llm::PriceTable* prices, std::string manual_text,
                     InteractiveOptions opt);
  ~InteractiveSession();
  InteractiveSession(const InteractiveSession&) = delete;
  InteractiveSession& operator=(const InteractiveSession&) = delete;

  // The memory of a campaign workspace (its memory.json), used read-only. False with `error` when the
  // folder has no readable memory.json.
  bool use_workspace_memory(const std::filesystem::path& dir, std::string& error);
  void set_memory(memory::MemoryStore mem);
  bool has_memory() const { return memory_ != nullptr; }

  // Appends every round's events to the session workspace `dir`: created (campaign.json with mode
  // "interactive" and a campaign_started event) when it has no campaign.json, else opened and appended to;
  // a campaign's workspace is refused (its log must stay a campaign's). Without it nothing is written.
  bool open_session_log(const std::filesystem::path& dir, std::string& error);
  std::optional<std::filesystem::path> session_dir() const;

  // One round (blocking; run it off the GUI thread). `live` receives every trace event as it happens;
  // cancelling `cancel` stops the model call at once (the round then reports cancelled and logs nothing).
  // `on_delta` (optional) streams every model call's answer as it arrives (server-sent events for the HTTP
  // backends, search progress for the builtin one).
  InteractiveResult run(const step::TaskDoc& task, const InteractiveRequest& req, const llm::CancelToken& cancel,
                        agent::TraceSink live = {}, llm::StreamCallback on_delta = {});

  // Appends the user's decision on a round ("accepted", "rejected", "restored") as an
  // `interactive_decision` event. No-op (true) without a session log.
  bool record_decision(int round, const std::string& task, const std::string& decision, std::string& error);

  int rounds() const;

 private:
  bool append_event(EventBody body, std::string& error);  // (not "emit": Qt defines that as a macro)
  std::optional<std::int64_t> baseline(const step::TaskDoc& task);

  llm::ChatBackend& backend_;
  const llm::PriceTable* prices_;
  std::string manual_;
  InteractiveOptions opt_;
  verify::Verifier verifier_;
  std::unique_ptr<cost::CostModel> cost_;
  std::unique_ptr<cost::Baselines> baselines_;
  std::unique_ptr<memory::MemoryStore> memory_;
  std::unique_ptr<store::Workspace> ws_;
  mutable std::mutex mutex_;  // one round at a time; guards the log and the counters
  std::int64_t next_seq_ = 0;
  int next_round_ = 0;
};

}  // namespace sf::learn
