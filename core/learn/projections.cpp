#include "core/learn/projections.hpp"

#include "core/learn/config.hpp"

#include <cstdio>

namespace sf::learn {

using nlohmann::json;

namespace {

template <class T>
T proj_field(const json& j, const char* key, T fallback) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if constexpr (std::is_same_v<T, bool>) {
    return it->is_boolean() ? it->get<bool>() : fallback;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return it->is_string() ? it->get<std::string>() : fallback;
  } else {
    return it->is_number() ? it->get<T>() : fallback;
  }
}

std::vector<memory::StateChange> proj_state_changes(const json& body, const char* key, memory::ItemState to) {
  std::vector<memory::StateChange> out;
  auto arr = body.find(key);
  if (arr == body.end() || !arr->is_array()) return out;
  for (const auto& c : *arr) {
    if (!c.is_object()) continue;
    memory::StateChange s;
    s.id = proj_field<std::string>(c, "item", "");
    if (s.id.empty()) continue;
    s.to = to;
    s.value = proj_field<double>(c, "value", 0.0);
    s.tokens = proj_field<int>(c, "tokens", 0);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

// ---- AuditView ----

void AuditView::apply(const Event& e) {
  if (const auto* v = std::get_if<Verdict>(&e.body)) {
    note_verdict(v->iteration, v->task, v->sample_index, v->pass, v->speedup, v->feasible);
    return;
  }
  const auto* g = std::get_if<GenericEvent>(&e.body);
  if (!g || (g->type != "adoption_record" && g->type != "experience_added" && g->type != "audit_label")) return;
  const json envelope = to_json(e);
  store::fold_audit_event(log_, envelope);
  if (g->type == "audit_label" && !log_.label_events.empty()) {
    std::string err;
    if (auto l = store::audit_label_from_json(envelope, err); l && *l == log_.label_events.back()) labels_.set(*l);
  }
}

bool AuditView::note_verdict(std::int64_t episode, const std::string& task, int round, bool pass,
                             std::optional<double> speedup, std::optional<bool> feasible) {
  if (!pass || !speedup || !feasible.value_or(true)) return false;
  speedups_[{episode, task, round}] = *speedup;
  return true;
}

std::optional<double> AuditView::speedup(std::int64_t episode, const std::string& task, int round) const {
  auto it = speedups_.find({episode, task, round});
  if (it == speedups_.end()) return std::nullopt;
  return it->second;
}

// ---- MemoryView ----

void MemoryView::ensure_item(const std::string& id, std::int64_t episode) {
  if (store_.find(id)) return;
  memory::NewExperience ne;
  ne.rule = id;
  ne.id = id;
  ne.source_episode = episode;
  (void)store_.add_experience(std::move(ne));
}

void MemoryView::apply(const Event& e) {
  if (const auto* cs = std::get_if<CampaignStarted>(&e.body)) {
    // A fresh memory with the campaign's parameters (the config echo; defaults when it does not parse).
    *this = MemoryView(std::move(initial_));
    memory::MemoryConfig mc;
    enabled_ = true;
    auto m = cs->config.is_object() ? cs->config.find("memory") : cs->config.end();
    if (cs->config.is_object() && m != cs->config.end() && m->is_object()) {
      std::string err;
      if (auto smc = sage_memory_from_json(*m, err)) {
        mc = smc->params;
        enabled_ = smc->enabled;
      }
    }
    if (initial_) {
      store_ = *initial_;
      store_.set_config(mc);
    } else {
      store_ = memory::MemoryStore(mc);
    }
    return;
  }
  if (!enabled_ || store_.config().frozen) return;
  const auto* g = std::get_if<GenericEvent>(&e.body);
  if (!g || !g->body.is_object()) return;
  const json& b = g->body;
  const auto episode = proj_field<std::int64_t>(b, "episode", 0);
  const std::string id = proj_field<std::string>(b, "item", "");
  if (g->type == "episode_started" || g->type == "episode_finished") {
    episode_task_[episode] = proj_field<std::string>(b, "task", "");
    if (g->type == "episode_finished") store_.count_episode();  // end_episode's count (before its credits)
  } else if (g->type == "experience_added") {
    if (id.empty() || store_.find(id)) return;
    memory::NewExperience ne;
    ne.id = id;
    ne.rule = proj_field<std::string>(b, "rule", "");
    if (ne.rule.empty()) ne.rule = id;
    ne.evidence = proj_field<std::string>(b, "evidence", "");
    if (auto p = proj_field<std::string>(b, "pattern", ""); !p.empty()) ne.pattern = p;
    ne.source_episode = episode;
    ne.source_task = proj_field<std::string>(b, "source_task", "");
    if (auto t = b.find("tokens"); t != b.end() && t->is_number_integer()) ne.tokens = t->get<int>();
    (void)store_.add_experience(std::move(ne));
  } else if (g->type == "credit") {
    if (id.empty()) return;
    ensure_item(id, episode);
    memory::CreditRecord c;
    c.id = id;
    c.episode = episode;
    c.adopted = proj_field<bool>(b, "adopted", false);
    c.credit = proj_field<double>(b, "credit", 0.0);
    c.eta = proj_field<double>(b, "eta", 0.0);
    c.utility_before = proj_field<double>(b, "utility_before", 0.0);
    c.utility_after = proj_field<double>(b, "utility_after", 0.0);
    const memory::MemoryItem* item = store_.find(id);
    c.n_updates = proj_field<int>(b, "n_updates", (item ? item->n_updates : 0) + 1);
    auto task = episode_task_.find(episode);
    store_.apply_credit(c, task == episode_task_.end() ? std::string() : task->second);
    trajectories_[id].emplace_back(episode, c.utility_after);
  } else if (g->type == "access_update") {
    if (id.empty()) return;
    ensure_item(id, episode);
    store_.apply_access({id, proj_field<bool>(b, "used", false), proj_field<double>(b, "access_before", 0.0),
                         proj_field<double>(b, "access_after", 0.0)});
  } else if (g->type == "consolidation") {
    before_consolidation_ = store_;
    before_hot_tokens_ = event_hot_tokens_;
    if (store_.consolidation_applies()) {
      store_.begin_consolidation();
      for (const auto& [key, to] : {std::pair{"validated", memory::ItemState::Validated},
                                    std::pair{"promoted", memory::ItemState::Hot},
                                    std::pair{"demoted", memory::ItemState::Validated}})
        for (auto& c : proj_state_changes(b, key, to)) {
          ensure_item(c.id, episode);
          if (const memory::MemoryItem* item = store_.find(c.id)) c.from = item->state;
          store_.apply_state_change(c);
        }
    }
    ++consolidations_;
    event_hot_tokens_ = proj_field<int>(b, "hot_tokens", event_hot_tokens_);
    event_budget_ = proj_field<int>(b, "budget", event_budget_);
  } else if (g->type == "consolidation_rollback") {
    // the engine undid the step: the store before it (the previous resident set) is the memory again
    if (before_consolidation_) {
      store_ = std::move(*before_consolidation_);
      event_hot_tokens_ = before_hot_tokens_;
      before_consolidation_.reset();
    }
    Rollback r;
    r.episode = episode;
    r.hot_tokens_before = proj_field<long long>(b, "hot_tokens_before", 0);
    r.hot_tokens_after = proj_field<long long>(b, "hot_tokens_after", 0);
    if (auto l = b.find("lost_adopted"); l != b.end() && l->is_array())
      for (const auto& x : *l)
        if (x.is_string()) r.lost_adopted.push_back(x.get<std::string>());
    rollbacks_.push_back(std::move(r));
  }
}

int MemoryView::hot_tokens() const {
  if (event_hot_tokens_ >= 0) return event_hot_tokens_;
  int sum = 0;
  for (const auto& it : store_.items())
    if (it.state == memory::ItemState::Hot) sum += it.resident_tokens;
  return sum;
}

// ---- StoryView ----

std::string_view moment_kind_name(Moment::Kind k) {
  switch (k) {
    case Moment::Kind::FirstSolved: return "first solved";
    case Moment::Kind::DemonstrationStep: return "demonstration step";
    case Moment::Kind::CrossTaskAdoption: return "adopted on another task";
    case Moment::Kind::Promotion: return "promotion";
    case Moment::Kind::Consolidation: return "consolidation";
    case Moment::Kind::BestSpeedup: return "best speedup";
  }
  return "moment";
}

void StoryView::add(Moment::Kind k, int x, std::string caption) {
  moments_.push_back({k, position_, x, std::move(caption)});
}

void StoryView::apply(const Event& e) {
  const std::size_t index = position_++;
  const std::string where_it = [&] { return (sage_ ? "episode " : "iteration ") + std::to_string(current_x_); }();
  if (const auto* cs = std::get_if<CampaignStarted>(&e.body)) {
    sage_ = cs->config.is_object() && cs->config.value("mode", std::string()) == "sage";
  } else if (const auto* is = std::get_if<IterationStarted>(&e.body)) {
    starts_.push_back(index);
    current_x_ = is->iteration;
    if (is->step > step_ && !is->demos.empty()) {
      step_ = is->step;
      add(Moment::Kind::DemonstrationStep, is->iteration,
          "Iteration " + std::to_string(is->iteration) + ": demonstration step " + std::to_string(is->step) +
              " of " + std::to_string(is->steps) + " — " + std::to_string(is->demos.size()) +
              " solved task(s) shown as examples");
    }
  } else if (const auto* sum = std::get_if<IterationSummary>(&e.body)) {
    if (!solved_any_)
      for (const auto& r : sum->results)
        if (r.newly_solved) {
          solved_any_ = true;
          add(Moment::Kind::FirstSolved, sum->iteration,
              "First task solved: " + r.task + " (iteration " + std::to_string(sum->iteration) + ")");
          break;
        }
  } else if (const auto* v = std::get_if<Verdict>(&e.body)) {
    // A speedup worth telling a room: faster than the baseline (> 1×) and than every earlier program.
    if (v->pass && v->speedup && v->feasible.value_or(true) && *v->speedup > best_speedup_.value_or(1.0)) {
      best_speedup_ = *v->speedup;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2f", *v->speedup);
      add(Moment::Kind::BestSpeedup, v->iteration,
          std::string("New best speedup: ") + buf + "× on " + v->task + " (" + where_it + ")");
    }
  } else if (const auto* g = std::get_if<GenericEvent>(&e.body)) {
    if (!g->body.is_object()) return;
    const json& b = g->body;
    const auto episode = proj_field<int>(b, "episode", current_x_);
    if (g->type == "episode_started") {
      starts_.push_back(index);
      current_x_ = episode;
    } else if (g->type == "episode_finished") {
      if (!solved_any_ && proj_field<bool>(b, "solved", false)) {
        solved_any_ = true;
        add(Moment::Kind::FirstSolved, episode,
            "First task solved: " + proj_field<std::string>(b, "task", "?") + " (episode " + std::to_string(episode) + ")");
      }
    } else if (g->type == "experience_added") {
      const std::string id = proj_field<std::string>(b, "item", "");
      if (!id.empty()) source_task_.emplace(id, proj_field<std::string>(b, "source_task", ""));
    } else if (g->type == "adoption_record") {
      const std::string id = proj_field<std::string>(b, "item", ""), task = proj_field<std::string>(b, "task", "");
      auto src = source_task_.find(id);
      if (!proj_field<bool>(b, "adopted", false) || src == source_task_.end() || src->second.empty() ||
          src->second == task || adopted_elsewhere_[id])
        return;
      adopted_elsewhere_[id] = true;
      add(Moment::Kind::CrossTaskAdoption, episode,
          "Experience " + id + " learned on " + src->second + " adopted on " + task + " (episode " +
              std::to_string(episode) + ")");
    } else if (g->type == "consolidation") {
      auto list = [&](const char* key) {
        std::vector<std::string> ids;
        auto arr = b.find(key);
        if (arr != b.end() && arr->is_array())
          for (const auto& c : *arr)
            if (c.is_object()) ids.push_back(proj_field<std::string>(c, "item", "?"));
        return ids;
      };
      const auto promoted = list("promoted"), validated = list("validated"), demoted = list("demoted");
      if (!promoted.empty()) {
        std::string ids;
        for (const auto& id : promoted) ids += (ids.empty() ? "" : ", ") + id;
        add(Moment::Kind::Promotion, episode,
            "Promoted to resident memory: " + ids + " (episode " + std::to_string(episode) + ")");
      } else if (!validated.empty() || !demoted.empty()) {
        add(Moment::Kind::Consolidation, episode,
            "Consolidation after episode " + std::to_string(episode) + ": " + std::to_string(validated.size()) +
                " validated, " + std::to_string(demoted.size()) + " demoted");
      }
    }
  }
}

}  // namespace sf::learn
