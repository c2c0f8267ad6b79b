// The campaign engine (algorithms §3, issue 6): modes single / agent / adaptive over a chat backend, with
// the filter σ, stratification β, cumulative selection and the stopping rule of Algorithm 1. It emits typed
// events to a workspace (events.jsonl, memory.json) and to an EventSink, runs samples on worker threads
// (LLM requests in flight + a bounded number of concurrent verifications), and can be paused, resumed and
// cancelled. Results depend only on the config: every sample's seed derives from (campaign seed, task,
// iteration, temperature, sample index), per-task results are ordered by sample index, and budgets are
// checked between iterations — so any concurrency, and a resumed run, give the same results.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <map>
#include <mutex>
#include <semaphore>
#include <string>
#include <thread>
#include <vector>

#include "core/agent/agent_types.hpp"
#include "core/cost/baseline.hpp"
#include "core/cost/cost_model.hpp"
#include "core/learn/config.hpp"
#include "core/learn/engine_state.hpp"
#include "core/learn/events.hpp"
#include "core/learn/novelty.hpp"
#include "core/llm/chat_backend.hpp"
#include "core/llm/price_table.hpp"
#include "core/step/task.hpp"
#include "core/store/golden.hpp"
#include "core/verify/verifier.hpp"

namespace sf::store {
class Workspace;
}
namespace sf::memory {
class MemoryStore;
}
namespace sf::synth::opt2 {
struct Opt2Task;
struct TaskRun;
struct RuleBank;
}

namespace sf::learn {

// hash(campaign seed, task, iteration, temperature, sample index): FNV-1a 64 over the fields, SplitMix64
// finaliser, reduced to 31 bits (APIs take a signed 32-bit seed).
std::uint64_t sample_seed(std::uint64_t seed, std::string_view task, int iteration, double temperature,
                          int sample_index);

// Adds one role call's tokens and cost to `into` under its role (a call counts when it sent a prompt).
void add_trace_usage(UsageByRole& into, const agent::TraceEvent& t);

struct EngineDeps {
  llm::ChatBackend* backend = nullptr;          // required; thread-safe
  const llm::PriceTable* prices = nullptr;      // optional (cost 0 for unpriced models)
  std::string manual_text;                      // the proposer's static prefix
  std::vector<step::TaskDoc> tasks;             // the campaign's tasks in campaign order (resolve_tasks)
  verify::VerifyOptions verify;
};

struct EngineProgress {
  int iteration = -1;             // the iteration running (-1 before the first)
  std::int64_t done = 0, total = 0;  // samples of that iteration
  std::int64_t samples = 0;       // samples finished in the whole campaign
  double elapsed_s = 0.0;         // this process
  double eta_s = -1.0;            // of the current iteration; -1 unknown
  int solved = 0, tasks = 0;
  bool running = false, paused = false;
};

// Paused: the campaign stopped by itself before its end and `campaign resume` continues it exactly (an
// endpoint that fails for a reason that is not the model's answer, or a budget the next call could exceed).
enum class RunStatus { Finished, Cancelled, Failed, Paused };

struct RunResult {
  RunStatus status = RunStatus::Failed;
  std::string reason;  // the stop reason when finished; when paused "infrastructure" or "budget"
  std::string error;   // when failed; when paused the cause and the fix
};

class CampaignEngine {
 public:
  // `ws` (optional) receives every event (appended and flushed per event, fsync per iteration) and the
  // memory.json snapshots; `sink` (optional) receives every event too.
  CampaignEngine(CampaignConfig cfg, EngineDeps deps, store::Workspace* ws = nullptr, EventSink* sink = nullptr);
  ~CampaignEngine();  // cancels and joins a running campaign
  CampaignEngine(const CampaignEngine&) = delete;
  CampaignEngine& operator=(const CampaignEngine&) = delete;

  // Replays logged events (resume). Call before start(). False with `error` for an inconsistent log or one
  // that belongs to a different config or task list.
  bool load(const std::vector<nlohmann::json>& events, std::string& error);

  // Verdicts reused instead of verifying a task's program again (novelty of verification, docs/learn.md).
  std::int64_t reused_verdicts() const { return verdicts_.hits(); }

  void start();   // runs on a background thread
  void pause();   // no new sample starts until resume(); samples in flight finish
  void resume();
  void cancel();  // stops as soon as possible; unfinished samples are not logged (resume re-issues them)
  RunResult wait();
  RunResult run() {
    start();
    return wait();
  }

  EngineProgress progress() const;
  // Only while no campaign runs (before start() or after wait()).
  const CampaignState& state() const { return state_; }

 private:
  struct Sample {
    const step::TaskDoc* task;
    int temperature_index;
    double temperature;
    int sample_index;
  };
  RunResult loop();  // checks the deps, then runs classic_loop() or sage_loop()
  // Modes single / agent / adaptive (engine_classic.cpp): iterations until the stopping rule of Algorithm 1.
  RunResult classic_loop();
  bool log_event(EventBody body, std::string& error);
  bool run_iteration(IterationRecord& rec, std::string& error);
  // False when the sample was not logged (cancelled, or dropped for an infrastructure failure).
  // `order`: the sample's position in the iteration's sample order (the order it is logged in).
  // Config novelty: per task, the last cfg_.novelty distinct failed programs of the iterations before `iteration`
  // (never this one's, whose samples run concurrently: the prompts do not depend on timing or on a resume).
  std::map<std::string, std::vector<std::string>> tried_before(int iteration) const;
  bool run_sample(const Sample& s, std::size_t order, int iteration, const agent::PromptInput& base,
                  const std::map<std::string, std::vector<std::string>>& tried, std::string& error);
  // Infrastructure failures (docs/campaign.md): true when a call in `traces` failed for a reason that is not
  // the model's answer, so the sample is dropped, never a verdict; a non-retryable failure, or the K-th
  // transient one in a row, halts the campaign (no new sample starts; the run ends paused).
  bool infrastructure_failure(const std::vector<agent::TraceEvent>& traces);
  void halt(std::string kind, std::string message);
  bool halted() const { return halt_.load(); }
  // The paused result (and a campaign_paused event in the log) after a halt.
  RunResult paused_result();
  IterationSummary summarize(const IterationRecord& rec) const;
  bool plan_next(bool& finished, std::string& error);
  bool budget_spent() const;
  const step::TaskDoc* find_task(const std::string& id) const;
  void write_memory();
  // The role context of one call sequence: model, limits, prices, cancel token; every trace goes to `traces`.
  // Budget estimates (tokens, cost) of the calls a sample or round made that are not logged yet.
  struct Reservation {
    std::int64_t tokens = 0;
    double cost = 0.0;
  };
  // With `res`, the context's calls pass the budget gate (admit_call) and reserve their estimates in `res`.
  agent::RoleContext role_context(const std::string& task, int iteration, int round,
                                  std::vector<agent::TraceEvent>& traces, Reservation* res = nullptr);
  // Budgets are hard caps (docs/campaign.md "Budgets"): false, and a halt, when the next call could exceed
  // budget.tokens / cost_usd (spent + reserved + this call's upper bound: prompt characters / 4 + max_tokens)
  // or budget.wall_s is used up.
  bool admit_call(const llm::ChatRequest& req, Reservation* res, std::string& why);
  void release(Reservation& res);
  // Releases a sample's reservation when it goes out of scope (after its events are logged).
  struct ReservationHold {
    CampaignEngine& engine;
    Reservation res;
    ~ReservationHold() { engine.release(res); }
  };
  // Mode sage (sage_engine.cpp): refinement episodes with the adoption-aware memory (algorithms §4).
  RunResult sage_loop();
  bool sage_episode(int episode, const step::TaskDoc& task, memory::MemoryStore* mem, bool& cancelled,
                    std::string& error);
  bool sage_memory_phase(int episode, memory::MemoryStore& mem, int skip, std::string& error);
  void wait_if_paused();
  // Dialect step-v2 (engine_opt2.cpp): optimisation rounds on STeP-25 tasks through the chat backend.
  RunResult opt2_loop();
  // One proposal: the k retrieved rules, the round prompt sent through the backend, the answer read and judged.
  // `out` is the round's event (not logged: the caller logs it, or folds it into a transfer bank); the calls go
  // to `traces`. False when the call failed for a reason that is not the model's answer (the round is no
  // proposal: the campaign halts or was cancelled).
  bool opt2_round(const synth::opt2::Opt2Task& t, int round, std::uint64_t seed,
                  const synth::opt2::TaskRun& run, const synth::opt2::RuleBank& bank, Opt2Round& out,
                  std::vector<agent::TraceEvent>& traces);
  // The bank a campaign starts from: empty, memory.import, or built on the memory.transfer_from split.
  bool opt2_start_bank(const std::vector<synth::opt2::Opt2Task>& tasks, std::string& error);
  // The cost model's cycles, speedup and feasibility of a passing verdict (no-op on a FAIL); the report
  // when it could time the program.
  std::optional<cost::CostReport> measure(const step::TaskDoc& task, Verdict& v);
  // The task's baseline cycles (nullopt without a reference solution).
  std::optional<std::int64_t> baseline_cycles(const step::TaskDoc& task);

  CampaignConfig cfg_;
  EngineDeps deps_;
  store::Workspace* ws_;
  EventSink* sink_;
  verify::Verifier verifier_;
  // One cost model (the config's chip) and its baselines; cost_error_ is set when the chip cannot be found.
  std::unique_ptr<cost::CostModel> cost_;
  std::unique_ptr<cost::Baselines> baselines_;
  std::string cost_error_;
  // demos.golden: the golden set, loaded when the loop starts; its demonstrations precede the iteration's.
  store::GoldenSet golden_;
  std::counting_semaphore<256> verify_slots_;
  // Novelty (issue 19 item 9): a program verified once per task (and input sets) is not verified again.
  VerdictCache verdicts_;
  llm::CancelToken cancel_;

  CampaignState state_;
  std::mutex emit_mu_;
  std::mutex emit_mu_outer_;  // keeps a sample's calls and verdict adjacent in the log; guards the fields below
  // Adaptive samples reach the log in the iteration's sample order, whatever order they finish in (issue 19
  // item 1): a finished sample waits here, with its budget reservation, until every earlier one is logged.
  struct FinishedSample {
    std::vector<LlmCall> calls;
    Verdict verdict;
    Reservation res;
  };
  std::map<std::size_t, FinishedSample> finished_samples_;  // by position in the iteration's sample order
  std::size_t next_to_log_ = 0;
  // Logs the finished samples from next_to_log_ on while they are contiguous (all of them with `all`, in
  // order, skipping the gaps of samples that were never finished). Call with emit_mu_outer_ held.
  bool log_finished_samples(bool all, std::string& error);
  std::string emit_error_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool paused_ = false;
  std::thread thread_;
  bool started_ = false;
  RunResult result_;

  std::chrono::steady_clock::time_point t0_;
  std::atomic<int> cur_iteration_{-1};
  std::atomic<std::int64_t> done_{0}, total_{0}, done_run_{0}, samples_{0};
  std::atomic<int> solved_{0};
  std::atomic<bool> running_{false};
  std::atomic<bool> halt_{false};
  std::string halt_kind_, halt_message_;  // under mu_
  std::atomic<int> consecutive_failures_{0};
  std::mutex budget_mu_;  // guards pending_*
  std::int64_t pending_tokens_ = 0;
  double pending_cost_ = 0.0;
  std::chrono::steady_clock::time_point iter_t0_;
  std::atomic<std::int64_t> iter_start_done_{0};
};

}  // namespace sf::learn
