// Projections (issue 21; the direction of issue 14: engine → typed events → projections → views): state
// folded from a campaign's events one event at a time with `apply(const Event&)`. They are pure: no files, no
// clock, no Qt; the same events give the same state, so a view rebuilds any position of a replay by applying
// the log's first events to a fresh projection. Each reuses the rules of the part it projects (the audit
// fold of core/store, the memory's own state changes) instead of restating them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/common/speedup.hpp"
#include "core/learn/events.hpp"
#include "core/memory/memory_store.hpp"
#include "core/store/audit.hpp"

namespace sf::learn {

// The adoption audit at a position of the log: adoption records, experiences and label events
// (store::fold_audit_event, the audit workspace loader's rule), the labels as the `audit_label` events so far
// set them, and the speedup of each round's PASS verdict (sage: iteration = episode, sample_index = round).
class AuditView {
 public:
  void apply(const Event& e);
  const store::AuditLog& log() const { return log_; }
  const store::AuditLabels& labels() const { return labels_; }
  // The speedup of the PASS verdict of (episode, task, round); nullopt when none (a FAIL, an infeasible
  // program, no baseline, an older log).
  std::optional<double> speedup(std::int64_t episode, const std::string& task, int round) const;
  // The verdict rule on its own (for readers of untyped logs): a PASS with a speedup, unless infeasible, is
  // remembered. True when it was.
  bool note_verdict(std::int64_t episode, const std::string& task, int round, bool pass,
                    std::optional<double> speedup, std::optional<bool> feasible);
  // The campaign's tie tolerance (fast_tolerance_of its campaign_started config; the default before one).
  double fast_tolerance() const { return tolerance_; }

 private:
  store::AuditLog log_;
  store::AuditLabels labels_;
  double tolerance_ = kDefaultFastTolerance;
  std::map<std::tuple<std::int64_t, std::string, int>, double> speedups_;
};

// The sage memory at a position of the log, rebuilt through memory::MemoryStore's own state changes
// (add_experience, apply_credit, count_episode, apply_access, begin_consolidation, apply_state_change), so
// utilities, counts, access estimates and states follow the memory's rules. What the events do not carry
// (an item's code example and abstracted resident form) stays empty. An item an event names before its
// `experience_added` (from an imported memory file the view was not given) appears with its id as rule text.
class MemoryView {
 public:
  // `initial`: the memory the campaign started from (its `memory.import` file) when the caller has it; the
  // campaign's parameters replace its config at campaign_started.
  explicit MemoryView(std::optional<memory::MemoryStore> initial = std::nullopt) : initial_(std::move(initial)) {}
  void apply(const Event& e);
  const memory::MemoryStore& store() const { return store_; }
  // (episode, utility after the update) per `credit` event of each item, in log order.
  const std::map<std::string, std::vector<std::pair<std::int64_t, double>>>& trajectories() const {
    return trajectories_;
  }
  bool enabled() const { return enabled_; }  // false for the memory-off ablation (a log without
                                              // campaign_started folds with the default memory)
  // The hot budget: the last `consolidation` event's, else the campaign config's.
  int budget() const { return event_budget_ >= 0 ? event_budget_ : store_.config().budget; }
  // Resident tokens: the last `consolidation` event's hot_tokens, else the sum over hot items.
  int hot_tokens() const;
  int consolidations() const { return consolidations_; }
  // The consolidation guard's rollbacks (issue 19 item 8): the step was undone, the previous resident set kept.
  using Rollback = ConsolidationRollback;
  const std::vector<Rollback>& rollbacks() const { return rollbacks_; }

 private:
  void ensure_item(const std::string& id, std::int64_t episode);

  std::optional<memory::MemoryStore> initial_;
  memory::MemoryStore store_;
  std::map<std::string, std::vector<std::pair<std::int64_t, double>>> trajectories_;
  std::map<std::int64_t, std::string> episode_task_;  // episode -> its task (episode_started / _finished)
  bool enabled_ = true;
  int consolidations_ = 0;
  int event_hot_tokens_ = -1, event_budget_ = -1;
  // The store and resident tokens before the last consolidation: a `consolidation_rollback` restores them.
  std::optional<memory::MemoryStore> before_consolidation_;
  int before_hot_tokens_ = -1;
  std::vector<Rollback> rollbacks_;
};

// One point of the learning curve: adaptive, per finished iteration, its summary's cumulative figures
// (summary_figures); sage, per finished episode: x = the episode, pass_at_1 = ER so far (solved episodes /
// finished episodes; per tag the same over the tag's episodes, in both halves of by_tag), pass_at_n = the share
// of the campaign's tasks solved so far, tokens and cost as the reader counts them when the episode finishes.
// When every task ran all its episodes, the last point's ER is the report's `er`.
// A STeP-25 optimisation campaign (dialect step-v2, opt2 = true), per opt2_round: x = the proposals made so far in
// the campaign (1, 2, …; tasks run one after another), the figures of the report (opt2_report_json, through
// synth::opt2::summarize) over the tasks started so far, each at its best speedup after the proposal (a task
// with no round yet at 1×): fast_1, fast_1_5, fast_2 (sf::faster_than with the campaign's fast_tolerance),
// median_speedup, geomean_speedup; solved = tasks with a faster program, pass_at_1 = pass_at_n = solved / tasks
// (= fast_1); verdicts = rounds so far per verdict name. When every task started, the last point's figures are
// the report's.
struct CurveFigures : SummaryFigures {
  int x = 0;  // iteration, episode, or (opt2) proposals so far
  bool opt2 = false;
  std::string task;  // opt2: the proposal's task and round (0-based)
  int round = -1;
  std::optional<double> fast_2, geomean_speedup;  // opt2 only
  std::map<std::string, int> verdicts;            // opt2: verdict name -> rounds so far
};
// {"x", "tokens", "cost_usd", "pass_at_1", "pass_at_n", "solved", "tasks", "by_tag": {tag: {"pass_at_1",
// "pass_at_n"}}, "fast_1", "fast_1_5", "median_speedup" (null when absent)}; an opt2 point adds "task", "round",
// "fast_2", "geomean_speedup", "verdicts".
nlohmann::json curve_json(const CurveFigures& p);

// The learning curve of a log, the one rule behind `campaign report --json`'s "curve" (CampaignState) and the
// GUI's curves (CampaignFeed). Tolerant: a summary or an episode needs no earlier event.
class CurveView {
 public:
  enum class Applied { None, Point, MalformedSummary };
  // `tokens`, `cost_usd`: the reader's running totals after the event (a sage point records them; an
  // adaptive point takes its summary's). Point: points().back() is new.
  Applied apply(const Event& e, std::int64_t tokens, double cost_usd);
  const std::vector<CurveFigures>& points() const { return points_; }

 private:
  std::vector<CurveFigures> points_;
  std::map<std::string, std::string> tag_of_;  // task -> tag (campaign_started)
  std::set<std::string> tasks_, solved_;       // tasks seen (listed or run), tasks with a solved episode
  std::map<std::string, std::pair<int, int>> episodes_;  // tag ("" = all) -> (finished, solved) episodes
  // opt2 (dialect step-v2): the tasks started, in order, with their best speedup so far; rounds per verdict.
  Applied apply_opt2(const Opt2Round& r, std::int64_t tokens, double cost_usd);
  double tolerance_ = kDefaultFastTolerance;
  std::vector<std::pair<std::string, double>> best_;
  std::map<std::string, int> verdicts_;
  int proposals_ = 0;
};

// A key moment of a campaign, for telling its story (issue 21 item 4).
struct Moment {
  enum class Kind { FirstSolved, DemonstrationStep, CrossTaskAdoption, Promotion, Consolidation, BestSpeedup };
  Kind kind = Kind::FirstSolved;
  std::size_t position = 0;  // events applied when it happened (its event's index + 1)
  int x = 0;                 // the iteration (sage: episode) it belongs to, for marking it on the curves
  std::string caption;       // one line for an audience
};
std::string_view moment_kind_name(Moment::Kind k);  // "first solved", "demonstration step", ...

// The story of a log: where each iteration / episode starts (for stepping a replay episode by episode) and
// the key moments: the first task solved, each new demonstration step, an experience first adopted on a task
// other than the one it was learned on, a promotion to resident memory, a consolidation that validated or
// demoted an item, a new best speedup. The story is told in order — solve, then learn, then speed up (issue 34
// item 9): a best speedup found before the first task was solved and something was learned (a demonstration
// step, a cross-task adoption, a promotion or a consolidation) waits, and the best one so far is told right
// after that moment (or when the campaign finishes). A speedup counts only when it beats the baseline, and a
// new best only when it beats the previous best, by the campaign's tie tolerance (sf::faster_than). Captions
// name tasks, never experience ids.
class StoryView {
 public:
  void apply(const Event& e);
  std::size_t position() const { return position_; }  // events applied
  // Positions (events applied) at which an iteration / episode starts, i.e. the index of its start event.
  const std::vector<std::size_t>& episode_starts() const { return starts_; }
  const std::vector<Moment>& moments() const { return moments_; }

 private:
  struct Speedup {
    double value = 0;
    int x = 0;
    std::string task, where;
  };
  void add(Moment::Kind k, int x, std::string caption);
  void learned(Moment::Kind k, int x, std::string caption);  // a learning moment, then any waiting speedup
  void tell_speedup();                                        // the waiting best speedup, if any
  // "the rule learned on T" / "the rules learned on T1, T2" / "an imported rule" for experience ids.
  std::string rules_text(const std::vector<std::string>& ids) const;

  std::size_t position_ = 0;
  std::vector<std::size_t> starts_;
  std::vector<Moment> moments_;
  bool sage_ = false, solved_any_ = false, learned_any_ = false;
  double tolerance_ = kDefaultFastTolerance;
  int step_ = 0, current_x_ = 0;
  std::optional<double> best_speedup_;      // the best speedup so far (told or waiting)
  std::optional<Speedup> waiting_speedup_;  // found before the story reached its speed-up part
  std::map<std::string, std::string> source_task_;  // experience -> the task it was learned on
  std::map<std::string, bool> adopted_elsewhere_;   // experience -> already adopted on another task
};

}  // namespace sf::learn
