// The campaign state as a fold over its events (ARCHITECTURE: the event log is the single source of truth).
// The engine applies every event it emits; resume applies the logged events and continues; reports and the
// GUI's models are built the same way, so a live, a resumed and a recorded run look the same.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/speedup.hpp"
#include "core/learn/events.hpp"
#include "core/learn/opt2_state.hpp"
#include "core/learn/projections.hpp"
#include "core/learn/sage_state.hpp"

namespace sf::learn {

struct SolvedTask {
  std::string task;
  int c = 0;
  int iteration = 0;
  std::string impl, canonical_key;
  int program_length = 0;
  std::optional<std::int64_t> cycles;  // the cost model's cycles of impl (adaptive: when timed and feasible)
};

struct IterationRecord {
  IterationStarted start;
  std::map<std::tuple<std::string, int, int>, Verdict> verdicts;  // (task, temperature index, sample index)
  std::optional<IterationSummary> summary;
  std::int64_t planned() const {
    return static_cast<std::int64_t>(start.tasks.size() * start.temperatures.size()) * start.n;
  }
};

// A task's fastest correct feasible program (docs/learn.md "Cost"): fewest cycles; ties go to the shorter,
// then the lexicographically smaller text, so the result does not depend on the order verdicts arrive in.
struct FastestProgram {
  std::int64_t cycles = 0;
  std::optional<double> speedup;  // nullopt when the task has no baseline
  std::string impl;
  int iteration = 0;  // iteration (episode in mode sage) of the verdict
  bool suspicious() const { return speedup && *speedup > 10.0; }  // cost-model spec §6
};
// Offers a verdict to `m` (only a PASS that is feasible and timed counts). True when it became the fastest.
bool offer_fastest(std::map<std::string, FastestProgram>& m, const Verdict& v);
// {"fast_1", "fast_1_5", "median_speedup"} over `tasks`: the share of tasks whose fastest program is faster than
// 1× / 1.5× under the tie tolerance (sf::faster_than: speedup ≥ p · (1 + tolerance); 0 with no task), and the
// median of the solved tasks' best speedups (null when none).
nlohmann::json speed_metrics(const std::vector<TaskInfo>& tasks, const std::map<std::string, FastestProgram>& m,
                             double tolerance = kDefaultFastTolerance);

// Sample diversity (issue 19 item 10): distinct canonical programs among samples, among failures and among
// successes. Canonical keys identify programs up to alpha-renaming (verify::Report::canonical_key); a sample
// without one (no program, or one that did not parse) adds nothing. Keys are per task: over several tasks,
// add the per-task counts (programs of different tasks are different programs).
struct Diversity {
  std::set<std::string> programs, failed, passed;
  void add(const Verdict& v);
  // {"programs": n, "failed": n, "passed": n}
  nlohmann::json to_json() const;
};
// The same counts summed over tasks: {"programs", "failed", "passed"}.
nlohmann::json diversity_json(const std::vector<const Diversity*>& per_task);

struct TaskTotals {
  std::int64_t samples = 0, successes = 0;
  Diversity diversity;
  void count(const Verdict& v);  // one more sample
};

class CampaignState {
 public:
  // Applies one event. Returns false with `error` when it contradicts the state (e.g. a verdict outside an
  // open iteration); the state is unchanged then.
  bool apply(const Event& e, std::string& error);

  bool started = false;
  nlohmann::json config;
  std::vector<TaskInfo> tasks;
  std::vector<IterationRecord> iterations;
  std::vector<SolvedTask> solved;       // D, in the order the tasks were solved
  std::map<std::string, int> best_c;    // best c per task over all iterations
  std::map<std::string, TaskTotals> totals;  // all verdicts per task
  std::map<std::string, FastestProgram> fastest;  // per task: its fastest correct feasible program
  UsageByRole usage;                    // all verdicts, per role
  double wall_s = 0.0;                  // sum of the iterations' wall times
  std::optional<StratificationEvent> stratification;
  std::optional<CampaignFinished> finished;
  std::int64_t next_seq = 0;
  SageState sage;  // mode sage: episodes, memory events (verdicts go here instead of iterations)
  Opt2State opt2;  // dialect step-v2: the optimisation rounds and the rule bank (instead of episodes)

  bool is_sage() const;
  bool is_opt2() const;  // a STeP-25 optimisation campaign (config "dialect": "step-v2")
  int episodes_per_task() const;  // mode sage: memory.episodes (1 when absent)

  IterationRecord* open_iteration();  // the last iteration when it has no summary yet
  bool is_solved(const std::string& task) const;
  std::vector<std::string> unsolved() const;  // X, in campaign order
  std::int64_t total_tokens() const;
  double total_cost() const;
  int n() const;  // samples per task; episodes per task in mode sage
  // The learning curve so far (CurveView over the applied events, tokens and cost from the totals above).
  const std::vector<CurveFigures>& curve() const { return curve_.points(); }

 private:
  CurveView curve_;
};

// The metrics of algorithms §3 over per-task counts (tasks without a count count as c = 0): pass@1, pass@n,
// pass@k for k = 1, 2, 4, … < n and n, broken down by tag and group. {"tasks", "solved", "pass_at_1",
// "pass_at_n", "pass_at_k": {"1": …}, "by_tag": {tag: {tasks, solved, pass_at_1, pass_at_n}}, "by_group": …}.
nlohmann::json completion_metrics(const std::vector<TaskInfo>& tasks, const std::map<std::string, int>& c, int n);

// The campaign report (`stepforge-cli campaign report --json`): per-task counts, final metrics, pass@k table,
// "curve" (CampaignState::curve(), the points the GUI plots),
// learning curve (one entry per finished iteration), usage; a sage run adds sage_report_json's fields at the top
// level (er, rounds_to_first_correct, episodes, utility_trajectories, memory, ...). Deterministic fields only, except `wall_s`.
nlohmann::json report_json(const CampaignState& s);
// The learning curve as CSV (header + one row per finished iteration; mode sage: one row per finished episode,
// episode,task,rounds,first_correct_round,solved,score).
std::string report_csv(const CampaignState& s);

}  // namespace sf::learn
