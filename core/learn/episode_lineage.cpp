#include "core/learn/episode_lineage.hpp"

#include "core/learn/run_comparison.hpp"

namespace sf::learn {

std::optional<EpisodeLineage> episode_lineage(const CampaignState& s, int episode, std::string& error) {
  if (!s.is_sage()) {
    error = "not a sage campaign: episode lineage needs mode sage";
    return std::nullopt;
  }
  if (episode < 0 || episode >= static_cast<int>(s.sage.episodes.size())) {
    error = "no episode " + std::to_string(episode) + " (the log has " + std::to_string(s.sage.episodes.size()) +
            ")";
    return std::nullopt;
  }
  const SageEpisode& ep = s.sage.episodes[static_cast<std::size_t>(episode)];
  EpisodeLineage out;
  out.episode = ep.episode;
  out.task = ep.task;
  out.finished = ep.finished;
  out.solved = ep.solved;
  out.first_correct_round = ep.first_correct_round;
  std::string previous;
  for (const SageRound& r : ep.rounds) {
    LineageStep st;
    st.round = r.round;
    st.has_verdict = r.has_verdict;
    if (r.has_verdict) {
      st.impl = r.verdict.impl;
      st.pass = r.verdict.pass;
      st.stage = r.verdict.stage;
      st.code = r.verdict.code;
      st.cycles = r.verdict.cycles;
      st.speedup = r.verdict.speedup;
    }
    st.diagnostics = r.diagnostics;
    for (const auto& a : r.adoption) st.retrieved.push_back(a.item);
    st.adopted = r.adopted_ids;
    st.rules_used = r.rules_used;
    st.previous_impl = previous;
    st.diff = text::diff_stats(text::diff_texts(previous, st.impl));
    if (!st.impl.empty()) previous = st.impl;
    out.steps.push_back(std::move(st));
  }
  return out;
}

std::optional<EpisodeLineage> load_episode_lineage(const std::filesystem::path& dir, int episode,
                                                   std::string& error) {
  CampaignState st;
  if (!load_campaign_state(dir, st, error)) return std::nullopt;
  return episode_lineage(st, episode, error);
}

}  // namespace sf::learn
