// The sage campaign (algorithms §4, issue 7) as a fold over its events (docs/learn.md "Sage events"):
// episodes with their rounds (verdicts, verifier diagnostics, adoption records), the memory phase that
// follows each finished episode (credits, access updates, new experiences, consolidation), and the metrics of
// §4.6: ER, rounds to first correct, pass@k over episodes, utility trajectories per item.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/learn/events.hpp"

namespace sf::learn {

struct SageRound {
  int round = 0;
  bool has_verdict = false;
  Verdict verdict;
  std::string diagnostics;               // the verifier's formatted diagnostics ("" on pass)
  std::vector<AdoptionRecord> adoption;  // the round's adoption records, in retrieval order
  std::vector<std::string>
      adopted_ids;  // every id a proposer answer of the round marked adopted (hot rules too)
  // every id a proposer answer of the round listed in `rules_used:` (the resident rules it says it followed)
  std::vector<std::string> rules_used;
};

struct SageEpisode {
  int episode = 0;
  std::string task;
  int max_rounds = 0;
  std::vector<SageRound> rounds;
  bool finished = false;
  double score = 0.0;
  int rounds_used = 0;
  int first_correct_round = -1;
  bool solved = false;
  int memory_events = 0;  // events of the memory phase logged after episode_finished (resume skips them)
  bool consolidated = false;
};

struct SageState {
  std::vector<SageEpisode> episodes;  // index = episode number
  // item -> (episode, utility after the credit), in log order.
  std::map<std::string, std::vector<std::pair<int, double>>> utility;
  std::map<std::string, ExperienceAdded> experiences;  // item -> its experience_added event
  std::vector<Consolidation> consolidations;
  std::vector<ConsolidationRollback> rollbacks;  // the UGC guard undid a step
  int credits = 0, access_updates = 0;

  SageEpisode* open_episode();  // the last episode when it is not finished
  int finished_episodes() const;
  // Sage event kinds: episode_started, adoption_record, episode_finished, experience_added, credit,
  // access_update, consolidation, consolidation_rollback (audit_label is ignored). False with `error` when
  // the event contradicts the state. `known` is set to false for a kind this fold does not handle.
  bool apply(const EventBody& b, std::string& error, bool& known);
  bool apply_verdict(const Verdict& v, std::string& error);
  bool apply_call(const LlmCall& c, std::string& error);

 private:
  bool start(const EpisodeStarted& s, std::string& error);
  SageEpisode* episode_of(std::int64_t ep, const std::string& type, std::string& error);
  SageEpisode* memory_phase(std::int64_t ep, const std::string& type, std::string& error);
};

// The sage part of `campaign report --json`: {er, rounds_to_first_correct, episodes_total, episodes_solved,
// episodes_per_task, pass_at_k_episodes, episodes: [...], utility_trajectories: {item: [[episode, U], ...]},
// memory: {experiences, credits, access_updates, consolidations, validated, promoted, demoted,
// adoption_records, adopted_records}}. `task_ids`: every campaign task, in campaign order.
nlohmann::json sage_report_json(const SageState& s, const std::vector<std::string>& task_ids,
                                int episodes_per_task);

}  // namespace sf::learn
