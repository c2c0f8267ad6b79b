// Episode lineage (issue 20 item 5): a sage episode's rounds as a chain, round -> program -> verdict ->
// adopted items, each step with its line diff from the previous round's program. Built from the episode as
// CampaignState folds the events (SageState: verdicts, verifier diagnostics, adoption records, the proposer's
// adoption list), so the trace pane, the audit pane and any report see the same chain.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/common/text_diff.hpp"
#include "core/learn/engine_state.hpp"

namespace sf::learn {

struct LineageStep {
  int round = 0;
  bool has_verdict = false;  // false: the round was cut short (an interrupted episode) and has no verdict
  std::string impl;          // the round's program ("" when it produced none)
  bool pass = false;
  std::string stage, code;   // of a failing verdict
  std::optional<std::int64_t> cycles;
  std::optional<double> speedup;
  std::string diagnostics;  // the verifier's diagnostics as fed back ("" on pass)
  std::vector<std::string> retrieved;  // items of the round's adoption records, in retrieval order
  std::vector<std::string> adopted;    // items the proposer marked adopted (hot rules too)
  std::vector<std::string> rules_used;  // resident rules the proposer listed under rules_used:
  std::string previous_impl;  // the last earlier round's program ("" for the first one)
  text::DiffStats diff;       // previous_impl -> impl
};

struct EpisodeLineage {
  int episode = 0;
  std::string task;
  bool finished = false, solved = false;
  int first_correct_round = -1;
  std::vector<LineageStep> steps;  // in round order
};

// The lineage of `episode`; nullopt with `error` for a campaign that is not sage or an unknown episode.
std::optional<EpisodeLineage> episode_lineage(const CampaignState& s, int episode, std::string& error);
// The same from a workspace on disk (read-only).
std::optional<EpisodeLineage> load_episode_lineage(const std::filesystem::path& dir, int episode, std::string& error);

}  // namespace sf::learn
