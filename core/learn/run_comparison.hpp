// Run comparison drill-down (issue 20 item 1): the per-task numbers of one campaign run, the samples of a task
// with their calls, and the one program that stands for a task in a run. Everything is folded from the
// workspace's typed events through CampaignState (the report's fold), so the GUI's task x run grid, the
// drill-down and `campaign report` count the same way.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/speedup.hpp"
#include "core/learn/engine_state.hpp"

namespace sf::store {
class Workspace;
}

namespace sf::learn {

// Folds the events a workspace loaded into `st` (and collects its agent calls when `calls` is given); false
// with "DIR/events.jsonl: event N: why" when one cannot be read or contradicts the state.
bool fold_workspace(const store::Workspace& ws, CampaignState& st, std::string& error,
                    std::vector<LlmCall>* calls = nullptr);
// Opens a workspace read-only and folds it (the workspace's own error when it cannot be opened).
bool load_campaign_state(const std::filesystem::path& dir, CampaignState& st, std::string& error,
                         std::vector<LlmCall>* calls = nullptr);

// One campaign run as the comparison needs it: the fold and the agent calls of every sample.
struct RunRecord {
  std::filesystem::path dir;
  std::string name, mode;  // the config's name and mode
  double fast_tolerance = kDefaultFastTolerance;  // the config's tie tolerance (fast_tolerance_of)
  CampaignState state;
  // (iteration or sage episode, task, temperature index, sample index or sage round) -> the calls' traces
  // (agent TraceEvent JSON), in log order.
  std::map<std::tuple<int, std::string, int, int>, std::vector<nlohmann::json>> calls;
};
// Reads a workspace into a RunRecord; nullopt with `error` as load_campaign_state.
std::optional<RunRecord> load_run(const std::filesystem::path& dir, std::string& error);

// The numbers of one task in one run (one cell of the grid).
struct TaskRunStats {
  std::string task;
  bool attempted = false;  // the run has at least one verdict of the task
  bool solved = false;
  std::int64_t samples = 0, successes = 0;
  // pass@1 as the report computes it (algorithms §3): the task's best count c over n (sage: solved episodes
  // over episodes per task).
  double pass1 = 0;
  // Samples drawn up to and including the first correct one, in sample order (iteration, temperature index,
  // sample index; sage: episode, round); nullopt when none is correct.
  std::optional<std::int64_t> samples_to_first_correct;
  std::int64_t tokens = 0;  // input + output tokens of the task's samples (every role)
  double cost_usd = 0;
  // The task's fastest correct feasible program (CampaignState::fastest); absent without the cost model.
  std::optional<std::int64_t> best_cycles;
  std::optional<double> best_speedup;
};

// The task's verdicts in sample order (the order samples_to_first_correct counts in). Sage: the rounds of
// finished episodes (as the report's totals).
std::vector<const Verdict*> task_verdicts(const CampaignState& s, const std::string& task);
// One cell; `attempted` is false (and the numbers zero) for a task the run never sampled.
TaskRunStats task_run_stats(const CampaignState& s, const std::string& task);
// Every task of the run, in campaign order.
std::vector<TaskRunStats> task_run_stats(const CampaignState& s);

// The rule of "show only tasks that differ": the runs disagree on whether the task was attempted or solved,
// or on its pass@1. A task missing from a run (nullptr) differs from one that is present.
bool task_differs(const std::vector<const TaskRunStats*>& cells);

// A cell against the baseline run's cell of the same task (b - a for each number; an absent number on either
// side gives no delta).
struct TaskRunDelta {
  double pass1 = 0;
  std::int64_t tokens = 0;
  double cost_usd = 0;
  std::optional<std::int64_t> samples_to_first_correct;
  std::optional<double> best_speedup;
};
TaskRunDelta task_run_delta(const TaskRunStats& baseline, const TaskRunStats& cell);

// One sample of a task with its calls (drill-down).
struct TaskSample {
  Verdict verdict;
  std::vector<nlohmann::json> calls;  // RunRecord::calls of the sample
};
std::vector<TaskSample> task_samples(const RunRecord& r, const std::string& task);

// The program that stands for the task in a run (the program diff of two cells): its fastest correct feasible
// program, else the program that solved it, else the last program a sample produced (a failing one); nullopt
// when no sample produced a program.
struct RepresentativeProgram {
  std::string impl;
  std::string why;  // "fastest correct", "first correct", "last sample (fails: STAGE CODE)"
  int iteration = 0;  // of the verdict it comes from (sage: episode); -1 when unknown
};
std::optional<RepresentativeProgram> representative_program(const CampaignState& s, const std::string& task);

// The best-speedup curve of a run (issue 33 item 6): after each proposal (a verified sample, in the order
// run_verdicts gives), the median over the tasks that have a correct feasible timed program so far of each
// task's best speedup (the report's median_speedup, CampaignState::fastest's rule), one point where the median
// changes and one at the last proposal. Empty when no verdict of the run has a speedup (no cost model). A
// STeP-25 optimisation campaign (dialect step-v2) gives its report's curve instead: per proposal of each task
// (x = the round), the median over all its tasks of their best speedups (a task not improved counts as 1x).
struct SpeedupCurvePoint {
  std::int64_t proposals = 0;  // samples verified so far (1-based: the proposal that moved the median); step-v2:
                               // proposals per task
  int iteration = 0;           // of that proposal (sage: episode)
  double median_best = 0;      // median over `tasks` of the best speedup
  int tasks = 0;               // tasks with a speedup so far
  bool operator==(const SpeedupCurvePoint&) const = default;
};
// Every verdict of the run in sample order: classic iterations in order (in each, by task, temperature index,
// sample index); sage episodes in order, their rounds (finished episodes only, as task_verdicts).
std::vector<const Verdict*> run_verdicts(const CampaignState& s);
std::vector<SpeedupCurvePoint> best_speedup_curve(const CampaignState& s);

// The memory-off baseline of a sage campaign (issue 34 item 9): the run a demo draws under the sage curve so
// that an audience sees what the memory adds. A baseline is a sibling workspace (same parent folder: two
// `campaign run --out runs/…` of one config, or the cells of a `campaign sweep`) whose campaign.json is the
// same sage campaign with `memory.enabled` false: equal config once `name`, `note` and the `memory` object are
// set aside (so the tasks, seed, backend, budgets and rounds match). Reads campaign.json files only, at most
// kMaxBaselineSiblings folders.
inline constexpr int kMaxBaselineSiblings = 512;
// True when `candidate` (a config echo) is the memory-off run of `config` (a sage config with memory on).
bool is_memory_off_baseline(const nlohmann::json& config, const nlohmann::json& candidate);
// The memory-off baseline of the sage workspace `dir`: the first matching sibling in name order; nullopt when
// `dir` is no sage campaign with memory on, or no sibling matches.
std::optional<std::filesystem::path> memory_off_baseline(const std::filesystem::path& dir);

}  // namespace sf::learn
