// Typed campaign events (ARCHITECTURE "event log"): what the engine emits to an EventSink, the store appends
// to events.jsonl, and the GUI replays. Every line is an envelope {v, seq, t, type, ...fields}; events are
// self-contained (a verdict carries its program, a summary its per-task counts). Unknown types (e.g. the
// memory engine's adoption/credit/consolidation events) round-trip as GenericEvent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

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

struct GenericEvent {
  std::string type;
  nlohmann::json body;  // every field but the envelope
};

using EventBody = std::variant<CampaignStarted, IterationStarted, LlmCall, Verdict, IterationSummary,
                               StratificationEvent, CampaignFinished, GenericEvent>;

struct Event {
  int v = kEventVersion;
  std::int64_t seq = 0;  // 0-based position in the log
  double t = 0.0;        // seconds since the epoch (informative)
  EventBody body;
};

std::string event_type(const EventBody& b);  // "campaign_started", ..., GenericEvent::type
nlohmann::json to_json(const Event& e);
// Parses an envelope; nullopt with `error` when a known type lacks a field or has a wrong type.
std::optional<Event> event_from_json(const nlohmann::json& j, std::string& error);

nlohmann::json usage_to_json(const UsageByRole& u);
UsageByRole usage_from_json(const nlohmann::json& j);

// Receives every event as it is emitted (from the engine's threads, one at a time).
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void on_event(const Event& e) = 0;
};

}  // namespace sf::learn
