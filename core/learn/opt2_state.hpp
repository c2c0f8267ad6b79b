// A STeP-25 optimisation campaign (dialect step-v2; docs/campaign.md "STeP-25 optimisation campaigns") as a fold
// over its events: the rule bank it started from (opt2_bank), each task's baseline (opt2_task) and every round
// (opt2_round), replayed through synth::opt2::apply_round — the function the live round folds with — so a live,
// a resumed and a replayed campaign have the same bank, credit and best programs. `campaign report` of such a
// campaign is opt2_report_json over this fold.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/learn/config.hpp"
#include "core/learn/events.hpp"
#include "core/synth/opt2_campaign.hpp"

namespace sf::learn {

// The optimiser's settings of a step-v2 campaign: memory.rounds proposals per task, the seed, memory.enabled,
// memory.credit (atu / uniform), memory.k slots, fast_tolerance.
synth::opt2::Opt2Config opt2_config(const CampaignConfig& c);

synth::opt2::Judgement judgement_from(const Opt2Judgement& e);
Opt2Judgement judgement_event(const synth::opt2::Judgement& j);
// The answer a logged round folds (no program: not ok).
synth::opt2::Proposal proposal_from(const Opt2Round& e);

struct Opt2State {
  synth::opt2::Opt2Config cfg;
  bool bank_set = false;
  std::string bank_source;
  synth::opt2::RuleBank bank;
  std::vector<synth::opt2::TaskRun> runs;  // in the order the tasks started

  // From the campaign_started config echo; false with `error` when it is no valid config.
  bool configure(const nlohmann::json& config, std::string& error);
  // Applies opt2_bank / opt2_task / opt2_round; false with `error` when the event contradicts the fold (a round of
  // a task that did not start, out of order, or whose logged best disagrees with the replayed one).
  bool apply(const EventBody& body, std::string& error);
  synth::opt2::TaskRun* run_of(const std::string& task);
  const synth::opt2::TaskRun* run_of(const std::string& task) const;
};

class CampaignState;
// The report of a step-v2 campaign: per task baseline / best cycles, speedup, % of peak, the round the best was
// found at, verdict counts, the winning moves and the best-speedup curve; fast_1, fast_1_5, fast_2,
// median_speedup, geomean_speedup, auc over the campaign's tasks (tasks not started count as 1x), the overall
// curve (per proposal the median and geometric mean of the tasks' best speedups), the rule bank, usage.
nlohmann::json opt2_report_json(const CampaignState& s);
// One row per round: task,round,verdict,detail,cycles,best_cycles,best_speedup.
std::string opt2_report_csv(const CampaignState& s);

}  // namespace sf::learn
