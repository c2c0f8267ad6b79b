#include "core/learn/sage_state.hpp"

#include <algorithm>

#include "core/learn/metrics.hpp"

namespace sf::learn {

using nlohmann::json;

namespace {

bool get_int(const json& j, const char* key, int& out) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return false;
  out = it->get<int>();
  return true;
}

std::string get_str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

SageEpisode* SageState::open_episode() {
  if (episodes.empty() || episodes.back().finished) return nullptr;
  return &episodes.back();
}

int SageState::finished_episodes() const {
  return static_cast<int>(
      std::count_if(episodes.begin(), episodes.end(), [](const auto& e) { return e.finished; }));
}

bool SageState::apply(const std::string& type, const json& b, std::string& error, bool& known) {
  known = true;
  int ep = -1;
  if (type == "audit_label") return true;
  if (type == "episode_started") {
    SageEpisode e;
    if (!get_int(b, "episode", e.episode) || !get_int(b, "max_rounds", e.max_rounds) || !b.contains("task")) {
      error = "episode_started lacks episode, task or max_rounds";
      return false;
    }
    e.task = get_str(b, "task");
    const int n = static_cast<int>(episodes.size());
    if (e.episode == n) {
      if (n > 0 && !episodes.back().finished) {
        error = "episode " + std::to_string(e.episode) + " started while episode " + std::to_string(n - 1) +
                " is open";
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
  if (!get_int(b, "episode", ep) || ep < 0 || ep >= static_cast<int>(episodes.size())) {
    known = type == "adoption_record" || type == "episode_finished" || type == "experience_added" ||
            type == "credit" || type == "access_update" || type == "consolidation" ||
            type == "consolidation_rollback";
    if (!known) return true;
    error = type + " of an unknown episode";
    return false;
  }
  SageEpisode& e = episodes[static_cast<std::size_t>(ep)];
  if (type == "adoption_record") {
    int round = 0;
    if (e.finished || !get_int(b, "round", round) || round < 0) {
      error = "adoption_record outside a running episode";
      return false;
    }
    while (static_cast<int>(e.rounds.size()) <= round)
      e.rounds.push_back({static_cast<int>(e.rounds.size())});
    e.rounds[static_cast<std::size_t>(round)].adoption.push_back(b);
    return true;
  }
  if (type == "episode_finished") {
    if (e.finished) {
      error = "episode " + std::to_string(ep) + " finished twice";
      return false;
    }
    e.finished = true;
    e.score = b.value("score", 0.0);
    e.rounds_used = b.value("rounds", 0);
    e.first_correct_round = b.value("first_correct_round", -1);
    e.solved = b.value("solved", false);
    return true;
  }
  if (type == "experience_added" || type == "credit" || type == "access_update" || type == "consolidation" ||
      type == "consolidation_rollback") {
    if (!e.finished) {
      error = type + " before episode " + std::to_string(ep) + " finished";
      return false;
    }
    ++e.memory_events;
    if (type == "credit") {
      ++credits;
      utility[get_str(b, "item")].emplace_back(ep, b.value("utility_after", 0.0));
    } else if (type == "access_update") {
      ++access_updates;
    } else if (type == "experience_added") {
      experiences[get_str(b, "item")] = b;
    } else if (type == "consolidation_rollback") {
      rollbacks.push_back(b);
    } else {
      e.consolidated = true;
      consolidations.push_back(b);
    }
    return true;
  }
  known = false;
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
        if (a.value("adopted", false)) ++adopted_records;
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
    validated += static_cast<int>(c.value("validated", json::array()).size());
    promoted += static_cast<int>(c.value("promoted", json::array()).size());
    demoted += static_cast<int>(c.value("demoted", json::array()).size());
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
