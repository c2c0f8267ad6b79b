#include "core/learn/sage_state.hpp"

#include <algorithm>

#include "core/learn/metrics.hpp"

namespace sf::learn {

using nlohmann::json;

SageEpisode* SageState::open_episode() {
  if (episodes.empty() || episodes.back().finished) return nullptr;
  return &episodes.back();
}

int SageState::finished_episodes() const {
  return static_cast<int>(
      std::count_if(episodes.begin(), episodes.end(), [](const auto& e) { return e.finished; }));
}

bool SageState::start(const EpisodeStarted& s, std::string& error) {
  SageEpisode e;
  e.episode = s.episode;
  e.task = s.task;
  e.max_rounds = s.max_rounds;
  const int n = static_cast<int>(episodes.size());
  if (e.episode == n) {
    if (n > 0 && !episodes.back().finished) {
      error = "episode " + std::to_string(e.episode) + " started while episode " + std::to_string(n - 1) + " is open";
      return false;
    }
    episodes.push_back(std::move(e));
  } else if (e.episode == n - 1 && !episodes.back().finished) {
    episodes.back() = std::move(e);  // an interrupted episode restarted by a resumed run
  } else {
    error = "episode " + std::to_string(e.episode) + " out of order";
    return false;
  }
  return true;
}

// The episode an event of `type` names; null with `error` when it is not one of the log's episodes.
SageEpisode* SageState::episode_of(std::int64_t ep, const std::string& type, std::string& error) {
  if (ep < 0 || ep >= static_cast<std::int64_t>(episodes.size())) {
    error = type + " of an unknown episode";
    return nullptr;
  }
  return &episodes[static_cast<std::size_t>(ep)];
}

// An event of the memory phase that follows a finished episode.
SageEpisode* SageState::memory_phase(std::int64_t ep, const std::string& type, std::string& error) {
  SageEpisode* e = episode_of(ep, type, error);
  if (e && !e->finished) {
    error = type + " before episode " + std::to_string(ep) + " finished";
    return nullptr;
  }
  if (e) ++e->memory_events;
  return e;
}

bool SageState::apply(const EventBody& b, std::string& error, bool& known) {
  known = true;
  if (const auto* s = std::get_if<EpisodeStarted>(&b)) return start(*s, error);
  if (const auto* a = std::get_if<AdoptionRecord>(&b)) {
    SageEpisode* e = episode_of(a->episode, "adoption_record", error);
    if (!e) return false;
    if (e->finished || a->round < 0) {
      error = "adoption_record outside a running episode";
      return false;
    }
    while (static_cast<int>(e->rounds.size()) <= a->round) e->rounds.push_back({static_cast<int>(e->rounds.size())});
    e->rounds[static_cast<std::size_t>(a->round)].adoption.push_back(*a);
    return true;
  }
  if (const auto* f = std::get_if<EpisodeFinished>(&b)) {
    SageEpisode* e = episode_of(f->episode, "episode_finished", error);
    if (!e) return false;
    if (e->finished) {
      error = "episode " + std::to_string(f->episode) + " finished twice";
      return false;
    }
    e->finished = true;
    e->score = f->score;
    e->rounds_used = f->rounds;
    e->first_correct_round = f->first_correct_round;
    e->solved = f->solved;
    return true;
  }
  if (const auto* x = std::get_if<ExperienceAdded>(&b)) {
    if (!memory_phase(x->episode, "experience_added", error)) return false;
    experiences[x->item] = *x;
    return true;
  }
  if (const auto* c = std::get_if<CreditEvent>(&b)) {
    if (!memory_phase(c->episode, "credit", error)) return false;
    ++credits;
    utility[c->item].emplace_back(c->episode, c->utility_after);
    return true;
  }
  if (const auto* a = std::get_if<AccessUpdate>(&b)) {
    if (!memory_phase(a->episode, "access_update", error)) return false;
    ++access_updates;
    return true;
  }
  if (const auto* c = std::get_if<Consolidation>(&b)) {
    SageEpisode* e = memory_phase(c->episode, "consolidation", error);
    if (!e) return false;
    e->consolidated = true;
    consolidations.push_back(*c);
    return true;
  }
  if (const auto* r = std::get_if<ConsolidationRollback>(&b)) {
    if (!memory_phase(r->episode, "consolidation_rollback", error)) return false;
    rollbacks.push_back(*r);
    return true;
  }
  known = std::holds_alternative<AuditLabel>(b);  // written by the audit pane: not part of the run's state
  return true;
}

bool SageState::apply_verdict(const Verdict& v, std::string& error) {
  if (v.iteration < 0 || v.iteration >= static_cast<int>(episodes.size()) ||
      episodes[static_cast<std::size_t>(v.iteration)].finished || v.sample_index < 0) {
    error = "verdict outside a running episode";
    return false;
  }
  SageEpisode& e = episodes[static_cast<std::size_t>(v.iteration)];
  while (static_cast<int>(e.rounds.size()) <= v.sample_index)
    e.rounds.push_back({static_cast<int>(e.rounds.size())});
  SageRound& r = e.rounds[static_cast<std::size_t>(v.sample_index)];
  if (r.has_verdict) {
    error = "duplicate verdict for episode " + std::to_string(v.iteration) + " round " +
            std::to_string(v.sample_index);
    return false;
  }
  r.has_verdict = true;
  r.verdict = v;
  return true;
}

bool SageState::apply_call(const LlmCall& c, std::string& error) {
  if (c.iteration < 0 || c.iteration >= static_cast<int>(episodes.size())) {
    error = "llm_call of an unknown episode";
    return false;
  }
  SageEpisode& e = episodes[static_cast<std::size_t>(c.iteration)];
  if (e.finished) {  // the memory phase (distiller, abstractor)
    ++e.memory_events;
    return true;
  }
  if (c.sample_index < 0) return true;
  while (static_cast<int>(e.rounds.size()) <= c.sample_index)
    e.rounds.push_back({static_cast<int>(e.rounds.size())});
  SageRound& r = e.rounds[static_cast<std::size_t>(c.sample_index)];
  if (!c.trace.is_object()) return true;
  const std::string role = c.trace.value("role", "");
  if (role == "verifier") r.diagnostics = c.trace.value("response", "");
  if (role == "proposer") {
    const json& ad = c.trace.value("adoption", json::array());
    for (const auto& a : ad) {
      if (!a.is_object() || !a.value("adopted", json()).is_boolean() || !a["adopted"].get<bool>()) continue;
      std::string id = a.value("id", "");
      if (std::find(r.adopted_ids.begin(), r.adopted_ids.end(), id) == r.adopted_ids.end())
        r.adopted_ids.push_back(id);
    }
    const json& used = c.trace.value("rules_used", json::array());
    if (used.is_array())
      for (const auto& u : used)
        if (u.is_string() && std::find(r.rules_used.begin(), r.rules_used.end(), u.get<std::string>()) == r.rules_used.end())
          r.rules_used.push_back(u.get<std::string>());
  }
  return true;
}

json sage_report_json(const SageState& s, const std::vector<std::string>& task_ids, int episodes_per_task) {
  json r;
  std::map<std::string, int> solved_by_task, run_by_task;
  int total = 0, solved = 0, rounds_sum = 0;
  json eps = json::array();
  int records = 0, adopted_records = 0;
  for (const auto& e : s.episodes) {
    for (const auto& rd : e.rounds)
      for (const auto& a : rd.adoption) {
        ++records;
        if (a.adopted) ++adopted_records;
      }
    if (!e.finished) continue;
    ++total;
    ++run_by_task[e.task];
    if (e.solved) {
      ++solved;
      ++solved_by_task[e.task];
      rounds_sum += e.first_correct_round + 1;
    }
    eps.push_back({{"episode", e.episode},
                   {"task", e.task},
                   {"score", e.score},
                   {"rounds", e.rounds_used},
                   {"first_correct_round", e.first_correct_round},
                   {"solved", e.solved}});
  }
  // ER: mean over the campaign's tasks of (solved episodes / episodes per task); with one episode per task
  // this is the spec's "tasks with a correct program within T rounds / all tasks".
  const int n = std::max(1, episodes_per_task);
  std::vector<int> counts;
  for (const auto& t : task_ids)
    counts.push_back(std::min(n, solved_by_task.count(t) ? solved_by_task.at(t) : 0));
  r["er"] = task_ids.empty() ? 0.0 : pass_at_1(counts, n).value_or(0.0);
  r["rounds_to_first_correct"] = solved > 0 ? json(static_cast<double>(rounds_sum) / solved) : json(nullptr);
  r["episodes_total"] = total;
  r["episodes_solved"] = solved;
  r["episodes_per_task"] = n;
  json pk = json::object();
  if (n > 1 && !task_ids.empty()) {
    for (int k = 1; k < n; k *= 2) pk[std::to_string(k)] = pass_at_k(counts, n, k).value_or(0.0);
    pk[std::to_string(n)] = pass_at_k(counts, n, n).value_or(0.0);
  }
  r["pass_at_k_episodes"] = pk;
  r["episodes"] = eps;
  json traj = json::object();
  for (const auto& [id, pts] : s.utility) {
    json a = json::array();
    for (const auto& [ep, u] : pts) a.push_back({ep, u});
    traj[id] = a;
  }
  r["utility_trajectories"] = traj;
  int validated = 0, promoted = 0, demoted = 0;
  for (const auto& c : s.consolidations) {
    validated += static_cast<int>(c.validated.size());
    promoted += static_cast<int>(c.promoted.size());
    demoted += static_cast<int>(c.demoted.size());
  }
  r["memory"] = {{"experiences", s.experiences.size()},
                 {"credits", s.credits},
                 {"access_updates", s.access_updates},
                 {"consolidations", s.consolidations.size()},
                 {"consolidation_rollbacks", s.rollbacks.size()},
                 {"validated", validated},
                 {"promoted", promoted},
                 {"demoted", demoted},
                 {"adoption_records", records},
                 {"adopted_records", adopted_records}};
  return r;
}

}  // namespace sf::learn
