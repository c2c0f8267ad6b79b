// Typed campaign events (ARCHITECTURE "event log"): what the engine emits to an EventSink, the store appends
// to events.jsonl, and the GUI replays. Every line is an envelope {v, seq, t, type, ...fields}; events are
// self-contained (a verdict carries its program, a summary its per-task counts). Every kind a StepForge
// writes is a struct here with one encoder and one decoder (events.cpp; the audit kinds' own in core/store);
// the field contract is in docs/learn.md. A kind this version does not know (from a newer file) is kept as
// UnknownEvent, round-trips unchanged and is skipped by every fold.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/store/audit.hpp"

namespace sf::learn {

inline constexpr int kEventVersion = 1;

struct TaskInfo {
  std::string id, group, tag;  // tag: difficulty_tag() ("Once-C", ..., "untagged")
};

// Tokens and cost of one role.
struct RoleUsage {
  std::int64_t input_tokens = 0, output_tokens = 0, calls = 0;
  double cost_usd = 0.0;
  void add(const RoleUsage& o) {
    input_tokens += o.input_tokens;
    output_tokens += o.output_tokens;
    calls += o.calls;
    cost_usd += o.cost_usd;
  }
};
using UsageByRole = std::vector<std::pair<std::string, RoleUsage>>;  // role -> usage, in first-seen order
void add_usage(UsageByRole& into, const std::string& role, const RoleUsage& u);

struct CampaignStarted {
  nlohmann::json config;  // the full config echo (never a key: only the variable name)
  std::vector<TaskInfo> tasks;
};

struct IterationStarted {
  int iteration = 0;
  int step = 0;   // selection step j (0 for iteration 0)
  int steps = 0;  // selection_steps() of the stratification in use (0 for iteration 0)
  std::vector<std::string> demos;  // demonstration task ids, hardest first
  std::vector<double> temperatures;
  std::vector<std::string> tasks;  // the tasks sampled (X), in campaign order
  int n = 0;                       // samples per task and temperature
};

// One role call (the agent TraceEvent JSON) of one sample.
struct LlmCall {
  int iteration = 0;
  std::string task;
  int temperature_index = 0;
  int sample_index = 0;
  nlohmann::json trace;
};

struct Verdict {
  int iteration = 0;
  std::string task;
  int temperature_index = 0;
  double temperature = 0.0;
  int sample_index = 0;
  std::uint64_t seed = 0;
  bool pass = false;
  std::string stage, code;  // "" on pass; stage "llm" / code = error kind when the model call failed
  std::string canonical_key;
  int program_length = 0;
  std::string impl;   // the verified program (after the guardian), "" when none
  std::string error;  // LLM error or why nothing was verified
  UsageByRole usage;  // tokens and cost of this sample's calls, per role
  // The cost model's view of a PASS (docs/learn.md "Cost"); absent in logs written before it, and on a FAIL
  // or when the model could not time the program. speedup: absent without a baseline or when infeasible.
  std::optional<std::int64_t> cycles;
  std::optional<double> speedup;
  std::optional<bool> feasible;
};

struct TaskResult {
  std::string task;
  int c = 0;                  // best count over the iteration's temperatures
  std::vector<int> c_by_temperature;
  bool newly_solved = false;  // moved from X to D by this iteration
  // For newly solved tasks: σ's shortest representative.
  int best_temperature_index = 0, best_sample_index = 0, best_length = 0, groups = 0;
  std::string best_impl, best_key;
  std::optional<std::int64_t> best_cycles;  // the cost model's cycles of best_impl (when timed and feasible)
};

struct IterationSummary {
  int iteration = 0;
  int step = 0;
  std::vector<TaskResult> results;  // in the iteration's task order
  int newly_solved = 0;
  nlohmann::json metrics;  // see engine_state.hpp (iteration + cumulative metrics)
  double wall_s = 0.0;     // this iteration's wall time (this process)
};

struct StratificationEvent {
  int iteration = 0;  // the iteration whose demonstrations come from it
  std::vector<std::vector<std::string>> levels;  // task ids, hardest level first
  std::vector<int> thresholds;
};

struct CampaignFinished {
  std::string reason;  // stop_reason_name, or "done" (single / agent)
  int iterations = 0;
  int tasks = 0, solved = 0;
};

// ---- sage episodes and the memory phase (docs/learn.md "Sage events") ----

struct EpisodeStarted {
  int episode = 0;  // 0-based, campaign-wide
  std::string task;
  int max_rounds = 0;
  bool interactive = false;  // a round of the editor's agent session (docs/agents.md)
  std::string action;        // its action ("propose", "repair", ...); "" in campaigns
};

// One retrieved item of one round (store::AdoptionEntry: the audit's record, one decoder for both).
using AdoptionRecord = store::AdoptionEntry;

struct EpisodeFinished {
  int episode = 0;
  std::string task;
  double score = 0.0;
  int rounds = 0;
  int first_correct_round = -1;  // -1: none
  bool solved = false;
};

// A new cold-memory experience (store::ExperienceEntry).
using ExperienceAdded = store::ExperienceEntry;

struct CreditEvent {
  int episode = 0;
  std::string item;
  bool adopted = false;
  double credit = 0.0, eta = 0.0, utility_before = 0.0, utility_after = 0.0;
  std::optional<int> n_updates;  // absent in a hand-written log: the item's count plus one
};

struct AccessUpdate {
  int episode = 0;
  std::string item;
  bool used = false;
  double access_before = 0.0, access_after = 0.0;
};

// An item whose state a consolidation changed, with the value it was judged by and its tokens.
struct ItemChange {
  std::string item;
  double value = 0.0;
  int tokens = 0;
};

struct Consolidation {
  int episode = 0;
  std::vector<ItemChange> validated, promoted, demoted;
  std::vector<std::string> abstraction_failed;
  int hot_tokens = 0, budget = 0;
};

// The consolidation guard undid a UGC step (issue 19).
struct ConsolidationRollback {
  int episode = 0;
  std::int64_t hot_tokens_before = 0, hot_tokens_after = 0;
  std::vector<std::string> lost_adopted;
};

// An auditor's label (written by the audit pane and `audit label`; store::AuditLabelEntry).
using AuditLabel = store::AuditLabelEntry;

// ---- run control and the editor's agent ----

// A result that depended on wall time (kind "timeout": a model call hit a wall-clock limit).
struct Warning {
  std::string kind, task;
  int iteration = 0, sample_index = 0;
  std::string message;
};

// The campaign paused on an infrastructure failure (docs/campaign.md): kind and the message shown.
struct CampaignPaused {
  std::string kind, message;
};

// One round of the editor's agent (docs/agents.md): the request and what came back.
struct InteractiveRound {
  int round = 0;
  std::string task, action, instruction, program, feedback, proposal, impl;
  bool pass = false;
  std::string error;
  double elapsed_s = 0.0;
  std::optional<std::string> guardian_action, guardian_diff;
  std::optional<std::int64_t> cycles;
  std::optional<double> speedup;
};

// The expert's decision on an interactive round's proposal ("accepted", "rejected", ...).
struct InteractiveDecision {
  int round = 0;
  std::string task, decision;
};

// ---- STeP-25 optimisation campaigns (dialect step-v2; docs/campaign.md "STeP-25 optimisation campaigns") ----

// The rule bank the campaign starts from (empty, imported from a file, or built on a task split first), as
// synth::opt2::bank_to_json; `frozen`: no rule is added and no credit moves.
struct Opt2Bank {
  std::string source;  // "empty", "import <file>", "transfer odd"
  bool frozen = false;
  nlohmann::json bank;
};

// The judgement of one program (the baseline's or a round's answer) as the log keeps it.
struct Opt2Judgement {
  std::string verdict;  // synth::opt2::verdict_name
  std::string detail;   // the C-* code of an infeasible answer, the stage of an incorrect one
  std::int64_t cycles = 0;
  double pct_of_peak = 0.0;
  std::string bottleneck;            // the busiest node's limit
  std::vector<std::string> busiest;  // statement targets, busiest first
  std::string perf_text;             // the compact report the next round shows
};

// A task starts: its baseline judged.
struct Opt2TaskStarted {
  std::string task;
  std::string sizes;  // "M=256 N=256" (context of the rules distilled on it)
  Opt2Judgement baseline;
};

struct Opt2Move {
  std::string key, what, rule;  // "tile N*2", the answer's line, the rule it followed ("" none)
};

// One proposal of a task: what was retrieved, what the answer did and adopted, its verdict, and the task's best
// after it (a failed or slower round never replaces the best).
struct Opt2Round {
  std::string task;
  int round = 0;
  std::vector<std::string> retrieved, adopted;
  std::vector<Opt2Move> moves;
  Opt2Judgement judgement;
  std::string impl;  // the answer's program ("" when none)
  std::int64_t best_cycles = 0;
  double best_speedup = 1.0;
};

// A kind this version does not know, kept as read (every field but the envelope).
struct UnknownEvent {
  std::string type;
  nlohmann::json body;
};

using EventBody =
    std::variant<CampaignStarted, IterationStarted, LlmCall, Verdict, IterationSummary, StratificationEvent,
                 CampaignFinished, EpisodeStarted, AdoptionRecord, EpisodeFinished, ExperienceAdded, CreditEvent,
                 AccessUpdate, Consolidation, ConsolidationRollback, AuditLabel, Warning, CampaignPaused,
                 InteractiveRound, InteractiveDecision, Opt2Bank, Opt2TaskStarted, Opt2Round, UnknownEvent>;

struct Event {
  int v = kEventVersion;
  std::int64_t seq = 0;  // 0-based position in the log
  double t = 0.0;        // seconds since the epoch (informative)
  EventBody body;
};

std::string event_type(const EventBody& b);  // "campaign_started", ..., UnknownEvent::type
nlohmann::json to_json(const Event& e);
// Parses an envelope; nullopt with `error` when a known type lacks an identity field (the sample, episode,
// item or round an event is about) or has a field of the wrong type. Other fields may be absent or null
// (hand-written and older logs): they keep their defaults; the cost-model fields of a verdict (cycles,
// speedup, feasible) of another type read as absent. "v" defaults to kEventVersion, "type" is required.
std::optional<Event> event_from_json(const nlohmann::json& j, std::string& error);

// The read boundary of a log (the workspace reader, a followed log, a hand-written list): decodes every
// envelope once, in order; an envelope that does not decode is left out and counted in `malformed`.
std::vector<Event> decode_events(const std::vector<nlohmann::json>& envelopes, std::int64_t* malformed = nullptr);

// The config echo's name, mode and backend model, for titles ("" when absent or not a string).
struct CampaignHeader {
  std::string name, mode, model;
};
CampaignHeader campaign_header(const CampaignStarted& e);

// A whole events.jsonl (store::read_event_log) decoded once: false with `error` when it cannot be read.
bool read_events(const std::filesystem::path& file, std::vector<Event>& out, std::int64_t& malformed,
                 std::string& error);

// What the trace pane shows of one agent call, read from an LlmCall::trace (agent::to_json(TraceEvent)). Absent
// or null fields are empty; a field of another type makes the call malformed (nullopt with `error`).
struct CallView {
  struct Diag {
    std::string code, message;
    int line = 0, column = 0;
  };
  std::string role;
  std::int64_t input_tokens = 0, output_tokens = 0;
  double latency_s = 0.0, cost_usd = 0.0;
  bool from_cache = false;
  std::string error_kind, error_message;  // the LLM error ("" none)
  nlohmann::json prompt;  // the prompt as logged: messages, or parts naming blobs (null when not an array)
  std::string response, impl, guardian_diff, reasoning, finish_reason;
  std::vector<std::string> rules_used;  // the strings of the list, at most kMaxRulesUsed
  std::vector<Diag> diagnostics;
  static constexpr std::size_t kMaxRulesUsed = 64;
};
std::optional<CallView> call_view(const nlohmann::json& trace, std::string& error);

// The figures of an IterationSummary's metrics (engine_state.hpp) a learning curve plots: the cumulative ones,
// the performance metrics cumulative when present, else the iteration's own (absent in older logs, null or
// of another type: none). Missing figures are 0; a figure of another type makes the summary malformed.
struct SummaryFigures {
  std::int64_t tokens = 0;  // metrics.tokens.total
  double cost_usd = 0.0;
  double pass_at_1 = 0.0, pass_at_n = 0.0;
  int solved = 0, tasks = 0;
  std::vector<std::pair<std::string, std::pair<double, double>>> by_tag;  // tag -> (pass@1, pass@n)
  std::optional<double> fast_1, fast_1_5, median_speedup;
};
std::optional<SummaryFigures> summary_figures(const IterationSummary& s, std::string& error);

nlohmann::json usage_to_json(const UsageByRole& u);
UsageByRole usage_from_json(const nlohmann::json& j);

// Receives every event as it is emitted (from the engine's threads, one at a time).
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void on_event(const Event& e) = 0;
};

}  // namespace sf::learn
